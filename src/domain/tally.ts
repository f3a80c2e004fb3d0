import { z } from 'zod';
import { EXPENSE_CATEGORIES, type ExpenseCategory } from './expenses';
import { FEE_HEADS, HEAD_LABELS, PAYMENT_MODES, type FeeHead, type PaymentMode } from './ledger';
import { paise, toRupeeString, type Paise } from './money';

/**
 * The accountant's export (issue 16, decision 0048): receipts, cancellations and expenses as Tally
 * vouchers and as a plain double-entry journal. Pure: the server reads the day book, this turns it
 * into balanced vouchers, and the XML/CSV writers only print them.
 *
 * Tally's sign convention: a debit is a negative AMOUNT with ISDEEMEDPOSITIVE Yes, a credit a
 * positive AMOUNT with ISDEEMEDPOSITIVE No; every voucher's amounts sum to zero.
 */

export const PAYMENT_MODE_LABELS: Record<PaymentMode, string> = {
  cash: 'Cash',
  cheque: 'Cheque',
  upi: 'UPI',
  card: 'Card',
  bank_transfer: 'Bank transfer',
  online: 'Online',
  credit: 'Student credit',
};

export interface TallyMapping {
  /** where money received by each mode is kept (debit side of a receipt) */
  modes: Record<PaymentMode, string>;
  /** income ledger of each fee head (credit side of a receipt) */
  heads: Record<FeeHead, string>;
  /** expense ledger per category (debit side of a payment) */
  expenseCategories: Record<ExpenseCategory, string>;
  /** the ledger expenses are paid from (credit side of a payment); expenses carry no mode */
  expensesPaidFrom: string;
  /** money received beyond the dues, held for the student (ruling 27) */
  studentCredit: string;
}

export const DEFAULT_TALLY_MAPPING: TallyMapping = {
  modes: { cash: 'Cash', cheque: 'Bank', upi: 'Bank', card: 'Bank', bank_transfer: 'Bank', online: 'Bank', credit: 'Student Advances' },
  heads: Object.fromEntries(FEE_HEADS.map((h) => [h, HEAD_LABELS[h].replace('Yearly (Admission) Fee', 'Admission Fee')])) as Record<FeeHead, string>,
  expenseCategories: Object.fromEntries(EXPENSE_CATEGORIES.map((c) => [c, c === 'Other' ? 'Other Expenses' : c])) as Record<ExpenseCategory, string>,
  expensesPaidFrom: 'Cash',
  studentCredit: 'Student Advances',
};

const ledgerName = z.string().trim().min(1, 'A Tally ledger name cannot be empty').max(100, 'A Tally ledger name can be at most 100 characters');

/** PUT /api/exports/tally/mapping: any subset; what is left out keeps its current name. */
export const tallyMappingInput = z.object({
  modes: z.partialRecord(z.enum(PAYMENT_MODES), ledgerName).optional(),
  heads: z.partialRecord(z.enum(FEE_HEADS), ledgerName).optional(),
  expenseCategories: z.partialRecord(z.enum(EXPENSE_CATEGORIES), ledgerName).optional(),
  expensesPaidFrom: ledgerName.optional(),
  studentCredit: ledgerName.optional(),
});
export type TallyMappingInput = z.infer<typeof tallyMappingInput>;

export const tallyMappingDto = z.object({
  modes: z.record(z.enum(PAYMENT_MODES), z.string()),
  heads: z.record(z.enum(FEE_HEADS), z.string()),
  expenseCategories: z.record(z.enum(EXPENSE_CATEGORIES), z.string()),
  expensesPaidFrom: z.string(),
  studentCredit: z.string(),
});

export function mergeTallyMapping(base: TallyMapping, patch: Partial<{ [K in keyof TallyMapping]: unknown }> | TallyMappingInput | null | undefined): TallyMapping {
  const p = (patch ?? {}) as TallyMappingInput;
  return {
    modes: { ...base.modes, ...(p.modes ?? {}) },
    heads: { ...base.heads, ...(p.heads ?? {}) },
    expenseCategories: { ...base.expenseCategories, ...(p.expenseCategories ?? {}) },
    expensesPaidFrom: p.expensesPaidFrom ?? base.expensesPaidFrom,
    studentCredit: p.studentCredit ?? base.studentCredit,
  };
}

/** GET /api/exports/tally?fromDate&toDate and journal.csv */
export const exportPeriodQuery = z
  .object({
    fromDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'From date must be a date (YYYY-MM-DD)'),
    toDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'To date must be a date (YYYY-MM-DD)'),
  })
  .refine((v) => v.toDate >= v.fromDate, { path: ['toDate'], message: 'To date cannot be before from date' });

