import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EXPENSE_CATEGORIES } from '../../domain/expenses';
import { toRupeeString } from '../../domain/money';
import { collectionProgress, monthKeyLabel } from '../../domain/reports';
import { indiaDate } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { chartData, schoolStats, type ChartData, type SchoolStats } from './queries';
import { FigureCache } from '../lib/figure-cache';
import { dataVersionKey } from './versions';

const money = z.string().describe('rupees, "1500.00"');
const tags = ['stats'];
const security = [{ bearer: [] }];

const sessionDto = z
  .object({ id: z.string().nullable(), name: z.string(), startDate: z.string(), endDate: z.string() })
  .describe('the active session; without one, the April–March year of today (id null)');

export const schoolStatsDto = z.object({
  totalStudents: z.number().int().describe('active students'),
  monthlyRevenue: money.describe('Total Revenue: every live receipt of every session (the card "Total Revenue (all sessions combined)")'),
  totalRevenue: money.describe('the same figure under a plain name'),
  paidStudents: z.number().int().describe('active students Paid for last month (month card status Paid of fee status)'),
  lastMonth: z.string().describe('YYYY-MM'),
  lastMonthLabel: z.string().describe('"October 2026": the card reads "<lastMonthLabel> Payments" (ruling 17)'),
  pendingFees: money.describe("Outstanding Balance Till Date: every active student's outstanding-fees total (open session till date plus carried balances)"),
  pendingStudents: z.number().int().describe('active students with anything outstanding till date'),
  previousBalancePending: money.describe('the part of pendingFees carried from earlier sessions'),
  expectedMonthlyIncome: money.describe('Expected Fee This Month: tuition of the class plus the student’s bus fee, for active students whose session includes this month'),
  yearlyFeesPotential: money.describe('Expected Yearly Fee: yearly + exam + books + uniform + misc of each active student’s class structure'),
  currentSessionBusRevenue: money.describe('bus fee received for the current session'),
  currentMonth: z.string(),
  currentMonthLabel: z.string(),
  currentMonthCollected: money.describe('tuition and bus received for this month’s fees'),
  collectionProgress: z.number().int().describe('currentMonthCollected ÷ expectedMonthlyIncome as a whole percent (may exceed 100; the bar is capped)'),
  thisMonthIncome: money.describe('everything received with a payment date in this calendar month'),
  totalExpenses: money.describe('expenses dated within the current session'),
  expensesByCategory: z.record(z.string(), money).describe('category → amount, only categories with expenses, in list order'),
  session: sessionDto,
  generatedAt: z.string(),
});
export type SchoolStatsDto = z.infer<typeof schoolStatsDto>;

function toStatsDto(s: SchoolStats, generatedAt: Date): SchoolStatsDto {
  const progress = collectionProgress(s.currentMonthCollected, s.expectedMonthlyIncome);
  return {
    totalStudents: s.totalStudents,
    monthlyRevenue: toRupeeString(s.totalRevenue),
    totalRevenue: toRupeeString(s.totalRevenue),
    paidStudents: s.paidStudents,
    lastMonth: s.lastMonth,
    lastMonthLabel: monthKeyLabel(s.lastMonth),
    pendingFees: toRupeeString(s.pendingFees),
    pendingStudents: s.pendingStudents,
    previousBalancePending: toRupeeString(s.previousBalancePending),
    expectedMonthlyIncome: toRupeeString(s.expectedMonthlyIncome),
    yearlyFeesPotential: toRupeeString(s.yearlyFeesPotential),
    currentSessionBusRevenue: toRupeeString(s.currentSessionBusRevenue),
    currentMonth: s.currentMonth,
    currentMonthLabel: monthKeyLabel(s.currentMonth),
    currentMonthCollected: toRupeeString(s.currentMonthCollected),
    collectionProgress: progress.percent,
    thisMonthIncome: toRupeeString(s.thisMonthIncome),
    totalExpenses: toRupeeString(s.totalExpenses),
    expensesByCategory: Object.fromEntries(EXPENSE_CATEGORIES.filter((c) => s.expensesByCategory.has(c)).map((c) => [c, toRupeeString(s.expensesByCategory.get(c)!)])),
    session: s.session,
    generatedAt: generatedAt.toISOString(),
  };
}

