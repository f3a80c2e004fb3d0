import { z } from 'zod';
import { amountProblemMessage, readAmount } from './amount-input';
import { paise, type Paise } from './money';
import { indiaDate, MONTH_NAMES, shortAcademicYear, type MonthName } from './sessions';

/**
 * The one ledger (rulings 1–5): receipts with lines per fee head and period. Every way money comes
 * in (monthly grid, yearly cards, Record Fee Payment, online payments) writes these, and every
 * balance is read back from them.
 */

export const FEE_HEADS = [
  'tuition', 'bus', 'admission', 'exam', 'books', 'uniform', 'misc',
  'transport', 'laboratory', 'library', 'sports', 'other', 'previous_balance', 'opening_balance', 'fine',
] as const;
export type FeeHead = (typeof FEE_HEADS)[number];

/** Heads due every month of a session: tuition from the class structure, bus from the student. */
export const MONTHLY_HEADS = ['tuition', 'bus'] as const;
export type MonthlyHead = (typeof MONTHLY_HEADS)[number];

/** The five yearly fee cards; `admission` is the structure's "yearly fee". Due once per session. */
export const YEARLY_HEADS = ['admission', 'exam', 'books', 'uniform', 'misc'] as const;
export type YearlyHead = (typeof YEARLY_HEADS)[number];

/** Heads with no expectation in the class structure: whatever is received is extra income. */
export const EXTRA_HEADS = ['transport', 'laboratory', 'library', 'sports', 'other'] as const;
export type ExtraHead = (typeof EXTRA_HEADS)[number];

export const isMonthlyHead = (head: FeeHead): head is MonthlyHead => head === 'tuition' || head === 'bus';
export const isYearlyHead = (head: FeeHead): head is YearlyHead => (YEARLY_HEADS as readonly string[]).includes(head);

export const HEAD_LABELS: Record<FeeHead, string> = {
  tuition: 'Tuition Fee',
  bus: 'Bus Fee',
  admission: 'Yearly (Admission) Fee',
  exam: 'Exam Fee',
  books: 'Books Fee',
  uniform: 'Uniform Fee',
  misc: 'Misc Fee',
  transport: 'Transport Fee',
  laboratory: 'Laboratory Fee',
  library: 'Library Fee',
  sports: 'Sports Fee',
  other: 'Other Fee',
  previous_balance: 'Previous Balance',
  opening_balance: 'Opening Arrears',
  fine: 'Late Fine',
};

/**
 * Heads that pay a balance owed outside the session's own dues: carried balances of earlier sessions
 * and the opening arrears of the old register (decision 0027). They never count in a session account.
 */
export const isBalanceHead = (head: FeeHead): head is 'previous_balance' | 'opening_balance' =>
  head === 'previous_balance' || head === 'opening_balance';

/** The word the yearly lock message uses: "This {yearly/exam/...} fee cannot be modified …". */
export const YEARLY_LOCK_WORD: Record<YearlyHead, string> = {
  admission: 'yearly',
  exam: 'exam',
  books: 'books',
  uniform: 'uniform',
  misc: 'misc',
};

export const yearlyLockedMessage = (head: YearlyHead) =>
  `This ${YEARLY_LOCK_WORD[head]} fee cannot be modified once entered for the current academic year.`;

/** `credit`: paid from the student's credit (ruling 27), money already counted when it arrived online */
export const PAYMENT_MODES = ['cash', 'cheque', 'upi', 'card', 'bank_transfer', 'online', 'credit'] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];
/** Modes a person records at the counter; `online` is written only by the payment gateway. */
export const COUNTER_PAYMENT_MODES = ['cash', 'cheque', 'upi', 'card', 'bank_transfer'] as const;

/** Where a receipt came from; `opening` receipts record months paid before go-live and are never income of a day. */
export const RECEIPT_SOURCES = ['monthly', 'yearly', 'fee_payment', 'online', 'opening'] as const;
export type ReceiptSource = (typeof RECEIPT_SOURCES)[number];

/** `OPN`: months paid before the school started using the product, entered as opening entries (decision 0027). */
export const RECEIPT_PREFIXES = ['MON', 'YRL', 'FEE', 'ONL', 'OPN'] as const;
export type ReceiptPrefix = (typeof RECEIPT_PREFIXES)[number];

