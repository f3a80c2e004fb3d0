import { z } from 'zod';
import type { CarriedBalancePosition, HeadPosition, SessionAccount } from '../../domain/fees';
import { FEE_HEADS, FEE_PAYMENT_TYPES, HEAD_LABELS, headToFeeType, monthLabel, PAYMENT_MODES, RECEIPT_PREFIXES, RECEIPT_SOURCES, YEARLY_HEADS } from '../../domain/ledger';
import { amountInWords, paise, toRupeeString, type Paise } from '../../domain/money';
import type { CarriedRow, CarriedSummary, ReceiptWithLines, SessionRow } from './queries';

/** Rupees with two decimals, the wire form of every amount (ruling 1). */
export const money = z.string().regex(/^-?\d+\.\d{2}$/).describe('rupees as a decimal string with two places, e.g. "1500.00"');
export const rupees = (amount: number) => toRupeeString(paise(amount));

export const receiptLineDto = z.object({
  id: z.string(),
  head: z.enum(FEE_HEADS).describe('ledger head'),
  headLabel: z.string().describe('e.g. "Tuition Fee"'),
  feeType: z.enum(FEE_PAYMENT_TYPES).describe('the Record Fee Payment type this head belongs to'),
  period: z.string().nullable().describe('`2025-04` for tuition and bus lines, else null'),
  periodLabel: z.string().nullable().describe('"April 2025"'),
  amount: money,
  paidOn: z.string().describe('YYYY-MM-DD'),
  sessionId: z.string().describe('the session whose fees the line pays (for previous_balance: the session the balance was left in)'),
  academicYear: z.string(),
});

export const receiptDto = z.object({
  id: z.string(),
  receiptNumber: z.string().describe('MON/2025-26/000042'),
  prefix: z.enum(RECEIPT_PREFIXES),
  academicYear: z.string().describe('2025-2026: the session the number belongs to'),
  source: z.enum(RECEIPT_SOURCES),
  studentId: z.string(),
  studentName: z.string(),
  className: z.string().describe('the class, section and roll as on the day of payment'),
  section: z.string(),
  rollNumber: z.number().int(),
  sessionId: z.string(),
  paymentMode: z.enum(PAYMENT_MODES),
  chequeNumber: z.string().nullable(),
  bankName: z.string().nullable(),
  upiReference: z.string().nullable(),
  transactionReference: z.string().nullable(),
  receivedBy: z.string(),
  receivedAt: z.string().describe('ISO timestamp'),
  total: money,
  totalInWords: z.string().describe('"Rupees One Thousand Five Hundred Only"'),
  status: z.enum(['live', 'cancelled']),
  cancelledAt: z.string().nullable(),
  cancelReason: z.string().nullable(),
  clientId: z.string().nullable(),
  lines: z.array(receiptLineDto),
});
export type ReceiptDto = z.infer<typeof receiptDto>;