export const chartsDto = z.object({
  session: sessionDto,
  months: z.array(z.object({ month: z.string().describe('YYYY-MM'), label: z.string(), expected: money, collected: money })),
  expensesByCategory: z.array(z.object({ category: z.string(), amount: money })),
  outstandingByClass: z.array(z.object({ className: z.string(), students: z.number().int(), outstanding: money })),
});
type ChartsDto = z.infer<typeof chartsDto>;

export async function statsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;
  // Whole-school figures are computed once per change of the school's data (docs/decisions/0011-report-queries.md).
  // The answer is kept serialised too: a cached answer costs a lookup, not a validation and a stringify.
  // The cards' next computation after a write runs beside the one running, and is joined until it
  // reads: it does not queue for the pool behind the one before it (decision 0105).
  const statsCache = new FigureCache<{ dto: SchoolStatsDto; json: string }>(60_000, 500, { overlap: true });
  const chartsCache = new FigureCache<{ dto: ChartsDto; json: string }>();
  const withJson = <T>(dto: T) => ({ dto, json: JSON.stringify(dto) });

  const cacheKey = async (schoolId: string, today: string) => `${await dataVersionKey(db, schoolId, Date.now())}|${today}`;
  const stats = async (schoolId: string, today: string, now: Date) =>
    statsCache.get(schoolId, await cacheKey(schoolId, today), now.getTime(), async (_signal, reading) =>
      withJson(toStatsDto(await schoolStats(db, { schoolId, today, reading }), now)),
    );

  app.get(
    '/api/stats/school',
    {
      onRequest: requireSchool,
      config: { permission: 'dashboard.view' },
      schema: {
        tags,
        summary: 'School stats: every figure of the Students tab cards and the Collection Progress bar',
        description:
          'Read from the fee ledger (live receipts only) and the class fee structures; outstanding follows ruling 6, the same rule as fee status. ' +
          'Figures are cached per school until its data changes.',
        security,
        response: { 200: schoolStatsDto, 401: errorDto, 403: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const { json } = await stats(schoolId, indiaDate(now), now);
      return reply.type('application/json; charset=utf-8').send(json as never);
    },
  );

  app.get(
    '/api/stats/charts',
    {
      onRequest: requireSchool,
      config: { permission: 'dashboard.view' },
      schema: {
        tags,
        summary: 'Dashboard charts: collected against expected per month of the session, expenses by category, outstanding by class',
        description: 'expected per month is the tuition and bus fee due from active students of the session; collected is what was received for that month’s fees.',
        security,
        response: { 200: chartsDto, 401: errorDto, 403: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const today = indiaDate(now);
      const { json } = await chartsCache.get(schoolId, await cacheKey(schoolId, today), now.getTime(), async () => {
        const [charts, figures] = await Promise.all([chartData(db, { schoolId, today }), stats(schoolId, today, now)]);
        return withJson(toChartsDto(charts, figures.dto));
      });
      return reply.type('application/json; charset=utf-8').send(json as never);
    },
  );
}

function toChartsDto(c: ChartData, stats: SchoolStatsDto): ChartsDto {
  return {
    session: c.session,
    months: c.months.map((m) => ({ month: m.key, label: monthKeyLabel(m.key), expected: toRupeeString(m.expected), collected: toRupeeString(m.collected) })),
    expensesByCategory: Object.entries(stats.expensesByCategory).map(([category, amount]) => ({ category, amount })),
    outstandingByClass: c.outstandingByClass.map((r) => ({ className: r.className, students: r.students, outstanding: toRupeeString(r.outstanding) })),
  };
}
