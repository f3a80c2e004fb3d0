import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRoster } from '../demo/generate';
import { seedSession } from '../fees/test-fixtures';
import { rowsOf } from '../lib/sql-rows';
import { createTestApp, openTestDatabase, signUpSchool, type TestContext } from '../test/harness';

/**
 * A database of its own: the plan PostgreSQL picks depends on what the table holds, here two
 * schools of 2,000 students. On ONE connection, so the lookups and the plan read below meet the same
 * prepared statement. PostgreSQL only: the embedded database keeps no named statements.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z'), database: await openTestDatabase({ max: 1 }) });
});
afterAll(() => ctx.close());

describe('the lookup by admission number in a school of 2,000 with its passed-out students', () => {
  /**
   * Decision 0087: the generic plan of the lookup cut its page with `order by … limit $5`, so the
   * planner, guessing a few matches spread through an average school, walked the school's class-order
   * index and tested every student's name against the pattern, expecting to stop early. A lookup by
   * admission number matches one student, so the walk read the whole school (4.7 ms at 2,000 where
   * the two indexes answer in 0.1 ms). It happened once the table was vacuumed (index-only scans look
   * cheap) and held two statuses (half a school each): every school a year after its first rollover.
   */
  it('reads its students through the admission and name indexes, not a walk of the school', async () => {
    const db = ctx.database.db;
    const schools = [];
    for (let k = 0; k < 2; k++) {
      const school = await signUpSchool(ctx);
      const session = await seedSession(db, { schoolId: school.schoolId });
      await insertRoster(db, { schoolId: school.schoolId, sessionId: session.id, from: 1, to: 2_000, count: 2_000, enrolledOn: session.startDate });
      schools.push(school);
    }
    const school = schools[1]!;
    await db.execute(sql`update students set status = 'passout' where school_id = ${school.schoolId} and admission_number > 'ADM-001900'`);
    await db.execute(sql`vacuum analyze students`);

    const [expected] = rowsOf<{ name: string }>(await db.execute(sql`select name from students where school_id = ${school.schoolId} and admission_number = 'ADM-001234'`));
    for (const q of ['ADM-001234', 'adm-001234']) {
      const found = await school.api.get(`/api/students?q=${q}`);
      expect(found.json().map((s: { name: string; admissionNumber: string }) => `${s.admissionNumber} ${s.name}`)).toEqual([`ADM-001234 ${expected!.name}`]);
    }
    // ADM-001950 has passed out here and is active only in the other school: the list of active students has no one
    expect((await school.api.get('/api/students?q=ADM-001950')).json()).toEqual([]);

    // the plan every later lookup on this connection runs: its generic plan, as the statement is run (decision 0079)
    const [prepared] = rowsOf<{ name: string; statement: string }>(
      await db.execute(sql`select name, statement from pg_prepared_statements where statement like '%lower(s.admission_number) = lower(%' and statement like '%limit%'`),
    );
    // its values in the order of its placeholders: the school, the status, the pattern, the text, the limit, the offset, the school
    expect(prepared!.statement.match(/\$\d+/g)!.map((p) => Number(p.slice(1))).reduce((a, b) => Math.max(a, b))).toBe(7);
    await db.execute(sql`set plan_cache_mode = force_generic_plan`);
    const plan = rowsOf<{ 'QUERY PLAN': string }>(
      await db.execute(
        sql.raw(`explain (analyze, costs off, timing off) execute "${prepared!.name}"('${school.schoolId}', 'active', '%ADM-001234%', 'ADM-001234', 50, 0, '${school.schoolId}')`),
      ),
    )
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    await db.execute(sql`reset plan_cache_mode`);
    expect(plan).toMatch(/Bitmap Index Scan on students_school_admission_lower_idx/);
    expect(plan).toMatch(/Bitmap Index Scan on students_school_name_trgm_idx/);
    // no student was read only to be dropped: the walk removed the other 1,899 by its filter
    const removed = [...plan.matchAll(/Rows Removed by Filter: (\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(removed).toBe(0);
  });
});
