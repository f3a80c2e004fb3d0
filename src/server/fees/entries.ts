import { z } from 'zod';
import { monthLabel, YEARLY_HEADS, YEARLY_FIELDS, type YearlyHead } from '../../domain/ledger';
import { MONTH_NAMES, sessionMonths } from '../../domain/sessions';
import { money, rupees } from './dto';
import type { DetailedLine, SessionRow } from './queries';

/**
 * The spec's "monthly fee entry" and "yearly fee entry" are views of the ledger: one entry per
 * month with something received, one yearly entry per session. They are read from the receipt
 * lines, never stored on their own.
 */

export const monthlyEntryDto = z.object({
  id: z.string().describe('the id of the first line received for that month'),
  studentId: z.string(),
  month: z.enum(MONTH_NAMES).describe('full month name'),
  year: z.number().int(),
  monthKey: z.string().describe('2025-04'),
  tuitionFee: money.describe('tuition received for the month, "0.00" when none'),
  tuitionDate: z.string().nullable(),
  busFee: money,
  busDate: z.string().nullable(),
  status: z.enum(['pending', 'paid']).describe('paid once anything is received for the month'),
  submittedAt: z.string().describe('when the first line of the month was saved'),
  clientId: z.string().nullable(),
  receiptNumbers: z.array(z.string()),
  /** the heads already saved: they can no longer be entered in the grid */
  locked: z.object({ tuition: z.boolean(), bus: z.boolean() }),
});
export type MonthlyEntryDto = z.infer<typeof monthlyEntryDto>;

export function monthlyEntries(studentId: string, session: SessionRow, lines: DetailedLine[]): MonthlyEntryDto[] {
  const out: MonthlyEntryDto[] = [];
  for (const m of sessionMonths(session.startDate, session.endDate)) {
    const mine = lines.filter((l) => l.period === m.key && (l.head === 'tuition' || l.head === 'bus'));
    if (mine.length === 0) continue;
    const sum = (head: 'tuition' | 'bus') => mine.filter((l) => l.head === head).reduce((s, l) => s + l.amount, 0);
    const lastDate = (head: 'tuition' | 'bus') =>
      mine.filter((l) => l.head === head).reduce<string | null>((d, l) => (d === null || l.paidOn > d ? l.paidOn : d), null);
    const first = mine[0]!;
    out.push({
      id: first.id,
      studentId,
      month: m.month,
      year: m.year,
      monthKey: m.key,
      tuitionFee: rupees(sum('tuition')),
      tuitionDate: lastDate('tuition'),
      busFee: rupees(sum('bus')),
      busDate: lastDate('bus'),
      status: 'paid',
      submittedAt: first.createdAt.toISOString(),
      clientId: first.clientId,
      receiptNumbers: [...new Set(mine.map((l) => l.receiptNumber))],
      locked: { tuition: sum('tuition') > 0, bus: sum('bus') > 0 },
    });
  }
  return out;
}

export const monthLabelOf = monthLabel;

const yearlyFields = Object.fromEntries(
  YEARLY_HEADS.flatMap((h) => [
    [YEARLY_FIELDS[h].amount, money.nullable()],
    [YEARLY_FIELDS[h].date, z.string().nullable()],
  ]),
) as Record<string, z.ZodType>;

export const yearlyEntryDto = z
  .object({
    studentId: z.string(),
    academicYear: z.string(),
    exists: z.boolean().describe('something has been received for a yearly head this session'),
    ...yearlyFields,
    admissionFee: money.nullable().describe('null when nothing received; likewise examFee, booksFee, uniformFee, miscFee'),
    admissionDate: z.string().nullable().describe('latest payment date; likewise examDate, booksDate, uniformDate, miscDate'),
    lockedFees: z.array(z.enum(YEARLY_HEADS)).describe('heads paid in full: they cannot be changed (selective protection)'),
    partialFees: z
      .array(z.object({ head: z.enum(YEARLY_HEADS), received: money, due: money, remaining: money }))
      .describe('heads with part of their due received: the rest stays collectable on the same card'),
    submittedAt: z.string().nullable(),
    clientId: z.string().nullable(),
    version: z.number().int().describe('how many yearly lines are recorded; grows with every save'),
    receiptNumbers: z.array(z.string()),
  })
  .describe('the yearly fee entry of a student and session, read from the ledger');
export type YearlyEntryDto = z.infer<typeof yearlyEntryDto>;

/**
 * `dues`: each yearly head's amount in the class structure (ruling 26). A head is locked once it is
 * paid in full; a head with part of its due received stays open for the rest.
 */
export function yearlyEntry(studentId: string, session: SessionRow, lines: DetailedLine[], dues: Record<YearlyHead, number> | null): YearlyEntryDto {
  const yearly = lines.filter((l) => (YEARLY_HEADS as readonly string[]).includes(l.head));
  const entry: Record<string, unknown> = {
    studentId,
    academicYear: session.name,
    exists: yearly.length > 0,
    lockedFees: [] as YearlyHead[],
    partialFees: [] as Array<{ head: YearlyHead; received: string; due: string; remaining: string }>,
    submittedAt: yearly[0]?.createdAt.toISOString() ?? null,
    clientId: yearly[0]?.clientId ?? null,
    version: yearly.length,
    receiptNumbers: [...new Set(yearly.map((l) => l.receiptNumber))],
  };
  for (const head of YEARLY_HEADS) {
    const mine = yearly.filter((l) => l.head === head);
    const total = mine.reduce((s, l) => s + l.amount, 0);
    entry[YEARLY_FIELDS[head].amount] = total > 0 ? rupees(total) : null;
    entry[YEARLY_FIELDS[head].date] = mine.reduce<string | null>((d, l) => (d === null || l.paidOn > d ? l.paidOn : d), null);
    const due = dues?.[head] ?? 0;
    if (total > 0 && total < due) {
      (entry.partialFees as Array<{ head: YearlyHead; received: string; due: string; remaining: string }>).push({
        head,
        received: rupees(total),
        due: rupees(due),
        remaining: rupees(due - total),
      });
    } else if (total > 0) {
      (entry.lockedFees as YearlyHead[]).push(head);
    }
  }
  return entry as YearlyEntryDto;
}
