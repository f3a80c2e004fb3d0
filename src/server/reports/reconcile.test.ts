import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paiseFromRupees } from '../../domain/money';
import type { ReportDocument, ReportTable } from '../../domain/report-document';
import { seedDemoSchool } from '../demo/seed-demo';
import { client, createTestApp, type TestContext } from '../test/harness';
import { rowsOf } from '../lib/sql-rows';
import { arrearsCollected } from './reconcile-sql';
import { classWiseReport, monthlyReport, sessionByClassStatement, sessionReport, yearlyHeadsStatement, yearlyMonthsStatement, yearlyReport } from './fee-reports';
import { sessionMonths } from '../../domain/sessions';

/**
 * Issue item 10, "reports reconcile": on every report of the demo school (30 students, the clock at
 * 22 November 2026), every row and total with Due, Received and Outstanding also shows the
 * Concession, and Due − Concession − Received = Outstanding to the paisa; money a report does not
 * count against its dues (advance months, other fees, arrears) has its own line, so each report's
 * money adds up to the Financial report of the same dates.
 *
 * On top of the demo school's own ledger, three things every school sees: a month paid short at the
 * counter (a concession), December paid in advance, and a laboratory fee (no dues of its own).
 */

let ctx: TestContext;
let api: ReturnType<typeof client>;
const TODAY = '2026-11-22';
const CURRENT = { name: '2026-2027', from: '2026-04-01', to: '2027-03-31' };
const PREVIOUS = { name: '2025-2026', from: '2025-04-01', to: '2026-03-31' };

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-11-22T06:00:00.000Z') });
  const demo = await seedDemoSchool(ctx.app, ctx.database.db, {
    email: 'principal@reconcile.test',
    password: 'a demo password 123',
    schoolName: 'Reconcile Public School',
    students: 30,
    now: ctx.clock.now(),
    log: () => {},
  });
  const login = await client(ctx.app).post('/api/auth/login', { email: demo.email, password: demo.password });
  api = client(ctx.app, login.json().token);

  // a new Class 5 student: November paid short at the counter (a concession), December ahead, a laboratory fee
  const added = await api.post('/api/students', { name: 'Ruhaan Mir', class: 'Class 5', section: 'A', parentPhone: '9419000000', monthlyBusFee: '0', enrollmentDate: CURRENT.from });
  expect(added.statusCode, added.body).toBe(201);
  const student = added.json() as { id: string };
  const entry = (month: string) => ({ month, year: 2026, tuitionFee: '100', tuitionDate: TODAY, busFee: null, busDate: null });
  const save = await api.post('/api/monthly-fee-entries/bulk', { studentId: student.id, academicYear: CURRENT.name, entries: [entry('November'), entry('December')] });
  expect(save.statusCode, save.body).toBe(201);
  const lab = await api.post('/api/fees', { studentId: student.id, fees: [{ type: 'laboratory', amount: '750' }], paidOn: TODAY, paymentMode: 'cash' });
  expect(lab.statusCode, lab.body).toBe(201);
}, 300_000);
afterAll(() => ctx.close());

async function get(path: string): Promise<ReportDocument> {
  const res = await api.get(path);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReportDocument;
}

