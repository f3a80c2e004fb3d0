import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studentEnrollments } from '../db/schema';
import { seedSession, seedStructure, seedStudents } from '../fees/test-fixtures';
import { rowsOf } from '../lib/sql-rows';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import type { ComputedBalances } from './compute';
import { balanceWrites, rebuildSchoolBalances, WRITE_CHUNK } from './refresh';
import { verifySchoolBalances } from './verify';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-11-22T06:00:00.000Z') });
});
afterAll(() => ctx.close());

describe('writing the running balances of a whole school', () => {
  it('writes every row when there are more than one statement carries, and each equals the ledger', async () => {
    // a rollover of 60,000 students refreshes 180,000 rows: as one JSON array that passed jsonb's
    // 256 MB limit, so rows go in chunks; here one chunk and one row more
    const db = ctx.database.db;
    const { schoolId } = await signUpSchool(ctx, { schoolName: 'Chunked Public School' });
    const session = await seedSession(db, { schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31', isActive: true });
    await seedStructure(db, { schoolId, academicYear: '2026-2027', className: 'Class 5', tuition: 1500, yearly: 5000, exam: 800, books: 2500, uniform: 1800, misc: 400 });
    const count = WRITE_CHUNK + 1;
    await seedStudents(db, { schoolId, sessionId: session.id, people: Array.from({ length: count }, (_, k) => ({ name: `Student ${k + 1}`, className: 'Class 5', section: k % 2 ? 'A' : 'B' })) });
    await rebuildSchoolBalances(db, schoolId);
    const [rows] = rowsOf<{ n: number; owed: string }>(
      await db.execute(sql`select count(*)::int as n, sum(monthly_owed[8])::text as owed from student_session_balances where school_id = ${schoolId} and session_id = ${session.id}`),
    );
    expect(rows!.n).toBe(count);
    // April to November of ₹1,500 for every student, none paid
    expect(Number(rows!.owed)).toBe(count * 8 * 150_000);
    const [students] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from student_balances where school_id = ${schoolId}`));
    expect(students!.n).toBe(count);
    const check = await verifySchoolBalances(db, schoolId);
    expect(check.differences).toEqual([]);
  }, 240_000);

  it('finds the stale rows in one scan of the school\'s rows, with no join a wrong estimate could turn into loops', async () => {
    // a school's first rollover just after its rows were written: statistics taken while the table
    // held none of them. As a semi-join and an anti-join over unnest, this delete was planned as
    // nested loops (116,000 kept pairs scanned again for every row) and ran for over 20 minutes.
    const db = ctx.database.db;
    const { schoolId } = await signUpSchool(ctx, { schoolName: 'Fresh Statistics School' });
    await db.execute(sql`analyze student_session_balances`);
    const sessionId = randomUUID();
    const ids = Array.from({ length: 20_000 }, () => randomUUID());
    const computed = { sessions: ids.map((studentId) => ({ studentId, sessionId })), students: [] } as unknown as ComputedBalances;
    const { stale } = balanceWrites(schoolId, ids, computed, [sessionId]);
    const [plan] = rowsOf<Record<string, unknown>>(await db.execute(sql`explain (format json) ${stale}`));
    const text = Object.values(plan!)[0];
    const tree = (typeof text === 'string' ? JSON.parse(text) : text) as Array<{ Plan: PlanNode }>;
    const kinds: string[] = [];
    const walk = (node: PlanNode) => {
      kinds.push(node['Node Type']);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(tree[0]!.Plan);
    expect(kinds.filter((k) => /Join|Nested Loop|Function Scan/.test(k)), kinds.join(' > ')).toEqual([]);
    expect(kinds[0]).toBe('ModifyTable');
  });
});

describe('a payment stores the running balances it changed, and only those (decision 0085)', () => {
  /** Each balance row of the student with its row version (`xmin`): a row written again has a new one. */
  async function versions(schoolId: string, studentId: string) {
    const db = ctx.database.db;
    const sessions = rowsOf<{ name: string; xmin: string; received: string }>(
      await db.execute(sql`
        select s.name, b.xmin::text as xmin, b.monthly_received::text as received
        from student_session_balances b join academic_sessions s on s.id = b.session_id
        where b.school_id = ${schoolId} and b.student_id = ${studentId} order by s.name`),
    );
    const [student] = rowsOf<{ xmin: string }>(await db.execute(sql`select xmin::text as xmin from student_balances where school_id = ${schoolId} and student_id = ${studentId}`));
    return { sessions, student: student!.xmin };
  }

  it("writes the session paid into, not the student's other sessions or their whole-student row", async () => {
    const db = ctx.database.db;
    const school = await signUpSchool(ctx, { schoolName: 'Unchanged Rows School' });
    const { schoolId } = school;
    const before = await seedSession(db, { schoolId, name: '2025-2026', startDate: '2025-04-01', endDate: '2026-03-31', isActive: false });
    const current = await seedSession(db, { schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31', isActive: true });
    await seedStructure(db, { schoolId, academicYear: '2025-2026', className: 'Class 4', tuition: 1000 });
    await seedStructure(db, { schoolId, academicYear: '2026-2027', className: 'Class 5', tuition: 1500 });
    const [student] = await seedStudents(db, { schoolId, sessionId: current.id, people: [{ name: 'Ira Kaul', className: 'Class 5' }] });
    await db.insert(studentEnrollments).values({ schoolId, studentId: student!.id, sessionId: before.id, className: 'Class 4', section: 'A', rollNumber: 1 });
    await rebuildSchoolBalances(db, schoolId);
    const first = await versions(schoolId, student!.id);
    expect(first.sessions.map((r) => [r.name, r.received])).toEqual([
      ['2025-2026', '0'],
      ['2026-2027', '0'],
    ]);

    const paid = await school.api.post('/api/fees', { studentId: student!.id, fees: [{ type: 'monthly', amount: '1500' }], paymentMode: 'cash', clientId: 'unchanged-rows-1' });
    expect(paid.statusCode, paid.body).toBe(201);

    const then = await versions(schoolId, student!.id);
    // the session paid into holds the ₹1,500 in a new version of its row ...
    expect(then.sessions.map((r) => [r.name, r.received])).toEqual([
      ['2025-2026', '0'],
      ['2026-2027', '150000'],
    ]);
    expect(then.sessions[1]!.xmin).not.toBe(first.sessions[1]!.xmin);
    // ... and the rows the payment did not change are the very rows stored before
    expect(then.sessions[0]!.xmin).toBe(first.sessions[0]!.xmin);
    expect(then.student).toBe(first.student);
    expect((await verifySchoolBalances(db, schoolId)).differences).toEqual([]);
  });
});

describe("the running balances keep room on their pages for a row's next version (decision 0085)", () => {
  it("a payment's new session row stays on the page of the row it replaces", async () => {
    const db = ctx.database.db;
    const school = await signUpSchool(ctx, { schoolName: 'Room To Update School' });
    const { schoolId } = school;
    const session = await seedSession(db, { schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31', isActive: true });
    await seedStructure(db, { schoolId, academicYear: '2026-2027', className: 'Class 5', tuition: 1500, yearly: 5000, exam: 800, books: 2500, uniform: 1800, misc: 400 });
    await seedStudents(db, { schoolId, sessionId: session.id, people: Array.from({ length: 60 }, (_, k) => ({ name: `Student ${k + 1}`, className: 'Class 5' })) });
    await rebuildSchoolBalances(db, schoolId);
    const pages = async () =>
      new Map(
        rowsOf<{ student_id: string; page: number }>(
          await db.execute(sql`select student_id, (ctid::text::point)[0]::int as page from student_session_balances where school_id = ${schoolId}`),
        ).map((r) => [r.student_id, r.page]),
      );
    const placed = await pages();
    // the first student of each page pays: on a page filled to the brim the new version went to another page
    const firstOnPage = new Map<number, string>();
    for (const [studentId, page] of placed) if (!firstOnPage.has(page)) firstOnPage.set(page, studentId);
    expect(firstOnPage.size).toBeGreaterThan(3);
    for (const [page, studentId] of firstOnPage) {
      const paid = await school.api.post('/api/fees', { studentId, fees: [{ type: 'monthly', amount: '1500' }], paymentMode: 'cash', clientId: `room-${page}` });
      expect(paid.statusCode, paid.body).toBe(201);
    }
    const now = await pages();
    expect([...firstOnPage.values()].map((studentId) => [studentId, now.get(studentId)])).toEqual([...firstOnPage].map(([page, studentId]) => [studentId, page]));
  });
});

interface PlanNode {
  'Node Type': string;
  Plans?: PlanNode[];
}
