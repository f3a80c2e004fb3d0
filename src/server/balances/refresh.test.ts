import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

interface PlanNode {
  'Node Type': string;
  Plans?: PlanNode[];
}
