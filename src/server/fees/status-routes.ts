import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { indiaMonthKey } from '../../domain/ledger';
import { paise } from '../../domain/money';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { students } from '../db/schema';
import { isUuid } from '../lib/ids';
import { approvedWaiversRead, fineOf, lateFineRuleFrom, lateFineRuleRead } from '../policy/fines';
import { readsAtOnce, withoutReads } from '../lib/read-at-once';
import { compiledSerializer } from '../lib/compiled-serializer';
import { notFound } from '../lib/errors';
import { fineSummaryDto, fineSummaryToDto } from '../../domain/fines';
import { indiaDate } from '../../domain/sessions';
import { accountFor, FEE_SESSION, loadStudentSession, scheduleFor, studentSessionFrom, studentSessionReads, type StudentSessionKeys } from './context';
import { creditFrom, creditRead } from './credit';
import {
  carriedSummaryDto,
  money,
  previousBalanceDto,
  receiptDto,
  rupees,
  sessionAccountDto,
  sessionDto,
  structureDto,
  toCarriedSummaryDto,
  toPreviousBalanceDto,
  toReceiptDto,
  toSessionAccountDto,
  toSessionDto,
  toStructureDto,
} from './dto';
import { carriedBalances, carriedFrom, carriedReads, findStudentOr404, receiptsRead, sessionKeys, sessionLinesOf, studentSessionLines, summariseCarried } from './queries';

const idParams = z.object({ id: z.string() });

const studentSummary = z.object({
  id: z.string(),
  name: z.string(),
  className: z.string().describe('class in the session shown'),
  section: z.string(),
  rollNumber: z.number().int(),
  status: z.enum(['active', 'passout']),
  monthlyBusFee: money,
});

export const feeStatusDto = z.object({
  student: studentSummary,
  session: sessionDto,
  asOfMonth: z.string().describe('YYYY-MM: the till-date horizon (the month the balance was carried, for a closed session)'),
  closed: z.boolean().describe("the session's balance was carried forward (promotion, discharge): it is collected as previous balance"),
  structure: structureDto,
  previousBalance: carriedSummaryDto.describe('Previous session outstanding balance: what is still owed from earlier sessions'),
  account: sessionAccountDto,
  ledger: z.object({
    pendingFeesAnnual: money.describe('outstanding over every month of the session'),
    totalPaid: money,
    outstandingTillDate: money,
    outstandingLabel: z.string().describe('"Paid Up" when nothing is outstanding till date, else the amount'),
    paidUp: z.boolean(),
    monthsPaid: z.number().int(),
    monthsPending: z.number().int(),
    totalMonths: z.number().int(),
    averageMonthly: money,
    totalDiscount: money,
  }),
  receipts: z.array(receiptDto).describe("the student's receipts in this session, newest first, cancelled ones included"),
  credit: money.describe("the student's credit (ruling 27): money received online for fees already paid, to apply or refund"),
  fine: fineSummaryDto.describe("today's late fine (issue 16): the same figure as Record Fee Payment and the payment link"),
});

const outstandingDto = z.object({
  monthlyFees: money.describe('monthly heads outstanding: this session (horizon) plus carried monthly balances'),
  yearlyFees: money,
  total: money,
  horizon: z.enum(['tillDate', 'annual']),
  asOfMonth: z.string(),
  currentSession: z
    .object({ academicYear: z.string(), monthlyOutstanding: money, yearlyOutstanding: money, total: money })
    .nullable()
    .describe("the student's open session; null for a passout"),
  previousBalance: carriedSummaryDto,
});

/**
 * Every figure of the Fee Status screen from one statement (decision 0049), assembled once for each
 * of its two shapes, the session named or the student's own (decision 0082). Keyed by school and
 * student only: planned once per connection, sent with its BEGIN, setting and COMMIT in one round
 * trip (lib/prepared.ts, decision 0053).
 */
