import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { UPI_VPA_PATTERN } from '../../domain/payment-links';
import type { AppDeps } from '../app';
import type { Db } from '../db/client';
import { schoolPaymentSettings } from '../db/schema';
import { RazorpayProvider, SandboxProvider, type PaymentProvider } from '../payments/provider';

export type SettingsRow = typeof schoolPaymentSettings.$inferSelect;
export type CollectsThrough = 'razorpay' | 'sandbox' | 'upi' | 'none';

export async function readSettings(db: Db, schoolId: string): Promise<SettingsRow | undefined> {
  const [row] = await db.select().from(schoolPaymentSettings).where(eq(schoolPaymentSettings.schoolId, schoolId)).limit(1);
  return row;
}

/** The school's settings row, made on first use with its own webhook key. */
export async function ensureSettings(db: Db, schoolId: string): Promise<SettingsRow> {
  const existing = await readSettings(db, schoolId);
  if (existing) return existing;
  await db.insert(schoolPaymentSettings).values({ schoolId, webhookKey: randomBytes(24).toString('base64url') }).onConflictDoNothing();
  return (await readSettings(db, schoolId))!;
}

const hasKeys = (s: SettingsRow | undefined): s is SettingsRow & { razorpayKeyId: string; razorpayKeySecretEnc: string } =>
  Boolean(s?.razorpayKeyId && s.razorpayKeySecretEnc);

/**
 * Which gateway takes this school's link payments: its own Razorpay keys; else the sandbox when
 * the server runs it (development and tests, or chosen on purpose: ruling 29); else none, and the
 * link is paid by UPI to the school's VPA alone.
 */
export function gatewayFor(deps: Pick<AppDeps, 'payments' | 'cipher' | 'config'>, settings: SettingsRow | undefined): PaymentProvider | null {
  if (hasKeys(settings)) {
    return new RazorpayProvider(
      settings.razorpayKeyId,
      deps.cipher.decrypt(settings.razorpayKeySecretEnc),
      settings.razorpayWebhookSecretEnc ? deps.cipher.decrypt(settings.razorpayWebhookSecretEnc) : undefined,
      fetch,
      { baseUrl: deps.config.razorpayApiUrl },
    );
  }
  return deps.payments instanceof SandboxProvider ? deps.payments : null;
}

export function collectsThrough(deps: Pick<AppDeps, 'payments'>, settings: SettingsRow | undefined): CollectsThrough {
  if (hasKeys(settings)) return 'razorpay';
  if (deps.payments instanceof SandboxProvider) return 'sandbox';
  if (settings?.upiVpa) return 'upi';
  return 'none';
}

export const settingsDto = z.object({
  razorpayKeyId: z.string().nullable(),
  razorpayKeySecretSet: z.boolean(),
  webhookSecretSet: z.boolean(),
  upiVpa: z.string().nullable(),
  upiPayeeName: z.string().nullable(),
  collectsThrough: z.enum(['razorpay', 'sandbox', 'upi', 'none']),
  webhookUrl: z.string().describe("the address to give Razorpay's dashboard for this school's webhook"),
});

export function toSettingsDto(deps: Pick<AppDeps, 'payments' | 'config'>, row: SettingsRow): z.infer<typeof settingsDto> {
  return {
    razorpayKeyId: row.razorpayKeyId,
    razorpayKeySecretSet: Boolean(row.razorpayKeySecretEnc),
    webhookSecretSet: Boolean(row.razorpayWebhookSecretEnc),
    upiVpa: row.upiVpa,
    upiPayeeName: row.upiPayeeName,
    collectsThrough: collectsThrough(deps, row),
    webhookUrl: `${deps.config.appUrl}/api/pay/webhook/${row.webhookKey}`,
  };
}

/** omitted = keep, "" = clear */
const field = (pattern: RegExp | null, message: string, max = 200) =>
  z
    .string({ error: message })
    .max(max, message)
    .transform((v) => v.trim())
    .refine((v) => v === '' || !pattern || pattern.test(v), message)
    .optional();

export const settingsBody = z.object({
  razorpayKeyId: field(/^rzp_(test|live)_[A-Za-z0-9]+$/, 'The Razorpay key id looks like rzp_live_… or rzp_test_…', 60),
  razorpayKeySecret: field(/^\S{8,}$/, 'The Razorpay key secret looks too short', 200),
  razorpayWebhookSecret: field(/^\S{8,}$/, 'The webhook secret must be at least 8 characters without spaces', 200),
  upiVpa: field(UPI_VPA_PATTERN, 'The UPI id must look like schoolname@bank', 100),
  upiPayeeName: field(/^[^<>]{2,}$/, 'The payee name must be the name on the bank account (2 to 100 characters)', 100),
});
