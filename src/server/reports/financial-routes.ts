import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MONTH_NAMES } from '../../domain/sessions';
import { paise, toRupeeString, ZERO, type Paise } from '../../domain/money';
import { dateRangeSchema, formatIndiaDateTime, type DateRange } from '../../domain/reports';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import type { Db } from '../db/client';
import { badRequest } from '../lib/errors';
import { schools } from '../db/schema';
import { financialCsv, financialXlsx } from './exports';
import { expenseRows, financialSummary, firstMonthlyFeeRows, yearlyFeeRows } from './financial';

const money = z.string().describe('rupees, "1500.00"');
const tags = ['reports'];
const security = [{ bearer: [] }];
export const DEFAULT_ROW_LIMIT = 5000;

const rangeQuery = z.object({
  fromDate: z.string().max(40).optional().describe('YYYY-MM-DD, inclusive'),
  toDate: z.string().max(40).optional().describe('YYYY-MM-DD, inclusive'),
});
const reportQuery = rangeQuery.extend({
  limit: z.coerce.number().int().min(1).max(50_000).optional().describe(`rows per table in the answer (default ${DEFAULT_ROW_LIMIT}); totals always cover every row`),
});

export const financialReportDto = z.object({
  schoolName: z.string(),
  fromDate: z.string(),
  toDate: z.string(),
  generatedAt: z.string(),
  summary: z.object({
    totalMonthlyIncome: money.describe('tuition and bus fees received in the period'),
    totalYearlyIncome: money.describe('the yearly heads only: admission, exam, books, uniform, misc'),
    totalOtherIncome: money.describe('fees with no dues of their own: transport, laboratory, library, sports, other'),
    totalArrearsCollected: money.describe('payments towards balances carried from earlier sessions (previous balance)'),
    creditReceived: money.describe("online money for fees already paid, kept as students' credit (ruling 27): received, so counted in totalIncome"),
    creditApplied: money.describe('fee lines paid from credit (receipts of mode credit): inside the fee figures, but not money received again'),
    creditRefunded: money.describe('credit given back to families'),
    totalIncome: money.describe('monthly + yearly + other + arrears − creditApplied + creditReceived − creditRefunded: every rupee received in the period'),
    totalExpenses: money,
    netProfit: money.describe('totalIncome − totalExpenses; negative as "-1500.00"'),
  }),
  monthlyFees: z.array(
    z.object({
      studentName: z.string(),
      studentClass: z.string(),
      section: z.string(),
      rollNumber: z.number().int(),
      month: z.string().describe('full month name the fee pays for'),
      year: z.number().int(),
      tuitionFee: money,
      busFee: money,
      total: money,
      tuitionDate: z.string().describe('payment date (YYYY-MM-DD)'),
    }),
  ),
  yearlyFees: z.array(
    z.object({
      studentName: z.string(),
      studentClass: z.string(),
      section: z.string(),
      rollNumber: z.number().int(),
      year: z.string().describe('academic year the fees belong to'),
      admissionFee: money,
      examFee: money,
      booksFee: money,
      uniformFee: money,
      miscFee: money.describe('the misc fee, shown as Misc (ruling 19)'),
      otherFee: money.describe('other fee types of Record Fee Payment and previous-balance payments'),
      total: money,
      paymentDate: z.string(),
    }),
  ),
  expenses: z.array(z.object({ date: z.string(), description: z.string(), category: z.string(), amount: money })),
  totals: z.object({
    monthlyFees: z.object({ tuitionFee: money, busFee: money, total: money }),
    yearlyFees: z.object({ admissionFee: money, examFee: money, booksFee: money, uniformFee: money, miscFee: money, otherFee: money, total: money }),
    expenses: money,
  }),
  counts: z
    .object({ monthlyFees: z.number().int().nullable(), yearlyFees: z.number().int(), expenses: z.number().int() })
    .describe('rows in each table for the whole period; monthlyFees is null when that table was cut to `limit` (a very large period)'),
  truncated: z.boolean().describe('true when a table has more rows than `limit`: download Excel or CSV for all of them'),
});
export type FinancialReportDto = z.infer<typeof financialReportDto>;

const r = (v: number) => toRupeeString(paise(v));

/** The report's period from the query, or a 400 with the reason (operations §5, issue 5 "bad input"). */
export function periodOf(query: { fromDate?: string | undefined; toDate?: string | undefined }): DateRange {
  const parsed = dateRangeSchema.safeParse({ fromDate: query.fromDate, toDate: query.toDate });
  if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
  return parsed.data;
}

export async function schoolNameOf(db: Db, schoolId: string): Promise<string> {
  const [row] = await db.select({ name: schools.name }).from(schools).where(eq(schools.id, schoolId)).limit(1);
  return row?.name ?? '';
}

