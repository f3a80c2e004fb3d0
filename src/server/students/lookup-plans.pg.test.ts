import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS5_2025, seedSession, seedStructure, seedStudents } from '../fees/test-fixtures';
import { rowsOf } from '../lib/sql-rows';
import { createTestApp, openTestDatabase, signUpSchool, type TestContext } from '../test/harness';
import { plansOf } from '../test/prepared-plans';

/**
 * Decision 0079: a lookup whose text has a digit (an admission number) always runs its statement's
 * generic plan. Under PostgreSQL's own choice ('auto') the custom plan's estimate came out a little
 * lower, so every lookup was planned again for its values: 0.5 ms of PostgreSQL's CPU an answer
 * where running it took 0.15. On ONE connection, so every lookup meets the same prepared statement.
 * PostgreSQL only: the embedded database keeps no named statements.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z'), database: await openTestDatabase({ max: 1 }) });
});
afterAll(() => ctx.close());

/** A new school with twelve Class 5 students named `prefix` and a number (`digits` wide). */
async function schoolOfTwelve(prefix: string, digits = 1) {
  const school = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  const people = Array.from({ length: 12 }, (_, i) => ({ name: `${prefix} ${String(i).padStart(digits, '0')}`, className: 'Class 5', busFee: 0 }));
  await seedStudents(db, { schoolId: school.schoolId, sessionId: session.id, people });
  return { school, db };
}

describe('the lookup by admission number', () => {
  it('is never planned for its values, and finds the student each time', async () => {
    const { school, db } = await schoolOfTwelve('Plan Check');
    const numbers = rowsOf<{ name: string; admission_number: string }>(
      await db.execute(sql`
        update students set admission_number = 'ADM-' || lpad(substring(name from '[0-9]+$'), 4, '0')
        where school_id = ${school.schoolId} returning name, admission_number`),
    );
    expect(numbers.length).toBeGreaterThanOrEqual(8);
    for (const { name, admission_number } of numbers.slice(0, 8)) {
      const found = await school.api.get(`/api/students?q=${encodeURIComponent(admission_number)}`);
      expect(found.json().map((s: { name: string }) => s.name)).toEqual([name]);
    }
    expect(await plansOf(db, { like: ['%lower(s.admission_number) = lower(%', '%limit%'] })).toEqual({ generic: 8, custom: 0, statements: 1 });
  });
});

describe('the lookup by name', () => {
  /**
   * Decision 0092: a lookup by a text without a digit is planned for its text each run (decision
   * 0057), but only the finding of its page's ids: the rows of those ids come from one statement on
   * its generic plan. Planned whole, each lookup planned the joins and the JSON of its rows again.
   */
  it('plans only the finding of its students each run; their rows come from one statement planned once', async () => {
    const { school, db } = await schoolOfTwelve('Name Check', 2);
    const everyone = Array.from({ length: 12 }, (_, i) => `${i + 1} Name Check ${String(i).padStart(2, '0')}, Class 5`);
    // seven texts without a digit, each in every name
    for (const q of ['name', 'check', 'name check', 'ame', 'CHEC', 'e ch', 'heck']) {
      const found = await school.api.get(`/api/students?q=${encodeURIComponent(q)}`);
      expect(found.json().map((s: { name: string; class: string; rollNumber: number }) => `${s.rollNumber} ${s.name}, ${s.class}`)).toEqual(everyone);
    }
    expect((await school.api.get('/api/students?q=nobody')).json()).toEqual([]);
    // the finding: never a named statement (planned for each text; a text with a digit has its own, above)
    expect(await plansOf(db, { like: ['%ilike%'], notLike: ['%found as materialized%'] })).toEqual({ generic: 0, custom: 0, statements: 0 });
    // the rows: one statement, eight runs, each on its generic plan
    expect(await plansOf(db, { like: ['%::uuid[])%', '%list_tail%'], notLike: ['%student_enrollments%'] })).toEqual({ generic: 8, custom: 0, statements: 1 });
  });
});

