import { z } from 'zod';
import { clientIdInput } from './ledger';
import { parseRupees } from './money';
import { EXTEND_DAYS, SUBSCRIPTION_STATUSES } from './plans';

/**
 * Inputs of the master administrator's subscription actions (platform §4–§7, issue 12). One schema
 * per action, read by the server and by the portal's forms. Every write names a reason for the audit log.
 */

export const SUBSCRIPTION_TEXTS = {
  reason: 'Give a reason for this change: it is kept in the audit log',
  days: 'Days must be a whole number from 1 to 365',
  date: 'Enter a valid date',
  endBeforeStart: 'The end date must be after the start date',
  plan: 'Choose a valid plan',
  status: 'Choose a valid status: trial, active, expired or cancelled',
  amount: 'Enter the amount received in rupees, e.g. 3540 or 3540.00',
  reference: 'Enter the cheque number or the bank / UPI reference',
  futureDate: 'The payment date cannot be in the future',
} as const;

export const reasonField = z
  .string({ error: SUBSCRIPTION_TEXTS.reason })
  .trim()
  .min(3, SUBSCRIPTION_TEXTS.reason)
  .max(500, 'The reason is too long (500 characters at most)');

/** A date as the dialogs send it: an ISO timestamp or a calendar date (India time). */
export const dateField = z
  .string()
  .trim()
  .refine((v) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(v) && !Number.isNaN(parseDateInput(v).getTime()), SUBSCRIPTION_TEXTS.date);

/** "2026-11-22" is the start of that day in India; a full timestamp is taken as given. */
export function parseDateInput(value: string): Date {
  return value.length === 10 ? new Date(`${value}T00:00:00.000+05:30`) : new Date(value);
}

const planField = z.string({ error: SUBSCRIPTION_TEXTS.plan }).trim().min(1, SUBSCRIPTION_TEXTS.plan).max(40, SUBSCRIPTION_TEXTS.plan);
const statusField = z.enum(SUBSCRIPTION_STATUSES, { error: SUBSCRIPTION_TEXTS.status });

const endAfterStart = (start: string | null | undefined, end: string | null | undefined) =>
  !start || !end || parseDateInput(end).getTime() > parseDateInput(start).getTime();

/** PUT /api/admin/schools/{id}/plan (Manage School Plan): start defaults to today, end is optional. */
export const managePlanSchema = z
  .object({ plan: planField, status: statusField, startDate: dateField.optional(), endDate: dateField.optional(), reason: reasonField })
  .refine((v) => endAfterStart(v.startDate, v.endDate), { message: SUBSCRIPTION_TEXTS.endBeforeStart, path: ['endDate'] });

/** PUT /api/admin/schools/{id}/subscription (Edit Subscription): empty dates are null. */
export const editSubscriptionSchema = z
  .object({
    schoolId: z.string().optional(),
    subscriptionPlan: planField,
    subscriptionStatus: statusField,
    planStartDate: dateField.nullable().optional(),
    planEndDate: dateField.nullable().optional(),
    reason: reasonField,
  })
  .refine((v) => endAfterStart(v.planStartDate, v.planEndDate), { message: SUBSCRIPTION_TEXTS.endBeforeStart, path: ['planEndDate'] });

export const cancelSchema = z.object({ endAccessNow: z.boolean().optional().default(false), reason: reasonField });

export const extendSchema = z.object({
  days: z.coerce
    .number({ error: SUBSCRIPTION_TEXTS.days })
    .int(SUBSCRIPTION_TEXTS.days)
    .min(EXTEND_DAYS.min, SUBSCRIPTION_TEXTS.days)
    .max(EXTEND_DAYS.max, SUBSCRIPTION_TEXTS.days),
  reason: reasonField,
  /** the dialog's idempotency key (ruling 5): the same key with the same fields is applied once */
  clientId: clientIdInput,
});

export const changePlanSchema = z.object({
  newPlan: planField,
  isMonthly: z.boolean().optional().default(false),
  reason: reasonField,
  /** the dialog's idempotency key (ruling 5) */
  clientId: clientIdInput,
});

export const OFFLINE_MODES = ['cheque', 'neft', 'upi'] as const;
export const OFFLINE_MODE_LABELS: Record<(typeof OFFLINE_MODES)[number], string> = { cheque: 'Cheque', neft: 'NEFT', upi: 'UPI' };

/** An offline payment: the amount received includes 18% GST; it buys the plan as an online order would (ruling 28). */
export const offlinePaymentSchema = z.object({
  plan: planField,
  billingCycle: z.enum(['monthly', 'yearly']).default('yearly'),
  amount: z
    .union([z.string(), z.number()])
    .refine((v) => {
      const p = parseRupees(v);
      return p !== null && p > 0;
    }, SUBSCRIPTION_TEXTS.amount),
  mode: z.enum(OFFLINE_MODES, { error: 'Choose how it was paid: cheque, NEFT or UPI' }),
  reference: z.string().trim().min(1, SUBSCRIPTION_TEXTS.reference).max(100, 'The reference is too long'),
  date: z.string().trim().regex(/^\d{4}-\d{2}-\d{2}$/, SUBSCRIPTION_TEXTS.date).refine((v) => !Number.isNaN(parseDateInput(v).getTime()), SUBSCRIPTION_TEXTS.date),
  reason: reasonField,
  /** the dialog's idempotency key (ruling 5): a second press records one payment and one invoice */
  clientId: clientIdInput,
});

export const activationSchema = z.object({ reason: reasonField });

/** The plan catalogue editor: prices in rupees, a limit or unlimited, feature lines, the first-time discount. */
export const planEditSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(40),
  monthlyPrice: z.union([z.string(), z.number()]).refine((v) => parseRupees(v) !== null && parseRupees(v)! > 0, 'Enter the monthly price in rupees'),
  yearlyPrice: z.union([z.string(), z.number()]).refine((v) => parseRupees(v) !== null && parseRupees(v)! > 0, 'Enter the yearly price in rupees'),
  studentLimit: z.number().int().min(1, 'The student limit must be at least 1').max(1_000_000).nullable(),
  features: z.array(z.string().trim().min(1).max(120)).min(1, 'Give at least one feature line').max(20),
  firstTimeDiscountPercent: z.number().int('A whole percent').min(0, 'From 0 to 90 percent').max(90, 'From 0 to 90 percent'),
  recommended: z.boolean().optional(),
  reason: reasonField,
});
export type PlanEditInput = z.input<typeof planEditSchema>;
