import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSession, seedStructure, seedStudents } from '../fees/test-fixtures';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { backfillBalances } from './backfill';
import { verifySchoolBalances } from './verify';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-11-22T05:30:00.000Z') });
});
afterAll(() => ctx.close());

describe('running balances of data older than them', () => {
  it('are missing (verify-ledger says so) until the start-up backfill builds them', async () => {
    const school = await signUpSchool(ctx);
    const db = ctx.database.db;
    const session = await seedSession(db, { schoolId: school.schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31', isActive: true });
    await seedStructure(db, { schoolId: school.schoolId, className: 'Class 1', academicYear: '2026-2027', tuition: 1000 });
    const [kid] = await seedStudents(db, { schoolId: school.schoolId, sessionId: session.id, people: [{ name: 'Asha', className: 'Class 1' }] });
    const saved = await school.api.post('/api/monthly-fee-entries/bulk', {
      studentId: kid!.id, academicYear: '2026-2027', entries: [{ month: 'April', year: 2026, tuitionFee: 1000, tuitionDate: '2026-04-10' }],
    });
    expect(saved.statusCode, saved.body).toBe(201);
    // as a database migrated from before decision 0041 looks
    await db.execute(sql`delete from student_session_balances where school_id = ${school.schoolId}`);
    await db.execute(sql`delete from student_balances where school_id = ${school.schoolId}`);
    const missing = await verifySchoolBalances(db, school.schoolId);
    expect(missing.differences.map((d) => [d.field, d.stored, d.recomputed])).toEqual([
      ['row', '(missing)', 'present'],
      ['row', '(missing)', 'present'],
    ]);
    expect(await backfillBalances(db)).toBeGreaterThanOrEqual(1);
    expect((await verifySchoolBalances(db, school.schoolId)).differences).toEqual([]);
    // eight months due (April–November), April paid: ₹7,000 for the whole school
    expect((await school.api.get('/api/stats/school')).json().pendingFees).toBe('7000.00');
  });
});
