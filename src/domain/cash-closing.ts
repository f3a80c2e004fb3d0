import { z } from 'zod';
import { addPaise, paise, subtractPaise, type Paise } from './money';

/**
 * The cash closing (issue 15 item 4, docs/decisions/0046): at the end of a day each collector sees
 * their own collections by mode, counts the notes and coins, and closes the day. One closing per
 * user and day; an Accountant or Administrator acknowledges it.
 */

/** The modes a day's collections are shown in; `credit` moves no money that day and is left out. */
export const CLOSING_MODES = ['cash', 'cheque', 'upi', 'card', 'bank_transfer', 'online'] as const;
export type ClosingMode = (typeof CLOSING_MODES)[number];

export const CLOSING_MODE_LABELS: Record<ClosingMode, string> = {
  cash: 'Cash',
  cheque: 'Cheque',
  upi: 'UPI',
  card: 'Card',
  bank_transfer: 'Bank transfer',
  online: 'Online',
};

/** Rupee notes and coins counted, largest first. */
export const DENOMINATIONS = [2000, 500, 200, 100, 50, 20, 10, 5, 2, 1] as const;
export type Denomination = (typeof DENOMINATIONS)[number];
/** Keys on the wire are the rupee values as strings: { "500": 3, "10": 4 } */
export type DenominationCounts = Partial<Record<`${Denomination}`, number>>;

const countField = z.number({ error: 'Each count must be a whole number, 0 or more' }).int('Each count must be a whole number').min(0, 'A count cannot be negative').max(1_000_000, 'That count is too large');

export const denominationCountsSchema = z.strictObject(
  Object.fromEntries(DENOMINATIONS.map((d) => [String(d), countField.optional()])) as Record<`${Denomination}`, z.ZodOptional<typeof countField>>,
  { error: 'Count only ₹2000, 500, 200, 100, 50, 20, 10, 5, 2 and 1' },
);

export const closingDateSchema = z.iso.date('date must be a date (YYYY-MM-DD)');

export const closeDaySchema = z.object({
  date: closingDateSchema,
  counts: denominationCountsSchema,
  note: z
    .string()
    .max(500, 'The note is too long (at most 500 characters)')
    .nullish()
    .transform((v) => (v ?? '').trim()),
});
export type CloseDayInput = z.infer<typeof closeDaySchema>;

/** Counted cash in paise: Σ count × denomination. */
export function countedCash(counts: DenominationCounts): Paise {
  return addPaise(...DENOMINATIONS.map((d) => paise((counts[`${d}`] ?? 0) * d * 100)));
}

/** Positive: more cash in the drawer than the receipts say (excess); negative: a shortage. */
export function cashDifference(counted: Paise, expected: Paise): Paise {
  return subtractPaise(counted, expected);
}

export const CLOSING_MESSAGES = {
  alreadyClosed: 'You have already closed this day. An accountant or administrator can see it in the closings report.',
  futureDay: 'A day in the future cannot be closed',
  noteNeeded: 'The counted cash differs from the expected cash: add a note saying why',
  alreadyAcknowledged: 'This closing has already been acknowledged',
  closedDayCancel:
    'This receipt belongs to a day its collector has already closed. Only an Accountant or Administrator can cancel it, with a reason.',
} as const;

const money = z.string().describe('rupees, e.g. "1500.00"');

export const dayCollectionsDto = z.object({
  date: z.string(),
  userId: z.string(),
  userName: z.string(),
  byMode: z.array(z.object({ mode: z.enum(CLOSING_MODES), count: z.number().int(), total: money })),
  total: money,
  /** cash receipts of the day: what the drawer should hold */
  expectedCash: money,
  closing: z.lazy(() => closingDto).nullable(),
});
export type DayCollections = z.infer<typeof dayCollectionsDto>;

export const closingDto = z.object({
  id: z.string(),
  date: z.string(),
  userId: z.string(),
  userName: z.string(),
  counts: z.record(z.string(), z.number().int()),
  countedCash: money,
  expectedCash: money,
  difference: money,
  note: z.string(),
  closedAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  acknowledgedByName: z.string().nullable(),
});
export type Closing = z.infer<typeof closingDto>;

export const closingsQuerySchema = z.object({
  from: closingDateSchema,
  to: closingDateSchema,
  userId: z.uuid().optional(),
});

export const closingsReportDto = z.object({
  from: z.string(),
  to: z.string(),
  closings: z.array(closingDto),
  /** per day and per user: the sums of the closings above */
  byDay: z.array(z.object({ date: z.string(), counted: money, expected: money, difference: money, closings: z.number().int() })),
  byUser: z.array(z.object({ userId: z.string(), userName: z.string(), counted: money, expected: money, difference: money, closings: z.number().int() })),
});
