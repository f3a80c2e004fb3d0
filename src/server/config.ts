import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(1, 'PORT must be a port number').max(65535, 'PORT must be a port number').default(5000),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .refine((v) => /^postgres(ql)?:\/\//.test(v), 'DATABASE_URL must start with postgres:// or postgresql://')
      .optional(),
    APP_URL: z.string().url('APP_URL must be a full URL such as https://fees.example.in').optional(),
    SMTP_URL: z
      .string()
      .refine((v) => /^smtps?:\/\//.test(v), 'SMTP_URL must look like smtp://user:pass@host:587')
      .optional(),
    MAIL_FROM: z.string().min(3).default('School Ledger <no-reply@localhost>'),
    ADMIN_EMAIL: z.string().email('ADMIN_EMAIL must be an email address').optional(),
    ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters').optional(),
    SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
    ENCRYPTION_KEY: z.string().min(32, 'ENCRYPTION_KEY must be at least 32 characters').optional(),
    RAZORPAY_KEY_ID: z.string().regex(/^rzp_(test|live)_\w+$/, 'RAZORPAY_KEY_ID must look like rzp_test_… or rzp_live_…').optional(),
    RAZORPAY_KEY_SECRET: z.string().min(8, 'RAZORPAY_KEY_SECRET looks too short').optional(),
    RAZORPAY_WEBHOOK_SECRET: z.string().min(8, 'RAZORPAY_WEBHOOK_SECRET looks too short').optional(),
    RAZORPAY_API_URL: z.string().url('RAZORPAY_API_URL must be a full URL such as https://api.razorpay.com').optional(),
    PAYMENTS_PROVIDER: z
      .enum(['razorpay', 'sandbox'], { message: 'PAYMENTS_PROVIDER must be razorpay or sandbox' })
      .optional(),
    SERVE_WEB: z.enum(['true', 'false'], { message: 'SERVE_WEB must be true or false' }).default('true'),
    TRUST_PROXY: z
      .string()
      .transform((v, ctx) => {
        const parsed = parseTrustProxy(v);
        if (parsed === null) {
          ctx.addIssue({ code: 'custom', message: TRUST_PROXY_MESSAGE });
          return z.NEVER;
        }
        return parsed;
      })
      .optional(),
  })
  .refine((v) => Boolean(v.ADMIN_EMAIL) === Boolean(v.ADMIN_PASSWORD), {
    message: 'Set ADMIN_EMAIL and ADMIN_PASSWORD together',
    path: ['ADMIN_PASSWORD'],
  })
  .refine((v) => Boolean(v.RAZORPAY_KEY_ID) === Boolean(v.RAZORPAY_KEY_SECRET), {
    message: 'Set RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET together',
    path: ['RAZORPAY_KEY_SECRET'],
  })
  .refine((v) => v.PAYMENTS_PROVIDER !== 'razorpay' || Boolean(v.RAZORPAY_KEY_ID && v.RAZORPAY_KEY_SECRET), {
    message: 'PAYMENTS_PROVIDER=razorpay needs RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET',
    path: ['PAYMENTS_PROVIDER'],
  })
  // ruling 29: a live server never falls back to the sandbox (every plan free) because keys were forgotten
  .refine((v) => v.NODE_ENV !== 'production' || v.PAYMENTS_PROVIDER === 'sandbox' || Boolean(v.RAZORPAY_KEY_ID && v.RAZORPAY_KEY_SECRET), {
    message:
      'In production, set RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET for real payments, or PAYMENTS_PROVIDER=sandbox to run the test checkout on purpose',
    path: ['PAYMENTS_PROVIDER'],
  });

const TRUST_PROXY_MESSAGE =
  'TRUST_PROXY must be the number of proxies in front of the app (such as 1) or a comma-separated list of their addresses or networks (such as 10.0.0.1,192.168.0.0/16)';

/** An address (`10.0.0.1`, `::1`) or a network (`10.0.0.0/8`, `fd00::/8`) with a prefix its family allows. */
function isAddressOrNetwork(text: string): boolean {
  const [address = '', prefix, ...rest] = text.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which proxies may tell the app the client's address (X-Forwarded-For): a hop count, or the
 * proxies' addresses. Null when the text is neither.
 */
export function parseTrustProxy(text: string): number | string[] | null {
  const value = text.trim();
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const entries = value.split(',').map((part) => part.trim());
  return entries.length > 0 && entries.every(isAddressOrNetwork) ? entries : null;
}

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  appUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  admin: { email: string; password: string } | undefined;
  /** which provider takes subscription payments: Razorpay with its keys, or the built-in sandbox (no money moves) */
  paymentsProvider: 'razorpay' | 'sandbox';
  /** Razorpay keys; set exactly when paymentsProvider is 'razorpay' */
  razorpay: { keyId: string; keySecret: string; webhookSecret: string | undefined } | undefined;
  /** Razorpay's API address (schools' own keys too); a test points it at a local fake server */
  razorpayApiUrl: string;
  sessionSecret: string;
  /** encrypts Aadhaar numbers at rest; losing it makes stored numbers unreadable */
  encryptionKey: string;
  isDevelopment: boolean;
  /**
   * Proxies whose X-Forwarded-For is believed (the client address of the audit log and sign-in
   * history): none by default, so a client cannot choose the address it is recorded under.
   */
  trustProxy: false | number | string[];
  /**
   * Development without a mail server: the forgot-password answer carries the reset link so a
   * newcomer can use it. Never with SMTP configured, so a deployment that forgot NODE_ENV does not
   * hand out reset links to anyone who asks.
   */
  revealResetTokens: boolean;
  /** build (when stale) and serve the web app; false runs the API alone */
  serveWeb: boolean;
}

export class ConfigError extends Error {}

/** Empty variables count as unset, so `PORT=` in a shell file does not break start-up. */
function cleanEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(cleanEnv(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || 'env'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  // an explicit PAYMENTS_PROVIDER wins; otherwise the keys decide (outside production, see the refinement above)
  const provider = e.PAYMENTS_PROVIDER ?? (e.RAZORPAY_KEY_ID && e.RAZORPAY_KEY_SECRET ? 'razorpay' : 'sandbox');
  const razorpay =
    provider === 'razorpay' && e.RAZORPAY_KEY_ID && e.RAZORPAY_KEY_SECRET
      ? { keyId: e.RAZORPAY_KEY_ID, keySecret: e.RAZORPAY_KEY_SECRET, webhookSecret: e.RAZORPAY_WEBHOOK_SECRET }
      : undefined;
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL.toLowerCase(), password: e.ADMIN_PASSWORD } : undefined,
    paymentsProvider: provider,
    razorpay,
    razorpayApiUrl: (e.RAZORPAY_API_URL ?? 'https://api.razorpay.com').replace(/\/$/, ''),
    sessionSecret: e.SESSION_SECRET ?? persistentSecret(dataDir, 'session-secret'),
    encryptionKey: e.ENCRYPTION_KEY ?? persistentSecret(dataDir, 'encryption-key'),
    isDevelopment: e.NODE_ENV === 'development',
    trustProxy: e.TRUST_PROXY === undefined || e.TRUST_PROXY === 0 ? false : e.TRUST_PROXY,
    revealResetTokens: e.NODE_ENV === 'development' && !e.SMTP_URL,
    serveWeb: e.SERVE_WEB === 'true',
  };
}

/** Without SESSION_SECRET (or ENCRYPTION_KEY), a random secret is made once and kept in DATA_DIR so it survives restarts. */
function persistentSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
