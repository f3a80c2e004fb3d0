import { z } from 'zod';
import { readAmount } from './amount-input';
import { HEAD_LABELS, MONTH_KEY_PATTERN, MONTHLY_HEADS, YEARLY_HEADS, isMonthlyHead, monthLabel, type MonthlyHead, type YearlyHead } from './ledger';
import { formatINR, paise, toRupeeString, type Paise } from './money';

/**
 * Concessions (issue 16, ruling 6: outstanding = expected − received − concessions). A school defines
 * types (Sibling 10% of tuition, Staff ward 50%, RTE 100% of all heads, ₹200 a month off bus), a
 * clerk requests one for a student and session from a start month, an Accountant or Administrator
 * approves it, and from then on it reduces what is due, per head: every month from its start for the
 * monthly heads, once for a yearly head. It never changes a saved receipt: the heads and months that
 * already held a payment when it was approved are listed in `excluded` and keep their due.
 */

export const CONCESSION_KINDS = ['percent', 'amount'] as const;
export type ConcessionKind = (typeof CONCESSION_KINDS)[number];
export const CONCESSION_KIND_LABELS: Record<ConcessionKind, string> = { percent: 'Percentage of the fee', amount: 'Fixed amount' };

/** Heads a concession may reduce: the ones with a due in the class structure (or the student's bus fee). */
export const CONCESSION_HEADS = [...MONTHLY_HEADS, ...YEARLY_HEADS] as const;
export type ConcessionHead = MonthlyHead | YearlyHead;

export const CONCESSION_STATUSES = ['requested', 'approved', 'rejected'] as const;
export type ConcessionStatus = (typeof CONCESSION_STATUSES)[number];
export const CONCESSION_STATUS_LABELS: Record<ConcessionStatus, string> = { requested: 'Awaiting approval', approved: 'Active', rejected: 'Rejected' };

/** "10", "7.5", "100" → hundredths of a percent (1000, 750, 10000); null when not such a number. */
export function parsePercent(input: string): number | null {
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(input.trim());
  if (!match) return null;
  const value = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return value > 0 && value <= 10_000 ? value : null;
}

export const percentText = (hundredths: number) => `${Math.floor(hundredths / 100)}${hundredths % 100 ? `.${String(hundredths % 100).padStart(2, '0').replace(/0$/, '')}` : ''}%`;

/** The stored value: hundredths of a percent for `percent`, paise (per month, per head) for `amount`. */
export function describeConcessionValue(kind: ConcessionKind, value: number): string {
  return kind === 'percent' ? percentText(value) : `${formatINR(paise(value))} a month`;
}

const headsField = z
  .array(z.enum(CONCESSION_HEADS))
  .min(1, 'Choose at least one fee head the concession applies to')
  .transform((heads) => [...new Set(heads)]);

/**
 * POST/PUT /api/concession-types. `value` is a percentage ("10", "7.5", up to 100) for `percent` and
 * a rupee amount ("150", "150.50") for `amount`; the parsed `valueStored` is what the server keeps.
 */
export const concessionTypeInput = z
  .object({
    name: z.string().trim().min(1, 'Enter a name for the concession, e.g. Sibling').max(60, 'Concession name can be at most 60 characters'),
    kind: z.enum(CONCESSION_KINDS, { message: 'Kind must be percent or amount' }),
    value: z.union([z.string(), z.number()]),
    heads: headsField,
    active: z.boolean().optional(),
  })
  .transform((input, ctx) => {
    const text = String(input.value);
    let stored: number | null = null;
    if (input.kind === 'percent') {
      stored = parsePercent(text);
      if (stored === null) ctx.addIssue({ code: 'custom', path: ['value'], message: 'Percentage must be more than 0 and at most 100, with up to two decimals' });
    } else {
      const reading = readAmount(text);
      stored = reading.ok && reading.value !== null && reading.value > 0 ? reading.value : null;
      if (stored === null) ctx.addIssue({ code: 'custom', path: ['value'], message: 'Amount must be a rupee amount above 0, e.g. 150 or 150.50' });
    }
    if (stored === null) return z.NEVER;
    return { ...input, valueStored: stored };
  });
export type ConcessionTypeInput = z.infer<typeof concessionTypeInput>;

export const monthKeyField = (label: string) => z.string().trim().regex(MONTH_KEY_PATTERN, `${label} must be a month (YYYY-MM)`);

export const concessionRequestInput = z
  .object({
    studentId: z.string().trim().min(1, 'Choose a student'),
    typeId: z.string().trim().min(1, 'Choose a concession type'),
    academicYear: z.string().trim().min(1, 'Choose the academic session'),
    fromMonth: monthKeyField('From month'),
    toMonth: monthKeyField('To month').nullish(),
    reason: z.string().trim().min(3, 'Give a reason for the concession').max(500, 'Reason can be at most 500 characters'),
  })
  .refine((v) => !v.toMonth || v.toMonth >= v.fromMonth, { path: ['toMonth'], message: 'To month cannot be before from month' });
