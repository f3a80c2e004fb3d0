import { sql, TransactionRollbackError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRupees } from '../../domain/money';
import { verifySchoolBalances } from '../balances/verify';
import { rowsOf } from '../lib/sql-rows';
import { uuidArray } from '../lib/sql-sets';
import { buildFixtureSchool, EXPECTED, NOW, type FixtureSchool } from '../reports/test-school';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { schoolStats } from './queries';
import { clearMarksSql, ensurePositions, verifySchoolPositions, WHOLE_SCHOOL } from './student-positions';

/**
 * Decision 0058: the whole-school figures read one stored row per student, and a write only marks
 * the students it touched. These tests follow the marks: which rows a write leaves to recompute,
 * that the next read recomputes exactly those, and that the rows then equal a build from scratch.
 */
let ctx: TestContext;
let fx: FixtureSchool;
beforeAll(async () => {
  ctx = await createTestApp({ now: NOW });
  fx = await buildFixtureSchool(ctx);
});
afterAll(() => ctx.close());

const P = (rupees: string) => parseRupees(rupees) as number;
const marks = async (schoolId: string) =>
  rowsOf<{ student_id: string }>(await ctx.database.db.execute(sql`select student_id from student_position_marks where school_id = ${schoolId} order by student_id`)).map((r) => r.student_id);
/** Each row's version (xmin): a row rewritten by a recompute gets a new one. */
const versions = async (schoolId: string) =>
  new Map(rowsOf<{ student_id: string; v: string }>(await ctx.database.db.execute(sql`select student_id, xmin::text as v from student_positions where school_id = ${schoolId}`)).map((r) => [r.student_id, r.v]));
const builtMonth = async (schoolId: string) =>
  rowsOf<{ month_key: string | null }>(await ctx.database.db.execute(sql`select month_key from school_positions where school_id = ${schoolId}`))[0]?.month_key ?? null;