function feeStatusReads(keys: StudentSessionKeys) {
  const { schoolId, studentId } = keys;
  const context = studentSessionReads(keys);
  return {
    with: context.with,
    reads: {
      // the session's lines are taken from its receipts (`sessionLinesOf`)
      ...withoutReads(context.reads, 'lines'),
      ...carriedReads({ schoolId, studentId }),
      receipts: receiptsRead({ schoolId, studentId, sessionId: FEE_SESSION, limit: RECEIPTS_SHOWN, offset: 0 }),
      credit: creditRead({ schoolId, studentId }),
      fineRule: lateFineRuleRead(schoolId),
      waivers: approvedWaiversRead({ schoolId, studentId, sessionId: FEE_SESSION }),
    },
  };
}

/** The receipts Fee Status lists, newest first: a session's are a few dozen at most. */
const RECEIPTS_SHOWN = 500;

const feeStatusInOwnSession = readsAtOnce(['schoolId', 'studentId'], (p) => feeStatusReads(p), { genericPlans: true });

const feeStatusInSession = readsAtOnce(
  ['schoolId', 'studentId', 'yearId', 'yearNames'],
  (p) => feeStatusReads({ schoolId: p.schoolId, studentId: p.studentId, year: { id: p.yearId, names: p.yearNames } }),
  { genericPlans: true },
);

