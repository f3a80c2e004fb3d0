import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRoster } from '../demo/generate';
import { seedSession } from '../fees/test-fixtures';
import { rowsOf } from '../lib/sql-rows';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { schoolDuplicates, schoolDuplicatesSql, type CandidateRow } from './duplicates';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
});
afterAll(() => ctx.close());

/**
 * Decision 0110: an import checks each batch for duplicates again under its lock. The check read
 * every student of the classes its rows named and normalised each one's name, so a batch spanning
 * every class read the whole school, batch after batch (50 batches of a 5,000-row file). Now each
 * row's key is found through an index on the same expression.
 */
describe("an import batch's duplicate check in a school of 2,000", () => {
  it('reads only the students whose name, father and class match, through the key index', async () => {
    const db = ctx.database.db;
    const school = await signUpSchool(ctx);
    const session = await seedSession(db, { schoolId: school.schoolId });
    await insertRoster(db, { schoolId: school.schoolId, sessionId: session.id, from: 1, to: 2_000, count: 2_000, enrolledOn: session.startDate });
    await db.execute(sql`analyze students`);
    const known = rowsOf<{ name: string; father_name: string; class_name: string; section: string }>(
      await db.execute(sql`select name, father_name, class_name, section from students where school_id = ${school.schoolId} and admission_number in ('ADM-000007', 'ADM-001234', 'ADM-001999') order by admission_number`),
    );
    expect(known).toHaveLength(3);
    // the file writes the names as a clerk would: another case, spaces doubled, a space at the end
    const rows: CandidateRow[] = [
      ...known.map((k, i) => ({ row: i + 2, name: `  ${k.name.toUpperCase().replace(' ', '  ')} `, fatherName: k.father_name.toLowerCase(), class: k.class_name, aadhaarHash: null })),
      // the same name and class with another father is someone else
      { row: 5, name: known[0]!.name, fatherName: 'Harbhajan Lal Trivedi', class: known[0]!.class_name, aadhaarHash: null },
      { row: 6, name: 'Someone New', fatherName: 'Nobody Known', class: 'Class 3', aadhaarHash: null },
    ];

    const found = await schoolDuplicates(db, { schoolId: school.schoolId, rows });
    const counts = await Promise.all(
      known.map(async (k) =>
        rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from students where school_id = ${school.schoolId} and name = ${k.name} and father_name = ${k.father_name} and class_name = ${k.class_name}`))[0]!.n,
      ),
    );
    expect([...found.keys()].sort()).toEqual([2, 3, 4]);
    expect([2, 3, 4].map((r) => found.get(r)!.length)).toEqual(counts);
    expect(found.get(2)!.map((m) => `${m.rule} ${m.name} ${m.class}-${m.section}`)).toContain(`name-father-class ${known[0]!.name} ${known[0]!.class_name}-${known[0]!.section}`);

    const plan = rowsOf<{ 'QUERY PLAN': string }>(await db.execute(sql`explain (analyze, costs off, timing off) ${schoolDuplicatesSql(school.schoolId, rows)}`))
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).toMatch(/Index Scan on students_school_duplicate_key_idx|Index Scan using students_school_duplicate_key_idx/);
    // no student was read only to be dropped
    const removed = [...plan.matchAll(/Rows Removed by (?:Filter|Index Recheck): (\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(removed).toBe(0);
  });
});
