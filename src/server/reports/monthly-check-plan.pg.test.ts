import { sql, type Logger } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRoster, insertSessionFees, insertStructures } from '../demo/generate';
import { seedSession } from '../fees/test-fixtures';
import { rowsOf } from '../lib/sql-rows';
import { createTestApp, openTestDatabase, signUpSchool, type TestContext } from '../test/harness';
import { firstMonthlyFeeRows } from './financial';

/**
 * A database of its own: the plan PostgreSQL picks depends on what the tables hold, here a school of
 * 1,500 students with a year of monthly fees (tens of thousands of tuition and bus lines). PostgreSQL only.
 */
const statements: Array<{ text: string; params: unknown[] }> = [];
const logger: Logger = { logQuery: (text, params) => void statements.push({ text, params }) };
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-03-31T06:00:00.000Z'), database: await openTestDatabase({ max: 1, logger }) });
});
afterAll(() => ctx.close());

describe("the financial report's first monthly rows", () => {
  /**
   * Decision 0089: the check that none of a row's lines was paid after the cut-off date probes the
   * row's student, session and month in `report_lines_session_student_idx`, which holds the payment
   * date (migration 0044), so each probe reads the index alone. Before, PostgreSQL hashed every line
   * after the cut-off (520 ms of a 60,000-student year); a probe that reads the table for each line
   * was 0.09 ms where the index alone is 0.011 ms.
   */
  it('checks each row through the session index alone, never reading a line from the table', async () => {
    const db = ctx.database.db;
    const school = await signUpSchool(ctx);
    const session = await seedSession(db, { schoolId: school.schoolId });
    await insertStructures(db, { schoolId: school.schoolId, academicYear: session.name, yearsAfterFirst: 0 });
    await insertRoster(db, { schoolId: school.schoolId, sessionId: session.id, from: 1, to: 1_500, count: 1_500, enrolledOn: session.startDate });
    await insertSessionFees(db, { schoolId: school.schoolId, session, last: 11, today: '2026-03-31' });
    await db.execute(sql`vacuum analyze receipt_lines`);

    statements.length = 0;
    const { rows, total } = await firstMonthlyFeeRows(db, { schoolId: school.schoolId, from: session.startDate, to: session.endDate, limit: 500 });
    // the first 500 rows of the year, in payment-date order: the report shows them and says there are more
    expect(rows).toHaveLength(500);
    expect(total).toBeNull();
    expect(rows[0]!.paidOn <= rows[499]!.paidOn).toBe(true);

    const check = statements.find((s) => s.text.includes('left join lateral'));
    expect(check).toBeDefined();
    const client = (db as unknown as { $client: pg.Pool }).$client;
    const plan = (await client.query(`explain (analyze, costs off, timing off) ${check!.text}`, check!.params)).rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index Only Scan using report_lines_session_student_idx on receipt_lines x/);
    // every probe answered from the index: the table's visibility map says its pages are all visible
    const fetches = [...plan.matchAll(/Heap Fetches: (\d+)/g)].map((m) => Number(m[1]));
    expect(fetches.length).toBeGreaterThan(0);
    expect(fetches.every((n) => n === 0)).toBe(true);
    expect(rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from receipt_lines where school_id = ${school.schoolId} and head in ('tuition', 'bus')`))[0]!.n).toBeGreaterThan(20_000);
  });
});
