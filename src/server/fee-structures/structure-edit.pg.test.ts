import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySchoolBalances } from '../balances/verify';
import { lockSchoolLedger } from '../fees/locks';
import { seedSession, seedStructure, seedStudents } from '../fees/test-fixtures';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { lockWaiters, until } from '../test/races';

/**
 * Two edits of one fee structure at once, each moving it to another class. Each refreshes the
 * running balances of the class the structure had and the class it gets; the second must see the
 * class the first gave it, or that class's students keep fees no structure charges any more.
 * Both edits are held at the school's ledger lock, which the test holds. PostgreSQL only: the
 * embedded database runs one statement at a time.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let structureId: string;
let sixth: string;
let seventh: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-05-22T06:00:00.000Z') });
  school = await signUpSchool(ctx, { selectedPlan: 'premium' });
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  structureId = (await seedStructure(db, { schoolId: school.schoolId, className: 'Class 5', tuition: 1000 })).id;
  const rows = await seedStudents(db, {
    schoolId: school.schoolId,
    sessionId: session.id,
    people: [
      { name: 'Kabir Lone', className: 'Class 6' },
      { name: 'Sana Wani', className: 'Class 7' },
    ],
  });
  [sixth, seventh] = rows.map((r) => r.id) as [string, string];
});
afterAll(() => ctx.close());

const waiting = (event: string) => lockWaiters(ctx.database.db, [event]);


describe('a fee structure moved to two classes at once', () => {
  it('charges only the class it ends in, on fee status and on the school figures alike', async () => {
    const body = (className: string) => ({ className, academicYear: '2025-2026', monthlyTuitionFee: '1000', yearlyFee: '0', examFee: '0', booksFee: '0', uniformFee: '0', miscFee: '0' });
    const answers: Array<{ statusCode: number; body: string }> = [];
    await ctx.database.db.transaction(async (tx) => {
      await lockSchoolLedger(tx, { schoolId: school.schoolId });
      void school.api.put(`/api/class-fee-structures/${structureId}`, body('Class 6')).then((r) => answers.push(r));
      await until(async () => (await waiting('advisory')) === 1);
      void school.api.put(`/api/class-fee-structures/${structureId}`, body('Class 7')).then((r) => answers.push(r));
      // the second waits for the lock too, or (the code before) for the first's row of the structure
      await until(async () => (await waiting('advisory')) + (await waiting('transactionid')) === 2);
    });
    await until(async () => answers.length === 2);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);

    const list = (await school.api.get('/api/class-fee-structures')).json();
    expect((Array.isArray(list) ? list : list.structures).map((s: { className: string }) => s.className)).toEqual(['Class 7']);
    const outstanding = async (id: string) => (await school.api.get(`/api/students/${id}/fee-status`)).json().ledger.outstandingTillDate;
    // April and May of Class 7's ₹1,000; Class 6 has no structure left, so nothing is due there
    expect(await outstanding(seventh)).toBe('2000.00');
    expect(await outstanding(sixth)).toBe('0.00');
    expect((await school.api.get('/api/stats/school')).json().pendingFees).toBe('2000.00');
    expect((await verifySchoolBalances(ctx.database.db, school.schoolId)).differences).toEqual([]);
  });
});