/** `MON/2025-26/000042`: prefix, short academic year, six-digit sequence. */
export function formatReceiptNumber(prefix: ReceiptPrefix, academicYear: string, sequence: number): string {
  return `${receiptNumberStem(prefix, academicYear)}${String(sequence).padStart(RECEIPT_SEQUENCE_DIGITS, '0')}`;
}

/** What a receipt number is before its sequence (`MON/2025-26/`); the database appends the sequence it takes. */
export function receiptNumberStem(prefix: ReceiptPrefix, academicYear: string): string {
  return `${prefix}/${shortAcademicYear(academicYear)}/`;
}

/** The sequence is written with at least this many digits, zero-padded. */
export const RECEIPT_SEQUENCE_DIGITS = 6;

export function parseReceiptNumber(text: string): { prefix: ReceiptPrefix; shortYear: string; sequence: number } | null {
  const match = /^(MON|YRL|FEE|ONL|OPN)\/(\d{4}-\d{2})\/(\d{6,})$/.exec(text);
  if (!match) return null;
  return { prefix: match[1] as ReceiptPrefix, shortYear: match[2]!, sequence: Number(match[3]) };
}

/** Record Fee Payment's ten fee types (operations §3), plus the carried-forward balance. */
export const FEE_PAYMENT_TYPES = [
  'monthly', 'admission', 'books', 'transport', 'exam', 'laboratory', 'library', 'sports', 'uniform', 'other',
  'previous_balance', 'fine',
] as const;
export type FeePaymentType = (typeof FEE_PAYMENT_TYPES)[number];

/**
 * Fee type → ledger head. `monthly` is tuition and `transport` is the student's bus fee: both are
 * charged per month, so a payment of either settles a month of the session.
 */
export const FEE_TYPE_HEAD: Record<FeePaymentType, FeeHead> = {
  monthly: 'tuition',
  admission: 'admission',
  books: 'books',
  transport: 'bus',
  exam: 'exam',
  laboratory: 'laboratory',
  library: 'library',
  sports: 'sports',
  uniform: 'uniform',
  other: 'other',
  previous_balance: 'previous_balance',
  fine: 'fine',
};

export function headToFeeType(head: FeeHead): FeePaymentType {
  if (head === 'tuition') return 'monthly';
  if (head === 'bus' || head === 'transport') return 'transport';
  if (head === 'misc') return 'other';
  if (head === 'opening_balance') return 'previous_balance';
  return head;
}

// ---------------------------------------------------------------------------------------------
// Months and dates
// ---------------------------------------------------------------------------------------------

/** `2025-04` */
export const MONTH_KEY_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function monthKey(year: number, monthNumber: number): string {
  return `${year}-${String(monthNumber).padStart(2, '0')}`;
}

/** "April 2025" for `2025-04`. */
export function monthLabel(key: string): string {
  const match = MONTH_KEY_PATTERN.exec(key);
  if (!match) return key;
  return `${MONTH_NAMES[Number(match[2]) - 1]} ${match[1]}`;
}

/** Month names as people type them: "April", "april", "Apr". */
export function parseMonthName(input: string): MonthName | null {
  const text = input.trim().toLowerCase();
  if (!text) return null;
  return MONTH_NAMES.find((m) => m.toLowerCase() === text || (text.length === 3 && m.toLowerCase().startsWith(text))) ?? null;
}

/** The month in India (the schools' clock) at an instant: `2025-11`. */
export const indiaMonthKey = (now: Date) => indiaDate(now).slice(0, 7);

// ---------------------------------------------------------------------------------------------
// Amount inputs
// ---------------------------------------------------------------------------------------------

/** The most one fee line may carry: ₹1,00,00,000.00 (one crore). Anything above is a typing slip. */
export const MAX_LINE_PAISE = paise(1_000_000_000);

/**
 * Why an amount typed for one fee line is refused, or its paise. `null`/blank means "nothing
 * entered" and is allowed only where the caller says so.
 */
export function checkLineAmount(input: unknown, label: string): { ok: true; value: Paise | null } | { ok: false; message: string } {
  const reading = readAmount(input);
  if (!reading.ok) return { ok: false, message: amountProblemMessage(label, reading.problem) };
  if (reading.value !== null && reading.value > MAX_LINE_PAISE) return { ok: false, message: `${label} cannot be more than ₹1,00,00,000.00 on one fee line` };
  return reading;
}