export async function feeStatusRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/students/:id/fee-status',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.view' },
      schema: {
        tags: ['fees'],
        summary: 'Student Fee Status: every figure of the screen, from the ledger and the class fee structure',
        description:
          'Month cards for every month of the session with Paid / Partial / Pending / Not Recorded (Paid: every head received or forgiven as discount; Partial: something received, something still owed; Pending: nothing received for a due month; Not Recorded: nothing received and nothing due yet), the yearly card, the ledger summary and the previous session balance.',
        security: [{ bearer: [] }],
        params: idParams,
        querystring: z.object({ academicYear: z.string().trim().max(20).optional().describe("the student's session when absent") }),
        response: { 200: feeStatusDto, 400: errorDto, 404: errorDto },
      },
      // every field is built here from typed values: compiled once, not validated field by field
      // on every answer (decision 0042); status-serializer.test.ts holds it to the zod serializer
      serializerCompiler: compiledSerializer,
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const studentId = request.params.id;
      if (!isUuid(studentId)) throw notFound('Student not found');
      const args = { schoolId, studentId, academicYear: request.query.academicYear };
      const year = args.academicYear ? sessionKeys(args.academicYear) : undefined;
      const rows = await (year
        ? feeStatusInSession(db, { schoolId, studentId, yearId: year.id, yearNames: year.names })
        : feeStatusInOwnSession(db, { schoolId, studentId }));
      // every line of the session is on one of its receipts, all of them read but for a student
      // with more than the list shows, whose lines are read on their own (decision 0101)
      const sessionId = rows.session[0]?.id;
      const lines = !sessionId
        ? []
        : rows.receipts.length < RECEIPTS_SHOWN
          ? sessionLinesOf(rows.receipts, sessionId)
          : await studentSessionLines(db, { schoolId, studentId, sessionId });
      const ctx = studentSessionFrom({ ...rows, lines }, args);
      const asOfMonth = ctx.carried ? ctx.carried.throughMonth : indiaMonthKey(now);
      const account = accountFor(ctx, asOfMonth);
      const carried = carriedFrom(rows);
      const rule = lateFineRuleFrom(rows.fineRule);
      const fine = fineOf({ rule, waivedKeys: new Set(rows.waivers), account, asOf: indiaDate(now), schedule: scheduleFor(ctx) });
      const receiptRows = rows.receipts;
      const credit = creditFrom(rows.credit);
      const earlier = summariseCarried(carried, (r) => r.sessionStartDate < ctx.session.startDate && r.remaining > 0);
      const outstanding = account.tillDate.outstanding;
      return {
        student: {
          id: ctx.student.id,
          name: ctx.student.name,
          className: ctx.placement.className,
          section: ctx.placement.section,
          rollNumber: ctx.placement.rollNumber,
          status: ctx.student.status,
          monthlyBusFee: rupees(Number(ctx.student.monthlyBusFeePaise)),
        },
        session: toSessionDto(ctx.session),
        asOfMonth,
        closed: Boolean(ctx.carried),
        structure: toStructureDto(ctx.structure),
        previousBalance: toCarriedSummaryDto(earlier),
        account: toSessionAccountDto(account),
        ledger: {
          pendingFeesAnnual: rupees(account.annual.outstanding),
          totalPaid: rupees(account.totalPaid),
          outstandingTillDate: rupees(outstanding),
          outstandingLabel: outstanding === 0 ? 'Paid Up' : rupees(outstanding),
          paidUp: outstanding === 0,
          monthsPaid: account.monthsPaid,
          monthsPending: account.monthsPending,
          totalMonths: account.totalMonths,
          averageMonthly: rupees(account.averageMonthly),
          totalDiscount: rupees(account.totalDiscount),
        },
        receipts: receiptRows.map(toReceiptDto),
        credit: rupees(credit),
        fine: fineSummaryToDto(fine, rule.enabled),
      };
    },
  );

  app.get(
    '/api/students/:id/outstanding-fees',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.view' },
      schema: {
        tags: ['fees'],
        summary: "What a student owes: the open session's outstanding plus balances carried from earlier sessions",
        description: 'horizon=tillDate (default) counts the session months up to the current month; annual counts the whole session.',
        security: [{ bearer: [] }],
        params: idParams,
        querystring: z.object({ horizon: z.enum(['tillDate', 'annual']).default('tillDate') }),
        response: { 200: outstandingDto, 400: errorDto, 404: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { horizon } = request.query;
      const asOfMonth = indiaMonthKey(clock.now());
      const student = await findStudentOr404(db, { schoolId, studentId: request.params.id });
      let current: z.infer<typeof outstandingDto>['currentSession'] = null;
      let monthly = 0;
      let yearly = 0;
      if (student.status === 'active') {
        const ctx = await loadStudentSession(db, { schoolId, studentId: student.id });
        if (!ctx.carried) {
          const totals = accountFor(ctx, asOfMonth)[horizon];
          monthly = totals.monthlyOutstanding;
          yearly = totals.yearlyOutstanding;
          current = { academicYear: ctx.session.name, monthlyOutstanding: rupees(monthly), yearlyOutstanding: rupees(yearly), total: rupees(monthly + yearly) };
        }
      }
      const carried = summariseCarried(await carriedBalances(db, { schoolId, studentId: student.id }), (r) => r.remaining > 0);
      monthly += carried.monthlyOutstanding;
      yearly += carried.yearlyOutstanding;
      return {
        monthlyFees: rupees(monthly),
        yearlyFees: rupees(yearly),
        total: rupees(paise(monthly + yearly)),
        horizon,
        asOfMonth,
        currentSession: current,
        previousBalance: toCarriedSummaryDto(carried),
      };
    },
  );

  app.get(
    '/api/student-previous-balances',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.view' },
      schema: {
        tags: ['fees'],
        summary: 'Balances carried forward from earlier sessions, with what is still owed on each',
        description: 'One row per student and session left. Settled rows (balance "0.00") only with includeSettled=true.',
        security: [{ bearer: [] }],
        querystring: z.object({
          studentId: z.string().trim().max(100).optional(),
          includeSettled: z.enum(['true', 'false']).optional(),
        }),
        response: { 200: z.array(previousBalanceDto), 400: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { studentId, includeSettled } = request.query;
      if (studentId && !isUuid(studentId)) return [];
      const rows = (await carriedBalances(db, { schoolId, studentId })).filter((r) => includeSettled === 'true' || r.remaining > 0);
      if (rows.length === 0) return [];
      const ids = [...new Set(rows.map((r) => r.studentId))];
      const people = await db
        .select({ id: students.id, name: students.name, status: students.status })
        .from(students)
        .where(and(eq(students.schoolId, schoolId), inArray(students.id, ids)));
      const byId = new Map(people.map((p) => [p.id, p]));
      return rows.map((r) => toPreviousBalanceDto(r, byId.get(r.studentId) ?? { name: '', status: 'active' }));
    },
  );
}
