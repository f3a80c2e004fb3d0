import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studentEnrollments, studentSessionBalances } from '../db/schema';
import { seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import { readAtOnce } from '../lib/read-at-once';
import { rowsOf } from '../lib/sql-rows';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { balanceInputReads, loadBalanceInputs } from './inputs';
import { verifySchoolBalances } from './verify';

/**
 * Decision 0093: a save reads the structures of its student's classes, every year's, not the whole
 * school's (45 rows at 15 classes and three years, 18 KB of a fee payment's 40 KB read), and the
 * balances it writes are still those the whole school's inputs give.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let sara: string;
let kabir: string;
let lastYear: string;
let thisYear: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  const db = ctx.database.db;
  const schoolId = school.schoolId;
  lastYear = (await seedSession(db, { schoolId, name: '2024-2025', startDate: '2024-04-01', endDate: '2025-03-31', isActive: false })).id;
  thisYear = (await seedSession(db, { schoolId, name: '2025-2026' })).id;
  // last year's Class 4 typed as an old register import left it; Class 5 in both years; two classes no one here sits in
  await seedStructure(db, { schoolId, className: ' class 4 ', academicYear: '2024-2025', tuition: 1000 });
  await seedStructure(db, { schoolId, className: 'Class 5', academicYear: '2024-2025', tuition: 1100 });
  await seedStructure(db, { schoolId, className: 'Class 5', academicYear: '2025-2026', tuition: 1500 });
  await seedStructure(db, { schoolId, className: 'Class 6', academicYear: '2025-2026', tuition: 1800 });
  await seedStructure(db, { schoolId, className: 'Class 8', academicYear: '2025-2026', tuition: 2200 });
  sara = (await seedStudent(db, { schoolId, sessionId: thisYear, name: 'Sara Khan', className: 'Class 5' })).id;
  kabir = (await seedStudent(db, { schoolId, sessionId: thisYear, name: 'Kabir Das', className: 'Class 6' })).id;
  // Sara sat in Class 4 last year
  await db.insert(studentEnrollments).values({ schoolId, studentId: sara, sessionId: lastYear, className: 'Class 4', section: 'A', rollNumber: 3 });
});
afterAll(() => ctx.close());

const structuresOf = (rows: ReadonlyArray<{ className: string; academicYear: string }>) => rows.map((s) => `${s.className.trim()} ${s.academicYear}`).sort();

describe('the structures a few students’ balances are computed from', () => {
  it('are every year’s of the classes the student sat in and sits in, in any spelling, and no other class’s', async () => {
    const rows = await readAtOnce(ctx.database.db, balanceInputReads({ schoolId: school.schoolId, studentIds: { one: sara } }));
    expect(structuresOf(rows.structures)).toEqual(['Class 5 2024-2025', 'Class 5 2025-2026', 'class 4 2024-2025']);
  });

  it('are those of each student’s classes for a set of students, and the whole school’s for a school', async () => {
    const db = ctx.database.db;
    const two = await loadBalanceInputs(db, { schoolId: school.schoolId, studentIds: [sara, kabir] });
    expect(structuresOf([...two.structures.values()])).toEqual(['Class 5 2024-2025', 'Class 5 2025-2026', 'Class 6 2025-2026', 'class 4 2024-2025']);
    const all = await loadBalanceInputs(db, { schoolId: school.schoolId, studentIds: undefined });
    expect(all.structures.size).toBe(5);
  });

  it('give a payment the balances of the year it does not touch, equal to the whole school’s recomputation', async () => {
    const db = ctx.database.db;
    const paid = await school.api.post('/api/fees', { studentId: sara, fees: [{ type: 'monthly', amount: '1500' }], paymentMode: 'cash' });
    expect(paid.statusCode).toBe(201);
    const balanceOf = async (sessionId: string) => {
      const [row] = await db
        .select({ tuition: studentSessionBalances.tuitionPaise, className: studentSessionBalances.className })
        .from(studentSessionBalances)
        .where(and(eq(studentSessionBalances.schoolId, school.schoolId), eq(studentSessionBalances.studentId, sara), eq(studentSessionBalances.sessionId, sessionId)));
      return row;
    };
    // last year at Class 4's ₹1,000 a month, this year at Class 5's ₹1,500
    expect(await balanceOf(lastYear)).toEqual({ tuition: 100_000, className: 'Class 4' });
    expect(await balanceOf(thisYear)).toEqual({ tuition: 150_000, className: 'Class 5' });
    const check = await verifySchoolBalances(db, school.schoolId);
    expect(check.differences).toEqual([]);
    expect(check.rows).toBeGreaterThan(0);
    const [count] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from student_session_balances where school_id = ${school.schoolId}`));
    expect(count!.n).toBe(3);
  });
});