export function toReceiptDto({ receipt: r, lines }: ReceiptWithLines): ReceiptDto {
  return {
    id: r.id,
    receiptNumber: r.receiptNumber,
    prefix: r.prefix,
    academicYear: r.academicYear,
    source: r.source,
    studentId: r.studentId,
    studentName: r.studentName,
    className: r.className,
    section: r.section,
    rollNumber: r.rollNumber,
    sessionId: r.sessionId,
    paymentMode: r.paymentMode,
    chequeNumber: r.chequeNumber,
    bankName: r.bankName,
    upiReference: r.upiReference,
    transactionReference: r.transactionReference,
    receivedBy: r.receivedBy,
    receivedAt: r.receivedAt.toISOString(),
    total: rupees(Number(r.totalPaise)),
    totalInWords: amountInWords(paise(Number(r.totalPaise))),
    status: r.status,
    cancelledAt: r.cancelledAt ? r.cancelledAt.toISOString() : null,
    cancelReason: r.cancelReason,
    clientId: r.clientId,
    lines: lines.map((l) => ({
      id: l.id,
      head: l.head,
      headLabel: HEAD_LABELS[l.head],
      feeType: headToFeeType(l.head),
      period: l.period,
      periodLabel: l.period ? monthLabel(l.period) : null,
      amount: rupees(Number(l.amountPaise)),
      paidOn: l.paidOn,
      sessionId: l.sessionId,
      academicYear: l.academicYear,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Carried balances
// ---------------------------------------------------------------------------------------------

export const previousBalanceDto = z.object({
  id: z.string(),
  studentId: z.string(),
  studentName: z.string(),
  studentStatus: z.enum(['active', 'passout']),
  className: z.string().describe('the class the balance was left in'),
  sessionId: z.string(),
  academicYear: z.string().describe('the session the balance was left in'),
  balance: money.describe('what is still owed: monthlyOutstanding + yearlyOutstanding'),
  monthlyOutstanding: money,
  yearlyOutstanding: money,
  recordedBalance: money.describe('the balance when it was carried (plus dues put back by cancelled receipts)'),
  recordedMonthlyOutstanding: money,
  recordedYearlyOutstanding: money,
  paid: money.describe('collected against it so far (live previous_balance lines)'),
  throughMonth: z.string().describe('the last month counted, YYYY-MM'),
  reason: z.enum(['promotion', 'rollover', 'discharge', 'graduation', 'opening']).describe('opening: arrears from the old register (decision 0027)'),
  recordedAt: z.string(),
});
export type PreviousBalanceDto = z.infer<typeof previousBalanceDto>;

export function toPreviousBalanceDto(row: CarriedRow, student: { name: string; status: 'active' | 'passout' }): PreviousBalanceDto {
  return {
    id: row.id,
    studentId: row.studentId,
    studentName: student.name,
    studentStatus: student.status,
    className: row.className,
    sessionId: row.sessionId,
    academicYear: row.academicYear,
    balance: rupees(row.remaining),
    monthlyOutstanding: rupees(row.monthlyRemaining),
    yearlyOutstanding: rupees(row.yearlyRemaining),
    recordedBalance: rupees(row.recorded),
    recordedMonthlyOutstanding: rupees(row.monthly),
    recordedYearlyOutstanding: rupees(row.yearly),
    paid: rupees(row.paid),
    throughMonth: row.throughMonth,
    reason: row.reason,
    recordedAt: row.recordedAt.toISOString(),
  };
}

export const carriedSummaryDto = z.object({
  monthlyOutstanding: money,
  yearlyOutstanding: money,
  balance: money.describe('total still owed from earlier sessions'),
  balances: z.array(
    z.object({
      id: z.string(),
      sessionId: z.string(),
      academicYear: z.string(),
      className: z.string(),
      balance: money,
      monthlyOutstanding: money,
      yearlyOutstanding: money,
      recordedBalance: money,
      paid: money,
      reason: z.enum(['promotion', 'rollover', 'discharge', 'graduation', 'opening']).describe('opening: arrears from the old register (decision 0027)'),
    }),
  ),
});

export function toCarriedSummaryDto(summary: CarriedSummary): z.infer<typeof carriedSummaryDto> {
  return {
    monthlyOutstanding: rupees(summary.monthlyOutstanding),
    yearlyOutstanding: rupees(summary.yearlyOutstanding),
    balance: rupees(summary.balance),
    balances: summary.rows.map((r: CarriedRow & CarriedBalancePosition) => ({
      id: r.id,
      sessionId: r.sessionId,
      academicYear: r.academicYear,
      className: r.className,
      balance: rupees(r.remaining),
      monthlyOutstanding: rupees(r.monthlyRemaining),
      yearlyOutstanding: rupees(r.yearlyRemaining),
      recordedBalance: rupees(r.recorded),
      paid: rupees(r.paid),
      reason: r.reason,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Session accounts (fee status)
// ---------------------------------------------------------------------------------------------

const headDto = z.object({
  expected: money,
  paid: money,
  concession: money.describe('shortfall forgiven once the head was recorded (discount, operations §9)'),
  granted: money.describe('taken off by approved concessions (issue 16): expected − granted is what may be received'),
  grants: z.array(z.object({ concessionId: z.string(), name: z.string(), amount: money })).describe('the approved concessions behind `granted`'),
  outstanding: money,
  recorded: z.boolean().describe('something was received for it: the head is locked in the grid'),
  paidOn: z.string().nullable().describe('latest payment date'),
});

const toHead = (h: HeadPosition) => ({
  expected: rupees(h.expected),
  paid: rupees(h.paid),
  concession: rupees(h.concession),
  granted: rupees(h.granted),
  grants: h.grants.map((g) => ({ concessionId: g.concessionId, name: g.name, amount: rupees(g.amount) })),
  outstanding: rupees(h.outstanding),
  recorded: h.recorded,
  paidOn: h.paidOn,
});

const totalsDto = z.object({
  expected: money,
  received: money.describe('received towards what was expected in this horizon'),
  concessions: money.describe('discounts of recorded months plus approved concessions'),
  granted: money.describe('approved concessions (issue 16), part of `concessions`'),
  outstanding: money.describe('expected − received − concessions'),
  monthlyExpected: money,
  monthlyOutstanding: money,
  yearlyExpected: money,
  yearlyOutstanding: money,
});

export const sessionAccountDto = z.object({
  months: z.array(
    z.object({
      key: z.string().describe('2025-04'),
      month: z.string().describe('April'),
      year: z.number().int(),
      label: z.string().describe('April 2025'),
      due: z.boolean().describe('on or before the current month'),
      status: z.enum(['Paid', 'Partial', 'Pending', 'Not Recorded']),
      tuition: headDto,
      bus: headDto,
      discount: money,
      outstanding: money,
    }),
  ),
  yearly: z.object({
    status: z.enum(['paid', 'partial', 'pending']),
    paidCount: z.number().int(),
    applicableCount: z.number().int().describe('heads with an expected amount or a payment'),
    totalCount: z.literal(5),
    expected: money,
    paid: money,
    outstanding: money,
    heads: z.array(
      headDto.extend({
        head: z.enum(YEARLY_HEADS),
        label: z.string(),
        status: z.enum(['paid', 'pending', 'not_applicable']),
      }),
    ),
  }),
  extras: z.array(z.object({ head: z.enum(FEE_HEADS), label: z.string(), paid: money })).describe('laboratory, library, sports, other: no expectation'),
  tillDate: totalsDto,
  annual: totalsDto,
  totalPaid: money.describe('every live line of the session (not previous-balance payments)'),
  monthlyPaid: money,
  yearlyPaid: money,
  extrasPaid: money,
  finePaid: money.describe('late fines paid (head fine)'),
  totalMonths: z.number().int(),
  monthsPaid: z.number().int(),
  monthsPending: z.number().int(),
  averageMonthly: money,
  totalDiscount: money,
});

const toTotals = (t: SessionAccount['tillDate']) => ({
  expected: rupees(t.expected),
  received: rupees(t.applied),
  concessions: rupees(t.concessions),
  granted: rupees(t.granted),
  outstanding: rupees(t.outstanding),
  monthlyExpected: rupees(t.monthlyExpected),
  monthlyOutstanding: rupees(t.monthlyOutstanding),
  yearlyExpected: rupees(t.yearlyExpected),
  yearlyOutstanding: rupees(t.yearlyOutstanding),
});

export function toSessionAccountDto(a: SessionAccount): z.infer<typeof sessionAccountDto> {
  const sum = (f: (y: SessionAccount['yearly'][number]) => Paise) => rupees(a.yearly.reduce((s, y) => s + f(y), 0));
  return {
    months: a.months.map((m) => ({
      key: m.key,
      month: m.month,
      year: m.year,
      label: `${m.month} ${m.year}`,
      due: m.due,
      status: m.status,
      tuition: toHead(m.tuition),
      bus: toHead(m.bus),
      discount: rupees(m.discount),
      outstanding: rupees(m.outstanding),
    })),
    yearly: {
      status: a.yearlyStatus,
      paidCount: a.yearlyPaidCount,
      applicableCount: a.yearlyApplicableCount,
      totalCount: 5,
      expected: sum((y) => y.expected),
      paid: sum((y) => y.paid),
      outstanding: sum((y) => y.outstanding),
      heads: a.yearly.map((y) => ({ ...toHead(y), head: y.head, label: HEAD_LABELS[y.head], status: y.status })),
    },
    extras: a.extras.map((e) => ({ head: e.head, label: HEAD_LABELS[e.head], paid: rupees(e.paid) })),
    tillDate: toTotals(a.tillDate),
    annual: toTotals(a.annual),
    totalPaid: rupees(a.totalPaid),
    monthlyPaid: rupees(a.monthlyPaid),
    yearlyPaid: rupees(a.yearlyPaid),
    extrasPaid: rupees(a.extrasPaid),
    finePaid: rupees(a.finePaid),
    totalMonths: a.totalMonths,
    monthsPaid: a.monthsPaid,
    monthsPending: a.monthsPending,
    averageMonthly: rupees(a.averageMonthly),
    totalDiscount: rupees(a.totalDiscount),
  };
}

export const sessionDto = z.object({
  id: z.string(),
  name: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  isActive: z.boolean(),
});
export const toSessionDto = (s: SessionRow) => ({ id: s.id, name: s.name, startDate: s.startDate, endDate: s.endDate, isActive: s.isActive });

export const structureDto = z
  .object({
    className: z.string(),
    academicYear: z.string(),
    monthlyTuitionFee: money,
    yearlyFee: money,
    examFee: money,
    booksFee: money,
    uniformFee: money,
    miscFee: money,
  })
  .nullable()
  .describe('the class fee structure used, null when the class has none for that session');

export function toStructureDto(row: {
  className: string;
  academicYear: string;
  monthlyTuitionFeePaise: number;
  yearlyFeePaise: number;
  examFeePaise: number;
  booksFeePaise: number;
  uniformFeePaise: number;
  miscFeePaise: number;
} | undefined): z.infer<typeof structureDto> {
  if (!row) return null;
  return {
    className: row.className,
    academicYear: row.academicYear,
    monthlyTuitionFee: rupees(Number(row.monthlyTuitionFeePaise)),
    yearlyFee: rupees(Number(row.yearlyFeePaise)),
    examFee: rupees(Number(row.examFeePaise)),
    booksFee: rupees(Number(row.booksFeePaise)),
    uniformFee: rupees(Number(row.uniformFeePaise)),
    miscFee: rupees(Number(row.miscFeePaise)),
  };
}