export async function financialReport(db: Db, { schoolId, range, limit, now }: { schoolId: string; range: DateRange; limit: number; now: Date }): Promise<FinancialReportDto> {
  const period = { schoolId, from: range.fromDate, to: range.toDate };
  const [schoolName, summary, { rows: monthly, total: monthlyTotal }, yearly, spent] = await Promise.all([
    schoolNameOf(db, schoolId),
    financialSummary(db, period),
    firstMonthlyFeeRows(db, { ...period, limit }),
    yearlyFeeRows(db, { ...period, limit }),
    expenseRows(db, { ...period, limit }),
  ]);
  const head = (h: string): Paise => summary.byHead.get(h) ?? ZERO;
  const other = [...summary.byHead].filter(([h]) => !['tuition', 'bus', 'admission', 'exam', 'books', 'uniform', 'misc'].includes(h)).reduce((s, [, a]) => s + a, 0);
  const income = summary.totalIncome;
  return {
    schoolName,
    fromDate: range.fromDate,
    toDate: range.toDate,
    generatedAt: now.toISOString(),
    summary: {
      totalMonthlyIncome: r(summary.monthlyIncome),
      totalYearlyIncome: r(summary.yearlyIncome),
      totalOtherIncome: r(summary.otherIncome),
      totalArrearsCollected: r(summary.arrearsCollected),
      creditReceived: r(summary.creditReceived),
      creditApplied: r(summary.creditApplied),
      creditRefunded: r(summary.creditRefunded),
      totalIncome: r(income),
      totalExpenses: r(summary.expenses),
      netProfit: r(income - summary.expenses),
    },
    monthlyFees: monthly.map((m) => ({
      studentName: m.studentName,
      studentClass: m.className,
      section: m.section,
      rollNumber: m.rollNumber,
      month: MONTH_NAMES[Number(m.period.slice(5, 7)) - 1] ?? m.period,
      year: Number(m.period.slice(0, 4)),
      tuitionFee: r(m.tuition),
      busFee: r(m.bus),
      total: r(m.tuition + m.bus),
      tuitionDate: m.paidOn,
    })),
    yearlyFees: yearly.map((y) => ({
      studentName: y.studentName,
      studentClass: y.className,
      section: y.section,
      rollNumber: y.rollNumber,
      year: y.academicYear,
      admissionFee: r(y.admission),
      examFee: r(y.exam),
      booksFee: r(y.books),
      uniformFee: r(y.uniform),
      miscFee: r(y.misc),
      otherFee: r(y.other),
      total: r(y.admission + y.exam + y.books + y.uniform + y.misc + y.other),
      paymentDate: y.paidOn,
    })),
    expenses: spent.map((e) => ({ date: e.date, description: e.description, category: e.category, amount: r(e.amount) })),
    totals: {
      monthlyFees: { tuitionFee: r(head('tuition')), busFee: r(head('bus')), total: r(summary.monthlyIncome) },
      yearlyFees: {
        admissionFee: r(head('admission')),
        examFee: r(head('exam')),
        booksFee: r(head('books')),
        uniformFee: r(head('uniform')),
        miscFee: r(head('misc')),
        otherFee: r(other),
        total: r(summary.yearlyIncome + summary.otherIncome + summary.arrearsCollected),
      },
      expenses: r(summary.expenses),
    },
    counts: { monthlyFees: monthlyTotal, yearlyFees: yearly.total ?? 0, expenses: summary.expenseCount },
    truncated: monthlyTotal === null || (yearly.total ?? 0) > limit || summary.expenseCount > limit,
  };
}

const fileName = (range: DateRange, ext: string) => `financial-report-${range.fromDate}-to-${range.toDate}.${ext}`;

export async function financialRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;
  const rangeRules =
    'fromDate and toDate are required ("Please select both from and to dates"), real dates as YYYY-MM-DD, from on or before to, at most 10 years apart; otherwise 400. ' +
    'Money is counted by payment date from live receipts only.';

  app.get(
    '/api/reports/financial',
    {
      onRequest: requireSchool,
      config: { permission: 'reports.view' },
      schema: {
        tags,
        summary: 'Financial report: income, expenses and net profit for a period, with the three tables',
        description: rangeRules,
        security,
        querystring: reportQuery,
        response: { 200: financialReportDto, 400: errorDto },
      },
    },
    async (request) => {
      const range = periodOf(request.query);
      return financialReport(db, { schoolId: schoolIdOf(request), range, limit: request.query.limit ?? DEFAULT_ROW_LIMIT, now: clock.now() });
    },
  );

  const download = async (request: FastifyRequest, reply: FastifyReply, query: z.infer<typeof rangeQuery>, kind: 'xlsx' | 'csv') => {
    const range = periodOf(query);
    const schoolId = schoolIdOf(request);
    const header = { schoolName: await schoolNameOf(db, schoolId), from: range.fromDate, to: range.toDate, generatedAt: formatIndiaDateTime(clock.now()) };
    const period = { schoolId, from: range.fromDate, to: range.toDate };
    const log = (error: unknown) => request.log.error({ err: error }, 'financial report export failed');
    reply
      .header('content-type', kind === 'xlsx' ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName(range, kind)}"`)
      .header('cache-control', 'no-store');
    return reply.send(kind === 'xlsx' ? financialXlsx(db, period, header, log) : financialCsv(db, period, header, log));
  };

  app.get(
    '/api/reports/financial.xlsx',
    {
      onRequest: requireSchool,
      config: { permission: 'reports.view' },
      schema: {
        tags,
        summary: 'The Financial report as an Excel workbook: Summary, Monthly Fees, Yearly Fees and Expenses sheets with total rows',
        description:
          `${rangeRules} Amounts are numbers in rupees formatted with two decimals. ` +
          'A table longer than the 1,048,576 rows an Excel sheet holds goes on in a sheet after it ("Monthly Fees (2)", …) under the same header row; its total row is on the last.',
        security,
        querystring: rangeQuery,
        produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 400: errorDto },
      },
    },
    (request, reply) => download(request, reply, request.query, 'xlsx'),
  );

  app.get(
    '/api/reports/financial.csv',
    {
      onRequest: requireSchool,
      config: { permission: 'reports.view' },
      schema: {
        tags,
        summary: 'The Financial report as CSV: the summary, then each table under its heading with a total row',
        description: rangeRules,
        security,
        querystring: rangeQuery,
        produces: ['text/csv'],
        response: { 400: errorDto },
      },
    },
    (request, reply) => download(request, reply, request.query, 'csv'),
  );
}