describe('the students page', () => {
  /**
   * Decision 0081: a page is cut off the class-order index into an array of ids, and only those rows
   * are read and joined, so one plan serves every limit and offset. PostgreSQL's own choice planned
   * each page for its values (a known limit made a custom plan's estimate lower), and a generic plan
   * of the page joined as a subquery read every student of the school.
   */
  it('is never planned for its values, and every page holds the rows of its place in the list', async () => {
    const { school, db } = await schoolOfTwelve('Page Check', 2);
    const all = (await school.api.get('/api/students?limit=100')).json().map((s: { name: string; rollNumber: number }) => `${s.rollNumber} ${s.name}`);
    expect(all).toHaveLength(12);
    expect(all.map((line: string) => Number(line.split(' ')[0]))).toEqual([...Array(12).keys()].map((k) => k + 1));
    for (let offset = 0; offset < 8; offset++) {
      const page = await school.api.get(`/api/students?limit=3&offset=${offset}`);
      expect(page.json().map((s: { name: string; rollNumber: number }) => `${s.rollNumber} ${s.name}`)).toEqual(all.slice(offset, offset + 3));
    }
    // the first list (limit 100) and the eight pages: one statement, nine runs, each on the generic plan
    expect(await plansOf(db, { like: ['%array_position(%', '%limit $%'], notLike: ['%ilike%'] })).toEqual({ generic: 9, custom: 0, statements: 1 });
  });
});

describe("a named session's students page", () => {
  /**
   * Decision 0084: a generic plan guessed a session of an average school and sorted every enrollment
   * of the session for each page (85–140 ms at 60,000 students); the list of a named session across
   * classes is planned for its school each run (an unnamed statement), and walks
   * student_enrollments_school_session_class_order_idx to its page.
   */
  it('is planned for its school each time, and its pages hold the session\'s students in class order', async () => {
    const school = await signUpSchool(ctx);
    const db = ctx.database.db;
    const session = await seedSession(db, { schoolId: school.schoolId });
    const people = Array.from({ length: 6 }, (_, i) => [
      { name: `Later ${i}`, className: 'Class 7', busFee: 0 },
      { name: `Earlier ${i}`, className: 'Class 5', busFee: 0 },
    ]).flat();
    await seedStudents(db, { schoolId: school.schoolId, sessionId: session.id, people });
    const lines = (res: { json(): Array<{ class: string; rollNumber: number; name: string }> }) => res.json().map((s) => `${s.class} ${s.rollNumber} ${s.name}`);
    const all = lines(await school.api.get(`/api/students?limit=100&academicYear=${session.name}`));
    expect(all).toEqual([
      ...[0, 1, 2, 3, 4, 5].map((i) => `Class 5 ${i + 1} Earlier ${i}`),
      ...[0, 1, 2, 3, 4, 5].map((i) => `Class 7 ${i + 1} Later ${i}`),
    ]);
    for (let offset = 0; offset < 10; offset++) {
      expect(lines(await school.api.get(`/api/students?limit=3&offset=${offset}&academicYear=${session.name}`))).toEqual(all.slice(offset, offset + 3));
    }
    // one class of the session keeps its generic plan (the roll numbers' unique index serves it)
    const fifth = lines(await school.api.get(`/api/students?limit=100&academicYear=${session.name}&class=Class%205`));
    expect(fifth).toEqual(all.slice(0, 6));
    const enrolled = ['%array_position(%', '%student_enrollments e%', '%limit $%'];
    expect(await plansOf(db, { like: [...enrolled, '%e.class_name = $%'], notLike: ['%ilike%'] })).toEqual({ generic: 1, custom: 0, statements: 1 });
    // the eleven lists across classes: never a named statement with a plan kept for every school
    expect(await plansOf(db, { like: enrolled, notLike: ['%ilike%', '%e.class_name = $%'] })).toEqual({ generic: 0, custom: 0, statements: 0 });
    const [index] = rowsOf<{ indexdef: string }>(
      await db.execute(sql`select indexdef from pg_indexes where indexname = 'student_enrollments_school_session_class_order_idx'`),
    );
    expect(index?.indexdef).toMatch(/\(school_id, session_id, COALESCE\(array_position\(.*class_name\), 99\), section, roll_number, student_id\)/);
  });
});
