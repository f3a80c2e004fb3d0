import { z } from 'zod';
import { headDue, type FeeClaim, type SessionAccount } from './fees';
import { FEE_HEADS, HEAD_LABELS, isMonthlyHead, isYearlyHead, lineAmount, MONTH_KEY_PATTERN, monthLabel, type FeeHead } from './ledger';
import { paise, toRupeeString, type Paise } from './money';

/**
 * Payment links (ruling 34) and the rules of what one pays (rulings 26, 27). Pure: the server reads
 * the student's account under the ledger lock and asks these functions what is due and how a
 * payment splits into receipt lines and credit.
 */

export const LINK_FEE_TYPES = [...FEE_HEADS, 'outstanding'] as const;
export type LinkFeeType = (typeof LINK_FEE_TYPES)[number];

export const DEFAULT_LINK_DAYS = 15;
export const MAX_LINK_DAYS = 180;

export type LinkStatus = 'active' | 'paid' | 'expired' | 'cancelled';

/** The status a person sees: a stored `active` past its expiry is `expired` (ruling 34). */
export function linkStatus(stored: 'active' | 'paid' | 'cancelled', expiresAt: Date, now: Date): LinkStatus {
  if (stored === 'active' && expiresAt.getTime() <= now.getTime()) return 'expired';
  return stored;
}

export const LINK_NOT_ACTIVE_MESSAGE = 'This payment link is no longer active.';
export const LINK_EXPIRED_MESSAGE = 'This payment link has expired. Please contact the school for a new payment link.';
export const INVALID_LINK_MESSAGE = 'Invalid payment link';

const optional = (max: number, label: string) =>
  z
    .string()
    .max(max, `${label} is too long`)
    .nullish()
    .transform((v) => (v ?? '').trim() || null);

export const createLinkSchema = z.object({
  studentId: z.string({ error: 'Please select a student' }).trim().min(1, 'Please select a student').max(100),
  feeType: z.enum(LINK_FEE_TYPES, { error: `feeType must be a fee head (${FEE_HEADS.join(', ')}) or outstanding` }),
  feeMonth: z
    .string()
    .trim()
    .regex(MONTH_KEY_PATTERN, 'feeMonth must be a month such as 2026-04')
    .nullish()
    .transform((v) => v ?? null),
  amount: lineAmount('Amount'),
  description: optional(200, 'Description'),
  expiresInDays: z.coerce
    .number({ error: `expiresInDays must be a whole number of days from 1 to ${MAX_LINK_DAYS}` })
    .int(`expiresInDays must be a whole number of days from 1 to ${MAX_LINK_DAYS}`)
    .min(1, `expiresInDays must be a whole number of days from 1 to ${MAX_LINK_DAYS}`)
    .max(MAX_LINK_DAYS, `A payment link can be valid for at most ${MAX_LINK_DAYS} days`)
    .nullish()
    .transform((v) => v ?? DEFAULT_LINK_DAYS),
});
export type CreateLinkInput = z.infer<typeof createLinkSchema>;

/** "Tuition Fee for April 2026", "Exam Fee", "Outstanding fees". */
export function linkDescription(feeType: LinkFeeType, feeMonth: string | null): string {
  if (feeType === 'outstanding') return 'Outstanding fees';
  const label = HEAD_LABELS[feeType];
  return feeMonth ? `${label} for ${monthLabel(feeMonth)}` : label;
}

/** A carried balance of an earlier session still owed (ruling 9), oldest first. */
export interface OpenCarried {
  sessionId: string;
  academicYear: string;
  remaining: Paise;
}

/** What one payment pays: fee claims in the current session, carried balances, and the rest (credit). */
export interface LinkAllocation {
  claims: FeeClaim[];
  carried: Array<{ sessionId: string; academicYear: string; amount: Paise }>;
  /** money beyond every due the link names: the student's credit (ruling 27) */
  credit: Paise;
}

/**
 * Splits a payment for a link against what is due now. `account` is the student's open session
 * (null when it is closed for them, e.g. a passout), `carried` the balances of earlier sessions.
 *
 * - a monthly head pays that month up to its remaining due; a yearly head the session's due;
 * - `previous_balance` pays carried balances, oldest first;
 * - `outstanding` pays carried balances first, then each due month oldest first (tuition, then
 *   bus) up to its outstanding, then the yearly heads;
 * - `fine` pays today's late fine (`fine`: what `computeLateFine` says is due, issue 16); `outstanding`
 *   pays it last, after every fee, so a part payment settles the fees first;
 * - extra heads have no due (decision 0025): nothing can be asked for them by link.
 * Whatever is left is credit, never a line beyond a due.
 */