describe('the whole-school rows follow every write through its marks', () => {
  it('a payment marks its student alone, and the next stats recompute that row and no other', async () => {
    const api = fx.school.api;
    const before = (await api.get('/api/stats/school')).json();
    expect(before.pendingFees).toBe(EXPECTED.pendingFees);
    expect(await builtMonth(fx.schoolId)).toBe('2026-11');
    expect(await marks(fx.schoolId)).toEqual([]);
    const rowsBefore = await versions(fx.schoolId);
    expect(rowsBefore.size).toBe(4);
    const kabirBefore = P((await api.get(`/api/students/${fx.students.kabir.id}/outstanding-fees`)).json().total);

    const paid = await api.post('/api/fees', { studentId: fx.students.kabir.id, fees: [{ type: 'monthly', amount: '250' }], paymentMode: 'cash', paidOn: '2026-11-22' });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(await marks(fx.schoolId)).toEqual([fx.students.kabir.id]);

    const after = (await api.get('/api/stats/school')).json();
    // what the school is owed moves as Kabir's own outstanding does (ruling 6: a month with a payment
    // recorded owes no more, so ₹250 of his ₹1,000 November tuition takes the whole ₹1,000 off)
    const kabirAfter = P((await api.get(`/api/students/${fx.students.kabir.id}/outstanding-fees`)).json().total);
    expect(kabirBefore - kabirAfter).toBe(100_000);
    expect(P(after.pendingFees)).toBe(P(before.pendingFees) - 100_000);
    expect(P(after.totalRevenue)).toBe(P(before.totalRevenue) + 25_000);
    expect(P(after.thisMonthIncome)).toBe(P(before.thisMonthIncome) + 25_000);
    expect(await marks(fx.schoolId)).toEqual([]);
    const rowsAfter = await versions(fx.schoolId);
    const rewritten = [...rowsAfter].filter(([id, v]) => rowsBefore.get(id) !== v).map(([id]) => id);
    expect(rewritten).toEqual([fx.students.kabir.id]);
    expect((await verifySchoolPositions(ctx.database.db, fx.schoolId, '2026-11')).differences).toEqual([]);

    // cancelling the receipt marks the student again and gives the figures back
    const cancel = await api.post(`/api/receipts/${paid.json().receipt.id}/cancel`, { reason: 'Entered against the wrong student' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await marks(fx.schoolId)).toEqual([fx.students.kabir.id]);
    const cancelled = (await api.get('/api/stats/school')).json();
    expect(cancelled.pendingFees).toBe(before.pendingFees);
    expect(cancelled.totalRevenue).toBe(before.totalRevenue);
  });

  it('a student who passes out leaves the counts, and a deleted student leaves the rows', async () => {
    const db = ctx.database.db;
    const api = fx.school.api;
    // straight to the figures: a change written in SQL does not move the data version the route caches by
    const stats = () => schoolStats(db, { schoolId: fx.schoolId, today: '2026-11-22' });
    const before = await stats();
    const meeraOwes = P((await api.get(`/api/students/${fx.students.meera.id}/outstanding-fees`)).json().total);
    expect(meeraOwes).toBeGreaterThan(0);
    await db.execute(sql`update students set status = 'passout' where school_id = ${fx.schoolId} and id = ${fx.students.meera.id}`);
    expect(await marks(fx.schoolId)).toEqual([fx.students.meera.id]);
    const after = await stats();
    expect(after.totalStudents).toBe(before.totalStudents - 1);
    // a passout is no longer counted as pending, and what they paid stays revenue
    expect(after.pendingFees).toBe(before.pendingFees - meeraOwes);
    expect(after.pendingStudents).toBe(before.pendingStudents - 1);
    expect(after.totalRevenue).toBe(before.totalRevenue);
    await db.execute(sql`update students set status = 'active' where school_id = ${fx.schoolId} and id = ${fx.students.meera.id}`);
    expect((await stats()).pendingFees).toBe(before.pendingFees);

    const added = await api.post('/api/students', { name: 'Zoya Khan', class: 'Class 1', section: 'A', fatherName: 'Imran Khan', mobileNumber: '9876543210', monthlyBusFee: '0.00' });
    expect(added.statusCode, added.body).toBe(201);
    const withZoya = (await api.get('/api/stats/school')).json();
    expect(withZoya.totalStudents).toBe(before.totalStudents + 1);
    expect((await api.delete(`/api/students/${added.json().id}`)).statusCode).toBe(200);
    const without = (await api.get('/api/stats/school')).json();
    expect(without.totalStudents).toBe(before.totalStudents);
    expect(P(without.pendingFees)).toBe(before.pendingFees);
    expect((await versions(fx.schoolId)).size).toBe(4);
    expect((await verifySchoolBalances(db, fx.schoolId)).differences).toEqual([]);
  });

  it('a change to the sessions marks the whole school, and a new month rebuilds every row for it', async () => {
    const db = ctx.database.db;
    const rowsBefore = await versions(fx.schoolId);
    await db.execute(sql`update academic_sessions set name = name where school_id = ${fx.schoolId} and id = ${fx.session.id}`);
    expect(await marks(fx.schoolId)).toEqual([WHOLE_SCHOOL]);
    await ensurePositions(db, { schoolId: fx.schoolId, month: '2026-11' });
    expect(await marks(fx.schoolId)).toEqual([]);
    const rebuilt = await versions(fx.schoolId);
    expect([...rebuilt].filter(([id, v]) => rowsBefore.get(id) === v)).toEqual([]);

    // December: the month's tuition and bus fall due, so what is owed grows by this month's fees
    const november = (await fx.school.api.get('/api/stats/school')).json();
    await ensurePositions(db, { schoolId: fx.schoolId, month: '2026-12' });
    expect(await builtMonth(fx.schoolId)).toBe('2026-12');
    expect((await verifySchoolPositions(db, fx.schoolId, '2026-12')).differences).toEqual([]);
    const [december] = rowsOf<{ owed: string; expected: string }>(
      await db.execute(sql`select sum(owed)::text as owed, sum(expected_now)::text as expected from student_positions where school_id = ${fx.schoolId}`),
    );
    expect(Number(december!.owed)).toBe(P(november.pendingFees) + Number(december!.expected));
    // and the figures of November, asked for again, build November's rows again
    expect((await schoolStats(db, { schoolId: fx.schoolId, today: '2026-11-22' })).pendingFees).toBe(P(november.pendingFees));
    expect(await builtMonth(fx.schoolId)).toBe('2026-11');
  });

  it('each row holds its line of the defaulters list, which follows an edit of the student, and verify-ledger compares it', async () => {
    const db = ctx.database.db;
    const api = fx.school.api;
    const kabir = fx.students.kabir.id;
    const line = async () =>
      rowsOf<{ list_head: string; list_tail: string; owed: string }>(
        await db.execute(sql`select list_head, list_tail, owed::text as owed from student_positions where school_id = ${fx.schoolId} and student_id = ${kabir}`),
      )[0]!;
    const defaulter = async () => {
      const doc = (await api.get('/api/reports/pending-fees')).json();
      return (doc.tables[0].rows as Array<Record<string, unknown>>).find((r) => String(r.name).startsWith('Kabir'));
    };
    await api.get('/api/stats/school');
    const stored = await line();
    // the stored text is the list's row: its fields are what the report sends for Kabir
    const shown = await defaulter();
    expect(shown).toBeDefined();
    const fromText = JSON.parse(`${stored.list_head},"monthsDue":"","fine":"0.00"${stored.list_tail}}`) as Record<string, unknown>;
    expect(fromText).toEqual({ ...shown, monthsDue: '', fine: '0.00' });
    expect(fromText.total).toBe((Number(stored.owed) / 100).toFixed(2));

    // renamed with a quote, a backslash and Devanagari: the mark recomputes the row, text and all
    const before = (await api.get(`/api/students/${kabir}`)).json();
    const renamed = 'Kabir "K" Shah \\ कबीर';
    const edited = await api.put(`/api/students/${kabir}`, { ...before, name: renamed, rollNumber: String(before.rollNumber), monthlyBusFee: Number(before.monthlyBusFee), aadharNumber: null });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await defaulter())?.name).toBe(renamed);
    expect((await line()).list_head).toContain(JSON.stringify(renamed));
    expect((await verifySchoolPositions(db, fx.schoolId, '2026-11')).differences).toEqual([]);

    // a line that no longer says what the row does is a difference verify-ledger reports
    await db.execute(sql`update student_positions set list_tail = replace(list_tail, '"total":"', '"total":"9') where school_id = ${fx.schoolId} and student_id = ${kabir}`);
    const found = (await verifySchoolPositions(db, fx.schoolId, '2026-11')).differences;
    expect(found.map((d) => [d.studentId, d.field])).toEqual([[kabir, 'list_tail']]);
    await api.put(`/api/students/${kabir}`, { ...before, rollNumber: String(before.rollNumber), monthlyBusFee: Number(before.monthlyBusFee), aadharNumber: null });
    await api.get('/api/stats/school');
    expect((await verifySchoolPositions(db, fx.schoolId, '2026-11')).differences).toEqual([]);
  });

  it('one school’s writes never mark or change another school’s rows', async () => {
    const other = await signUpSchool(ctx);
    const empty = (await other.api.get('/api/stats/school')).json();
    expect(empty.totalStudents).toBe(0);
    const paid = await fx.school.api.post('/api/fees', { studentId: fx.students.aarav.id, fees: [{ type: 'monthly', amount: '10' }], paymentMode: 'cash', paidOn: '2026-11-22' });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(await marks(other.schoolId)).toEqual([]);
    expect(await versions(other.schoolId)).toEqual(new Map());
    expect((await other.api.get('/api/stats/school')).json()).toMatchObject({ totalStudents: 0, totalRevenue: '0.00', pendingFees: '0.00' });
  });

  it('clears thousands of marks in one pass when the table’s statistics are from when it was small', async () => {
    const db = ctx.database.db;
    const other = await signUpSchool(ctx);
    await fx.school.api.get('/api/stats/school');
    // the statistics of a quiet day (a mark here and there in a few schools), then a write that marks
    // 3,000 students of one school (a rollover)
    const quiet = rowsOf<{ school_id: string }>(
      await db.execute(sql`insert into student_position_marks (school_id, student_id) select gen_random_uuid(), gen_random_uuid() from generate_series(1, 5) returning school_id`),
    ).map((r) => r.school_id);
    await db.execute(sql`analyze student_position_marks`);
    await db.execute(sql`insert into student_position_marks (school_id, student_id) select ${other.schoolId}, gen_random_uuid() from generate_series(1, 3000)`);
    const marked = (await marks(other.schoolId)).length;
    expect(marked).toBeGreaterThan(3000);
    expect(await marks(fx.schoolId)).toEqual([]);
    const fxMark = fx.students.kabir.id;
    await db.execute(sql`insert into student_position_marks (school_id, student_id) values (${fx.schoolId}, ${fxMark})`);

    interface PlanNode {
      'Node Type': string;
      'Actual Loops': number;
      'Actual Rows': number;
      Plans?: PlanNode[];
    }
    const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];
    let plan: PlanNode | undefined;
    await db
      .transaction(async (tx) => {
        const [row] = rowsOf<{ 'QUERY PLAN': unknown }>(await tx.execute(sql`explain (analyze, format json) ${clearMarksSql(other.schoolId)}`));
        const json = row?.['QUERY PLAN'];
        plan = ((typeof json === 'string' ? JSON.parse(json) : json) as Array<{ Plan: PlanNode }>)[0]!.Plan;
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    // every mark is read and locked once: no part of the plan runs again for each mark
    expect(plan!['Actual Rows']).toBe(marked);
    expect(nodes(plan!).filter((n) => n['Actual Loops'] > 1).map((n) => `${n['Node Type']} ×${n['Actual Loops']}`)).toEqual([]);

    // and it clears that school's marks alone
    const cleared = rowsOf<{ student_id: string }>(await db.execute(clearMarksSql(other.schoolId)));
    expect(cleared).toHaveLength(marked);
    expect(await marks(other.schoolId)).toEqual([]);
    expect(await marks(fx.schoolId)).toEqual([fxMark]);
    await ensurePositions(db, { schoolId: fx.schoolId, month: '2026-11' });
    expect(await marks(fx.schoolId)).toEqual([]);
    expect((await verifySchoolPositions(db, fx.schoolId, '2026-11')).differences).toEqual([]);
    await db.execute(sql`delete from student_position_marks where school_id = any(${uuidArray(quiet)}::uuid[])`);
  });
});