async function financial(from: string, to: string) {
  const res = await api.get(`/api/reports/financial?fromDate=${from}&toDate=${to}&limit=1`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { summary: Record<string, string> };
}

const paise = (v: unknown): number => paiseFromRupees(String(v));

/** Every row and the total of a table with Due and Outstanding: Due − Concession − Received = Outstanding. */
function expectIdentity(doc: ReportDocument, t: ReportTable) {
  const keys = t.columns.map((c) => c.key);
  const due = keys.find((k) => k === 'due' || k === 'expected')!;
  const received = keys.find((k) => k === 'received' || k === 'collected')!;
  const lines = [...t.rows, ...(t.totals ? [t.totals] : [])];
  expect(lines.length, `${doc.title} / ${t.title}`).toBeGreaterThan(0);
  for (const row of lines) {
    const where = `${doc.title} / ${t.title} / ${JSON.stringify(row)}`;
    const concession = row.concession === undefined ? 0 : paise(row.concession);
    expect(paise(row[due]) - concession - paise(row[received]), where).toBe(paise(row.outstanding));
  }
}

const reconcilable = (t: ReportTable) => t.columns.some((c) => c.key === 'outstanding') && t.columns.some((c) => c.key === 'due' || c.key === 'expected');
const summaryOf = (doc: ReportDocument) => new Map(doc.summary.map((s) => [s.label, s.value]));
const value = (doc: ReportDocument, label: string) => {
  const v = summaryOf(doc).get(label);
  expect(v, `${doc.title}: summary "${label}"`).toBeDefined();
  return paise(v);
};

describe('every report of the demo school reconciles', () => {
  it('every row and total with Due and Outstanding shows the Concession, and Due − Concession − Received = Outstanding', async () => {
    const docs = [
      await get('/api/reports/monthly?month=2026-11'),
      await get('/api/reports/monthly?month=2026-10'),
      await get('/api/reports/monthly?month=2026-04'),
      await get('/api/reports/monthly?month=2025-09'),
      await get('/api/reports/yearly'),
      await get(`/api/reports/yearly?academicYear=${PREVIOUS.name}`),
      await get('/api/reports/class-wise'),
      await get(`/api/reports/class-wise?academicYear=${PREVIOUS.name}`),
      await get('/api/reports/session'),
      await get(`/api/reports/session?academicYear=${PREVIOUS.name}`),
    ];
    for (const doc of docs) {
      const tables = doc.tables.filter(reconcilable);
      expect(tables.length, doc.title).toBeGreaterThan(0);
      for (const t of tables) {
        expect(t.columns.map((c) => c.key), `${doc.title} / ${t.title}`).toContain('concession');
        expectIdentity(doc, t);
      }
    }
  });

  it('the Financial report: Yearly Income is the yearly heads only; other fees and arrears have their own lines', async () => {
    const f = await financial(CURRENT.from, TODAY);
    const s = f.summary;
    expect(paise(s.totalOtherIncome)).toBe(75000);
    expect(paise(s.totalArrearsCollected)).toBeGreaterThan(0);
    expect(paise(s.totalMonthlyIncome) + paise(s.totalYearlyIncome) + paise(s.totalOtherIncome) + paise(s.totalArrearsCollected)).toBe(paise(s.totalIncome));
  });

  it('each session report’s received + advance + other fees + arrears equals the Financial report of the session’s dates', async () => {
    for (const session of [CURRENT, PREVIOUS]) {
      const income = paise((await financial(session.from, session.to)).summary.totalIncome);
      for (const kind of ['yearly', 'class-wise', 'session']) {
        const doc = await get(`/api/reports/${kind}?academicYear=${session.name}`);
        const parts = ['Received against dues', 'Received in advance', 'Other fees', 'Arrears collected'].map((l) => value(doc, l));
        expect(parts.reduce((a, b) => a + b, 0), `${doc.title}: ${parts.join(' + ')}`).toBe(income);
        expect(value(doc, 'Total received'), doc.title).toBe(income);
      }
      const ie = await get(`/api/reports/income-expense?academicYear=${session.name}`);
      expect(value(ie, 'Income')).toBe(income);
    }
    const current = await get('/api/reports/class-wise');
    expect(value(current, 'Received in advance')).toBe(10000);
    expect(value(current, 'Other fees')).toBe(75000);
  });

  it('the Monthly Report’s money of the month equals the Financial report of the month', async () => {
    for (const [month, from, to] of [['2026-11', '2026-11-01', '2026-11-30'], ['2026-06', '2026-06-01', '2026-06-30'], ['2025-09', '2025-09-01', '2025-09-30']] as const) {
      const doc = await get(`/api/reports/monthly?month=${month}`);
      const byFee = doc.tables.find((t) => t.title.startsWith('Money received in'))!;
      expect(paise(byFee.totals!.amount), doc.title).toBe(paise((await financial(from, to)).summary.totalIncome));
    }
  });

  it('the Pending Fees list adds up per student and to the outstanding balance of the school stats', async () => {
    const doc = await get('/api/reports/pending-fees');
    const t = doc.tables[0]!;
    for (const row of [...t.rows, t.totals!]) {
      expect(paise(row.monthly) + paise(row.yearly) + paise(row.previous), JSON.stringify(row)).toBe(paise(row.total));
    }
    const stats = (await api.get('/api/stats/school')).json() as { pendingFees: string };
    expect(paise(t.totals!.total)).toBe(paise(stats.pendingFees));
  });
});

describe('the session reports read the running balances, not the ledger (decision 0041)', () => {
  it('a figure changed in the stored balance is what the Class-wise, Session, Yearly and Monthly reports show', async () => {
    const db = ctx.database.db;
    const [who] = rowsOf<{ id: string; school_id: string }>(await db.execute(sql`select id, school_id from students where name = 'Ruhaan Mir'`));
    const report = { db, schoolId: who!.school_id, schoolName: 'Reconcile Public School', today: TODAY, generatedAt: ctx.clock.now().toISOString() };
    const class5 = (doc: ReportDocument, title: string) => {
      const t = doc.tables.find((x) => x.title.startsWith(title));
      const row = t?.rows.find((r) => Object.values(r).includes('Class 5'));
      expect(row, `${doc.title} / ${title}: Class 5`).toBeDefined();
      return row!;
    };
    const november = (doc: ReportDocument) => {
      const row = doc.tables.flatMap((t) => t.rows).find((r) => r.month === 'November 2026');
      expect(row, `${doc.title}: November 2026`).toBeDefined();
      return row!;
    };
    const read = async () => {
      const classWise = await classWiseReport(report, {});
      const session = await sessionReport(report, {});
      const yearly = await yearlyReport(report, {});
      const monthly = await monthlyReport(report, { month: '2026-11' });
      const monthlyTable = monthly.tables.find((t) => t.columns.some((c) => c.key === 'concession'))!;
      return {
        classWise: paise(class5(classWise, classWise.tables[0]!.title).received),
        classWiseOther: value(classWise, 'Other fees'),
        session: value(session, 'Received against dues'),
        yearly: paise(november(yearly).received),
        yearlyConcession: paise(november(yearly).concession),
        monthly: paise(class5(monthly, monthlyTable.title).received),
      };
    };
    const before = await read();
    // ₹1 more received against November's tuition and ₹2 more conceded, written straight into the
    // stored row (never by the app: verify-ledger would report it). The ledger is unchanged, so a
    // report that read the receipt lines would not move.
    const bump = (column: string, paise: number) =>
      sql.raw(`array(select case when i >= 8 then v + ${paise} else v end from unnest(${column}) with ordinality as t(v, i) order by i)`);
    await db.execute(sql`
      update student_session_balances
      set monthly_applied = ${bump('monthly_applied', 100)}, monthly_discount = ${bump('monthly_discount', 200)}
      where student_id = ${who!.id} and session_id = (select id from academic_sessions where school_id = ${who!.school_id} and name = ${CURRENT.name})`);
    const after = await read();
    expect(after.classWise - before.classWise).toBe(100);
    expect(after.session - before.session).toBe(100);
    // what the dues took is no longer "other": the session's money still adds up
    expect(after.classWiseOther - before.classWiseOther).toBe(-100);
    expect(after.yearly - before.yearly).toBe(100);
    expect(after.yearlyConcession - before.yearlyConcession).toBe(200);
    expect(after.monthly - before.monthly).toBe(100);
  });
});


interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** Every node of the statement's executed plan (EXPLAIN ANALYZE), in plan order. */
async function executedPlan(statement: SQL): Promise<PlanNode[]> {
  const [row] = rowsOf<{ 'QUERY PLAN': unknown }>(await ctx.database.db.execute(sql`explain (analyze, format json) ${statement}`));
  const raw = row!['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>;
  const nodes: PlanNode[] = [];
  const walk = (node: PlanNode) => {
    nodes.push(node);
    node.Plans?.forEach(walk);
  };
  walk(plan[0]!.Plan);
  return nodes;
}

describe('each session report statement works out its students once', () => {
  /** Every scan of the session balances in the statement's executed plan, with how often it ran. */
  async function balanceScans(statement: SQL) {
    return (await executedPlan(statement)).filter((n) => n['Relation Name'] === 'student_session_balances').map((n) => n['Actual Loops'] ?? 0);
  }

  // pos is not materialized: joined back to itself it was worked out twice, and when PostgreSQL
  // misjudged a small school's rows it nested the two (a 2,000-student class-wise report took 37 s)
  it('the class-wise and session reports, and the yearly months and heads, scan the session balances once', async () => {
    const [s] = rowsOf<{ school_id: string; id: string }>(
      await ctx.database.db.execute(sql`select school_id, id from academic_sessions where name = ${CURRENT.name} and school_id = (select school_id from students where name = 'Ruhaan Mir')`),
    );
    const keys = sessionMonths(CURRENT.from, CURRENT.to).map((m) => m.key);
    for (const [what, statement] of [
      ['class-wise', sessionByClassStatement(s!.school_id, s!.id, '2026-11', true)],
      ['session', sessionByClassStatement(s!.school_id, s!.id, '2027-03', false)],
      ['yearly months', yearlyMonthsStatement(s!.school_id, s!.id, '2026-11', keys)],
      ['yearly heads', yearlyHeadsStatement(s!.school_id, s!.id, '2026-11')],
    ] as const) {
      expect(await balanceScans(statement), what).toEqual([1]);
    }
  });
});

describe("the arrears collected in a session's dates", () => {
  // the Class-wise report sums them on every build: read off the lines by payment date, the sum
  // went through every line of the year and kept the arrears (1.2 s at 60,000 students, decision 0060)
  it('reads the arrears lines alone, not every line of the dates', async () => {
    const [s] = rowsOf<{ school_id: string }>(await ctx.database.db.execute(sql`select school_id from students where name = 'Ruhaan Mir'`));
    const schoolId = s!.school_id;
    const [counts] = rowsOf<{ lines: number; arrears: number; amount: string }>(
      await ctx.database.db.execute(sql`
        select count(*)::int as lines,
               (count(*) filter (where head in ('previous_balance', 'opening_balance')))::int as arrears,
               coalesce(sum(amount_paise) filter (where head in ('previous_balance', 'opening_balance')
                 and not exists (select 1 from receipts r where r.id = receipt_id and r.status = 'cancelled')), 0)::text as amount
        from receipt_lines where school_id = ${schoolId} and paid_on between ${CURRENT.from}::date and ${CURRENT.to}::date`),
    );
    expect(counts!.lines).toBeGreaterThan(100);
    const statement = sql`select ${arrearsCollected(schoolId, CURRENT.from, CURRENT.to)}::text as amount`;
    const [got] = rowsOf<{ amount: string }>(await ctx.database.db.execute(statement));
    expect(got!.amount).toBe(counts!.amount);
    const read = (await executedPlan(statement))
      .filter((n) => n['Relation Name'] === 'receipt_lines')
      .reduce((sum, n) => sum + ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0)) * (n['Actual Loops'] ?? 1), 0);
    expect(read).toBeLessThanOrEqual(counts!.arrears);
  });
});