export function allocateLinkPayment(
  link: { feeType: LinkFeeType; feeMonth: string | null },
  account: SessionAccount | null,
  carried: readonly OpenCarried[],
  amount: Paise,
  fine: Paise = paise(0),
): LinkAllocation {
  let left = amount as number;
  const claims: FeeClaim[] = [];
  const carriedOut: LinkAllocation['carried'] = [];
  const take = (room: number) => {
    const t = Math.max(0, Math.min(left, room));
    left -= t;
    return t;
  };
  const payCarried = () => {
    for (const row of carried) {
      const t = take(row.remaining);
      if (t > 0) carriedOut.push({ sessionId: row.sessionId, academicYear: row.academicYear, amount: paise(t) });
    }
  };
  const { feeType } = link;
  if (feeType === 'previous_balance') {
    payCarried();
  } else if (feeType === 'outstanding') {
    payCarried();
    if (account) {
      for (const m of account.months) {
        if (!m.due) continue;
        for (const head of ['tuition', 'bus'] as const) {
          const t = take(m[head].outstanding);
          if (t > 0) claims.push({ head, period: m.key, amount: paise(t) });
        }
      }
      for (const y of account.yearly) {
        // yearly heads are due from the session's first month, as the till-date horizon counts them
        if (account.tillDate.yearlyExpected === 0) break;
        const t = take(y.outstanding);
        if (t > 0) claims.push({ head: y.head, period: null, amount: paise(t) });
      }
      const f = take(fine);
      if (f > 0) claims.push({ head: 'fine', period: null, amount: paise(f) });
    }
  } else if (feeType === 'fine') {
    const f = account ? take(fine) : 0;
    if (f > 0) claims.push({ head: 'fine', period: null, amount: paise(f) });
  } else if (account && (isMonthlyHead(feeType) || isYearlyHead(feeType))) {
    const period = isMonthlyHead(feeType) ? link.feeMonth : null;
    const t = take(headDue(account, feeType, period).remaining);
    if (t > 0) claims.push({ head: feeType, period, amount: paise(t) });
  }
  return { claims, carried: carriedOut, credit: paise(left) };
}

/** What a link for this fee may ask at most now: the whole due it names (ruling 26), today's fine included. */
export function linkDue(link: { feeType: LinkFeeType; feeMonth: string | null }, account: SessionAccount | null, carried: readonly OpenCarried[], fine: Paise = paise(0)): Paise {
  const all = allocateLinkPayment(link, account, carried, paise(Number.MAX_SAFE_INTEGER), fine);
  const sum = all.claims.reduce((s, c) => s + c.amount, 0) + all.carried.reduce((s, c) => s + c.amount, 0);
  return paise(sum);
}

/** Why a link cannot be made for this fee type and month, or null. */
export function linkFeeProblem(feeType: LinkFeeType, feeMonth: string | null, sessionMonthKeys: readonly string[] | null): string | null {
  if (feeType === 'outstanding' || feeType === 'previous_balance' || feeType === 'fine' || isYearlyHead(feeType)) {
    return feeMonth ? `${feeType === 'outstanding' ? 'The whole outstanding' : HEAD_LABELS[feeType]} is not paid per month: leave feeMonth empty` : null;
  }
  if (isMonthlyHead(feeType)) {
    if (!feeMonth) return `Choose the month (feeMonth) for the ${HEAD_LABELS[feeType]}`;
    if (sessionMonthKeys && !sessionMonthKeys.includes(feeMonth)) return `${monthLabel(feeMonth)} is not a month of the student's session`;
    return null;
  }
  return `${HEAD_LABELS[feeType as FeeHead]} has no amount due in the fee structure: collect it at the counter`;
}

/**
 * The UPI deep link (NPCI "upi://pay"): payee address and name, amount in rupees with two places,
 * INR, a note, and `tr`, the reference that ties the transfer to the link.
 */
export function upiIntentUrl({ vpa, payeeName, amount, note, reference }: { vpa: string; payeeName: string; amount: Paise; note: string; reference: string }): string {
  const rupees = toRupeeString(amount);
  const q = [
    ['pa', vpa],
    ['pn', payeeName],
    ['am', rupees],
    ['cu', 'INR'],
    ['tn', note.slice(0, 80)],
    ['tr', reference],
  ]
    .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`)
    .join('&');
  return `upi://pay?${q}`;
}

/** A UPI id as banks issue them: `name@bank`. */
export const UPI_VPA_PATTERN = /^[a-zA-Z0-9._-]{2,256}@[a-zA-Z][a-zA-Z0-9.-]{1,63}$/;

export const creditTotal = (entries: ReadonlyArray<{ amountPaise: number }>): Paise => paise(entries.reduce((s, e) => s + e.amountPaise, 0));