export type ConcessionRequestInput = z.infer<typeof concessionRequestInput>;

/** Approve (reason optional) and reject (reason required) */
export const concessionDecisionInput = z.object({ reason: z.string().trim().max(500, 'Reason can be at most 500 characters').optional() });
export const concessionRejectInput = z.object({ reason: z.string().trim().min(3, 'Give a reason for rejecting the concession').max(500) });

/** What the wire carries for a type and a student's concession (money as decimal strings). */
export const concessionTypeDto = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(CONCESSION_KINDS),
  value: z.string().describe('"10" (percent) or "150.00" (rupees a month per head)'),
  description: z.string().describe('"10% of Tuition Fee" / "₹150.00 a month of Bus Fee"'),
  heads: z.array(z.enum(CONCESSION_HEADS)),
  active: z.boolean(),
});
export type ConcessionTypeDto = z.infer<typeof concessionTypeDto>;

export const concessionDto = z.object({
  id: z.string(),
  studentId: z.string(),
  studentName: z.string(),
  className: z.string(),
  academicYear: z.string(),
  type: concessionTypeDto,
  fromMonth: z.string(),
  toMonth: z.string().nullable(),
  status: z.enum(CONCESSION_STATUSES),
  statusLabel: z.string(),
  reason: z.string(),
  decisionReason: z.string().nullable(),
  requestedBy: z.string().nullable(),
  requestedAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  excluded: z.array(z.string()).describe('"tuition:2025-04", "exam": heads and months already paid when it was approved, left as they were'),
  amountInSession: z.string().describe('what it takes off the session (annual), rupees'),
});
export type ConcessionDto = z.infer<typeof concessionDto>;

export function describeConcessionType(t: { kind: ConcessionKind; value: number; heads: readonly ConcessionHead[] }): string {
  const heads = t.heads.map((h) => HEAD_LABELS[h]).join(', ');
  return t.kind === 'percent' ? `${percentText(t.value)} of ${heads}` : `${formatINR(paise(t.value))} a month of ${heads}`;
}

export const concessionValueText = (kind: ConcessionKind, value: number) =>
  kind === 'percent' ? percentText(value).replace('%', '') : toRupeeString(paise(value));

// ---------------------------------------------------------------------------------------------
// The rule
// ---------------------------------------------------------------------------------------------

/** An approved concession as `computeSessionAccount` reads it. */
export interface AppliedConcession {
  id: string;
  name: string;
  kind: ConcessionKind;
  /** hundredths of a percent, or paise per month (per head) */
  value: number;
  heads: readonly ConcessionHead[];
  fromMonth: string;
  toMonth: string | null;
  /** `head:period` (monthly) or `head` (yearly): paid before approval, never reduced */
  excluded: readonly string[];
}

export const periodKey = (head: ConcessionHead, period: string | null) => (isMonthlyHead(head) ? `${head}:${period}` : head);

/** One concession's share of one head and period, before the cap of the head's due. */
function rawShare(c: AppliedConcession, due: Paise): number {
  if (c.kind === 'percent') return Math.floor((due * c.value + 5_000) / 10_000);
  return c.value;
}

export interface ConcessionShare {
  concessionId: string;
  name: string;
  amount: Paise;
}

/**
 * What the concessions take off one head and period whose gross due is `due`: monthly heads in the
 * months from `fromMonth` to `toMonth`, yearly heads once whatever the start month. Several
 * concessions on one head add up, never beyond its due; a head and period in `excluded` is untouched.
 */
export function concessionShares(concessions: readonly AppliedConcession[] | undefined, head: ConcessionHead, period: string | null, due: Paise): ConcessionShare[] {
  if (!concessions || concessions.length === 0 || due <= 0) return [];
  const out: ConcessionShare[] = [];
  let left = due as number;
  for (const c of concessions) {
    if (left === 0) break;
    if (!c.heads.includes(head)) continue;
    if (c.excluded.includes(periodKey(head, period))) continue;
    if (isMonthlyHead(head)) {
      if (!period || period < c.fromMonth || (c.toMonth && period > c.toMonth)) continue;
    }
    const take = Math.min(left, rawShare(c, due));
    if (take > 0) out.push({ concessionId: c.id, name: c.name, amount: paise(take) });
    left -= take;
  }
  return out;
}

export const sumShares = (shares: readonly ConcessionShare[]): Paise => paise(shares.reduce((s, x) => s + x.amount, 0));

/** "Concession: Sibling −₹150.00 (April 2025)": the receipt's line under the months it pays. */
export function concessionReceiptText(share: ConcessionShare, head: ConcessionHead, period: string | null): string {
  const when = period ? ` (${HEAD_LABELS[head]}, ${monthLabel(period)})` : ` (${HEAD_LABELS[head]})`;
  return `Concession: ${share.name} −${formatINR(share.amount)}${when}`;
}