/** A zod field for one fee amount: blank → null, else whole paise within the line limit. */
export const lineAmount = (label: string) =>
  z
    .union([z.string(), z.number()])
    .nullish()
    .transform((value, ctx): Paise | null => {
      const result = checkLineAmount(value, label);
      if (!result.ok) {
        ctx.addIssue({ code: 'custom', message: result.message });
        return z.NEVER;
      }
      return result.value;
    });

/** A payment date: `YYYY-MM-DD` (a full ISO timestamp is cut to its date); blank → null. */
export const paymentDate = (label: string) =>
  z
    .string()
    .nullish()
    .transform((value, ctx): string | null => {
      const text = (value ?? '').trim();
      if (!text) return null;
      const match = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(text);
      const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
      if (!match || !date || date.toISOString().slice(0, 10) !== `${match[1]}-${match[2]}-${match[3]}`) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a date (YYYY-MM-DD)` });
        return z.NEVER;
      }
      return `${match[1]}-${match[2]}-${match[3]}`;
    });

// ---------------------------------------------------------------------------------------------
// Payment details shared by every receipt-writing input
// ---------------------------------------------------------------------------------------------

const optionalText = (max: number, label: string) =>
  z
    .string()
    .nullish()
    .transform((v) => (v ?? '').trim())
    .pipe(z.string().max(max, `${label} is too long`))
    .transform((v) => (v === '' ? null : v));

/** Idempotency key (ruling 5): a retried request with the same key is applied once. */
export const clientIdInput = optionalText(200, 'clientId');

export const paymentDetailsShape = {
  paymentMode: z
    .enum(COUNTER_PAYMENT_MODES, { error: 'Payment mode must be cash, cheque, upi, card or bank_transfer' })
    .nullish()
    .transform((v) => v ?? 'cash'),
  chequeNumber: optionalText(30, 'Cheque number'),
  bankName: optionalText(100, 'Bank name'),
  upiReference: optionalText(100, 'UPI reference'),
  transactionReference: optionalText(100, 'Transaction reference'),
  /** the name printed as "Received by"; the signed-in user's name when absent */
  receivedBy: optionalText(100, 'Received by'),
};

export interface PaymentDetails {
  paymentMode: PaymentMode;
  chequeNumber: string | null;
  bankName: string | null;
  upiReference: string | null;
  transactionReference: string | null;
  receivedBy: string | null;
}

/** Cheque, UPI and bank transfer need their references so the accountant can reconcile them. */
export function paymentDetailsProblem(details: PaymentDetails): string | null {
  if (details.paymentMode === 'cheque' && (!details.chequeNumber || !details.bankName)) {
    return 'Enter the cheque number and bank name for a cheque payment';
  }
  if (details.paymentMode === 'upi' && !details.upiReference) return 'Enter the UPI reference for a UPI payment';
  if (details.paymentMode === 'bank_transfer' && !details.transactionReference) {
    return 'Enter the transaction reference for a bank transfer';
  }
  return null;
}

const refinePayment = <T extends PaymentDetails>(value: T, ctx: z.RefinementCtx) => {
  const problem = paymentDetailsProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['paymentMode'] });
};

const studentIdInput = (message: string) =>
  z
    .string({ error: message })
    .nullish()
    .transform((v) => (v ?? '').trim())
    .pipe(z.string().min(1, message).max(100, message));

const academicYearInput = z
  .union([z.string(), z.number()], { error: 'Please select an academic year' })
  .transform((v) => String(v).trim())
  .pipe(z.string().min(1, 'Please select an academic year').max(20, 'Academic year is too long'));

// ---------------------------------------------------------------------------------------------
// Monthly Fee Management
// ---------------------------------------------------------------------------------------------

export const SELECT_STUDENT_MESSAGE = 'Please select a student first';
export const MONTHLY_LOCKED_MESSAGE =
  'Cannot modify fees that have already been saved. Please contact administrator if changes are needed.';
export const NO_DATA_MESSAGE = 'No data to save. Please enter fee amounts, dates, or other fee information.';
export const NO_NEW_DATA_MESSAGE = 'No new fee data to save';

export const monthlyEntrySchema = z.object({
  studentId: z.string().max(100).nullish(),
  month: z
    .string({ error: 'Each entry needs a month' })
    .transform((v, ctx): MonthName => {
      const month = parseMonthName(v);
      if (!month) {
        ctx.addIssue({ code: 'custom', message: `"${v.slice(0, 20)}" is not a month` });
        return z.NEVER;
      }
      return month;
    }),
  year: z.coerce.number({ error: 'Each entry needs a year' }).int('Year must be a whole number').min(2000, 'Year is out of range').max(2100, 'Year is out of range'),
  tuitionFee: lineAmount('Tuition fee'),
  tuitionDate: paymentDate('Tuition date'),
  busFee: lineAmount('Bus fee'),
  busDate: paymentDate('Bus date'),
  status: z.enum(['pending', 'paid']).nullish(),
  submittedAt: z.string().max(50).nullish(),
  clientId: clientIdInput,
});
export type MonthlyEntryInput = z.output<typeof monthlyEntrySchema>;

export const monthlyBulkSchema = z
  .object({
    studentId: studentIdInput(SELECT_STUDENT_MESSAGE),
    academicYear: academicYearInput,
    entries: z.array(monthlyEntrySchema).max(24, 'A save can hold at most 24 months').default([]),
    /** the whole save's idempotency key; when absent the entries' clientIds together are the key */
    clientId: clientIdInput,
    /** a payment towards the balance carried forward from earlier sessions (the banner) */
    previousBalancePaid: lineAmount('Previous balance payment'),
    previousBalanceDate: paymentDate('Previous balance date'),
    timestamp: z.union([z.string(), z.number()]).nullish(),
    source: z.string().max(50).nullish(),
    version: z.union([z.string(), z.number()]).nullish(),
    ...paymentDetailsShape,
  })
  .superRefine(refinePayment);
export type MonthlyBulkInput = z.input<typeof monthlyBulkSchema>;
export type MonthlyBulk = z.output<typeof monthlyBulkSchema>;

// ---------------------------------------------------------------------------------------------
// Yearly Fee Management
// ---------------------------------------------------------------------------------------------

export const YEARLY_EMPTY_MESSAGE = 'Please enter at least one fee amount before saving.';

/** The yearly form's field names per head (operations §3 "Yearly fee entry"). */
export const YEARLY_FIELDS: Record<YearlyHead, { amount: string; date: string; label: string }> = {
  admission: { amount: 'admissionFee', date: 'admissionDate', label: 'Yearly (admission) fee' },
  exam: { amount: 'examFee', date: 'examDate', label: 'Exam fee' },
  books: { amount: 'booksFee', date: 'booksDate', label: 'Books fee' },
  uniform: { amount: 'uniformFee', date: 'uniformDate', label: 'Uniform fee' },
  misc: { amount: 'miscFee', date: 'miscDate', label: 'Misc fee' },
};

export const yearlyEntrySchema = z
  .object({
    studentId: studentIdInput('Please select a student first'),
    academicYear: academicYearInput,
    admissionFee: lineAmount('Yearly (admission) fee'),
    admissionDate: paymentDate('Admission date'),
    examFee: lineAmount('Exam fee'),
    examDate: paymentDate('Exam date'),
    booksFee: lineAmount('Books fee'),
    booksDate: paymentDate('Books date'),
    uniformFee: lineAmount('Uniform fee'),
    uniformDate: paymentDate('Uniform date'),
    miscFee: lineAmount('Misc fee'),
    miscDate: paymentDate('Misc date'),
    submittedAt: z.string().max(50).nullish(),
    clientId: clientIdInput,
    version: z.union([z.string(), z.number()]).nullish(),
    ...paymentDetailsShape,
  })
  .superRefine(refinePayment);
export type YearlyEntryInput = z.input<typeof yearlyEntrySchema>;
export type YearlyEntry = z.output<typeof yearlyEntrySchema>;

export function yearlyAmounts(entry: YearlyEntry): Array<{ head: YearlyHead; amount: Paise | null; date: string | null }> {
  return [
    { head: 'admission', amount: entry.admissionFee, date: entry.admissionDate },
    { head: 'exam', amount: entry.examFee, date: entry.examDate },
    { head: 'books', amount: entry.booksFee, date: entry.booksDate },
    { head: 'uniform', amount: entry.uniformFee, date: entry.uniformDate },
    { head: 'misc', amount: entry.miscFee, date: entry.miscDate },
  ];
}

// ---------------------------------------------------------------------------------------------
// Record Fee Payment
// ---------------------------------------------------------------------------------------------

export const FEE_PAYMENT_REQUIRED_MESSAGE = 'Please select a student and at least one fee type';

export const feePaymentSchema = z
  .object({
    studentId: z
      .string({ error: FEE_PAYMENT_REQUIRED_MESSAGE })
      .nullish()
      .transform((v) => (v ?? '').trim())
      .pipe(z.string().min(1, FEE_PAYMENT_REQUIRED_MESSAGE).max(100, FEE_PAYMENT_REQUIRED_MESSAGE)),
    fees: z
      .array(
        z.object({
          type: z.enum(FEE_PAYMENT_TYPES, { error: `Fee type must be one of ${FEE_PAYMENT_TYPES.join(', ')}` }),
          amount: lineAmount('Fee amount'),
          /** `2025-04` or "April 2025": the month a monthly or transport fee pays; the earliest unpaid month when absent */
          month: z.string().max(20).nullish(),
        }),
        { error: FEE_PAYMENT_REQUIRED_MESSAGE },
      )
      .max(30, 'A payment can hold at most 30 fee lines')
      .nullish()
      .transform((v) => v ?? []),
    totalPaid: lineAmount('Total paid'),
    /** the date the money was received; today when absent */
    paidOn: paymentDate('Payment date'),
    clientId: clientIdInput,
    ...paymentDetailsShape,
  })
  .superRefine(refinePayment);
export type FeePaymentInput = z.input<typeof feePaymentSchema>;
export type FeePayment = z.output<typeof feePaymentSchema>;

/** "2025-04", "April 2025", "Apr 2025" → `2025-04`. */
export function parseMonthInput(input: string): string | null {
  const text = input.trim();
  if (MONTH_KEY_PATTERN.test(text)) return text;
  const match = /^([A-Za-z]+)\s+(\d{4})$/.exec(text);
  if (!match) return null;
  const month = parseMonthName(match[1]!);
  if (!month) return null;
  return monthKey(Number(match[2]), MONTH_NAMES.indexOf(month) + 1);
}

// ---------------------------------------------------------------------------------------------
// Receipts, promotion, discharge, passouts
// ---------------------------------------------------------------------------------------------

export const receiptNumberRequestSchema = z.object({
  prefix: z.enum(['MON', 'YRL', 'FEE', 'ONL'], { error: 'Prefix must be MON, YRL, FEE or ONL' }),
  /** the session whose numbering to look at; the active session when absent */
  academicYear: z.string().max(20).nullish(),
});

export const cancelReceiptSchema = z.object({
  reason: z
    .string({ error: 'Please enter a reason for cancelling this receipt' })
    .nullish()
    .transform((v) => (v ?? '').trim())
    .pipe(z.string().min(1, 'Please enter a reason for cancelling this receipt').max(500, 'The reason is too long (at most 500 characters)')),
});

export const PROMOTE_REQUIRED_MESSAGE = 'Please fill in all required fields before promoting the student';

const requiredPromote = z
  .string({ error: PROMOTE_REQUIRED_MESSAGE })
  .nullish()
  .transform((v) => (v ?? '').trim())
  .pipe(z.string().min(1, PROMOTE_REQUIRED_MESSAGE).max(50, PROMOTE_REQUIRED_MESSAGE));

export const promoteSchema = z.object({
  toClass: requiredPromote,
  toSession: requiredPromote,
  fromClass: z.string().max(50).nullish(),
  fromSession: requiredPromote,
});
export type PromoteInput = z.input<typeof promoteSchema>;

export const dischargeSchema = z.object({
  reason: z
    .string()
    .nullish()
    .transform((v) => (v ?? '').trim())
    .pipe(z.string().max(500, 'The reason is too long (at most 500 characters)')),
});

export const passoutsFromClassSchema = z.object({
  className: z
    .string({ error: 'Please select a class' })
    .nullish()
    .transform((v) => (v ?? '').trim())
    .pipe(z.string().min(1, 'Please select a class').max(50, 'Please select a class')),
  graduationYear: z
    .union([z.string(), z.number()], { error: 'Please enter a graduation year (e.g. 2025)' })
    .nullish()
    .transform((v, ctx): number => {
      const text = String(v ?? '').trim();
      if (!/^\d{4}$/.test(text) || Number(text) < 1990 || Number(text) > 2100) {
        ctx.addIssue({ code: 'custom', message: 'Please enter a graduation year (e.g. 2025)' });
        return z.NEVER;
      }
      return Number(text);
    }),
});

/** Sum without floats; throws if a value is not whole paise. */
export function sumPaise(values: Iterable<number>): Paise {
  let total = 0;
  for (const v of values) total += v;
  return paise(total);
}