// ---------------------------------------------------------------------------------------------
// Vouchers
// ---------------------------------------------------------------------------------------------

export type VoucherType = 'Receipt' | 'Payment';

export interface VoucherEntry {
  ledger: string;
  /** Tally's sign: debit negative, credit positive */
  amount: number;
}

export interface Voucher {
  type: VoucherType;
  date: string;
  number: string;
  narration: string;
  entries: VoucherEntry[];
}

export interface DayBookReceipt {
  receiptNumber: string;
  /** the day the money came in, or for a cancellation the day it was cancelled */
  date: string;
  mode: PaymentMode;
  studentName: string;
  className: string;
  lines: Array<{ head: FeeHead; amount: Paise }>;
  /** money received beyond the dues, kept as the student's credit */
  creditAmount?: Paise;
  cancelled?: { reason: string } | null;
}

export interface DayBookExpense {
  id: string;
  date: string;
  category: ExpenseCategory;
  description: string;
  amount: Paise;
}

/** Adds entries to the same ledger together, drops zeros, keeps the first-seen order. */
function merged(entries: VoucherEntry[]): VoucherEntry[] {
  const by = new Map<string, number>();
  for (const e of entries) by.set(e.ledger, (by.get(e.ledger) ?? 0) + e.amount);
  return [...by].filter(([, a]) => a !== 0).map(([ledger, amount]) => ({ ledger, amount }));
}

/**
 * A receipt: debit the mode's ledger (Cash/Bank), credit each head's income ledger. A cancellation
 * is the same voucher reversed, dated on the day of cancellation, numbered `<receipt>/C`. A receipt
 * paid from the student's credit debits the credit ledger, so it is not counted as income twice.
 */
export function receiptVoucher(r: DayBookReceipt, map: TallyMapping): Voucher {
  const credits = r.lines.map((l) => ({ ledger: map.heads[l.head], amount: l.amount as number }));
  if (r.creditAmount && r.creditAmount > 0) credits.push({ ledger: map.studentCredit, amount: r.creditAmount });
  const total = credits.reduce((s, c) => s + c.amount, 0);
  const sign = r.cancelled ? -1 : 1;
  const entries = merged([{ ledger: map.modes[r.mode], amount: -total * sign }, ...credits.map((c) => ({ ledger: c.ledger, amount: c.amount * sign }))]);
  const who = `${r.studentName} (${r.className})`;
  return {
    type: r.cancelled ? 'Payment' : 'Receipt',
    date: r.date,
    number: r.cancelled ? `${r.receiptNumber}/C` : r.receiptNumber,
    narration: r.cancelled ? `Cancelled receipt ${r.receiptNumber} of ${who}: ${r.cancelled.reason}` : `Fees received from ${who}, receipt ${r.receiptNumber}`,
    entries,
  };
}

/** An expense: debit the category's expense ledger, credit where it was paid from. */
export function expenseVoucher(e: DayBookExpense, map: TallyMapping, sequence: number): Voucher {
  return {
    type: 'Payment',
    date: e.date,
    number: `EXP/${String(sequence).padStart(6, '0')}`,
    narration: `${e.category}: ${e.description}`,
    entries: merged([{ ledger: map.expenseCategories[e.category], amount: -e.amount }, { ledger: map.expensesPaidFrom, amount: e.amount }]),
  };
}

export const voucherBalances = (v: Voucher) => v.entries.reduce((s, e) => s + e.amount, 0) === 0;

/** `2025-04-07` → `20250407` */
export const tallyDate = (iso: string) => iso.replaceAll('-', '');

/** Tally amounts are rupees with two decimals, debit negative: -1500.00 */
export function tallyAmount(amount: number): string {
  return toRupeeString(paise(amount));
}

export interface JournalRow {
  date: string;
  voucherNumber: string;
  account: string;
  debit: Paise;
  credit: Paise;
  narration: string;
}

/** The same vouchers as a plain journal: one row per ledger, debit or credit. */
export function journalRows(vouchers: readonly Voucher[]): JournalRow[] {
  return vouchers.flatMap((v) =>
    v.entries.map((e) => ({
      date: v.date,
      voucherNumber: v.number,
      account: e.ledger,
      debit: paise(e.amount < 0 ? -e.amount : 0),
      credit: paise(e.amount > 0 ? e.amount : 0),
      narration: v.narration,
    })),
  );
}
