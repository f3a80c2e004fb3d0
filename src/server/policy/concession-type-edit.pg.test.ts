import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySchoolBalances } from '../balances/verify';
import { createTestApp, type signUpSchool, type TestContext } from '../test/harness';
import { lockWaiters, schoolWithOneStudent, until } from '../test/races';

/**
 * An edit of a concession type changes the figures of every approved concession of that type, so it
 * refreshes those students' running balances. An approval of that type still in flight when the
 * edit looked for them had read the type's old figures: unless the edit waits for it, that student
 * keeps balances at the old rate while fee status computes the new one.
 *
 * The approval is held at its write of the running balances by a lock the test takes on that table,
 * after it has read the type. PostgreSQL only: the embedded database runs one statement at a time.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let studentId: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-05-22T06:00:00.000Z') });
  ({ school, studentId } = await schoolWithOneStudent(ctx));
});
afterAll(() => ctx.close());

const waiting = (event: 'relation' | 'advisory') => lockWaiters(ctx.database.db, [event]);

describe('a concession type edited while a concession of it is being approved', () => {
  it('leaves the student at the new rate on fee status and on the school figures alike', async () => {
    const type = (await school.api.post('/api/concession-types', { name: 'Sibling', kind: 'percent', value: '10', heads: ['tuition'] })).json();
    const asked = await school.api.post('/api/concessions', { studentId, typeId: type.id, academicYear: '2025-2026', fromMonth: '2025-04', reason: 'Elder sister in Class 8' });
    expect(asked.statusCode, asked.body).toBe(201);

    let approved: { statusCode: number; body: string } | undefined;
    let edited: { statusCode: number; body: string } | undefined;
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table student_session_balances in share mode`);
      void school.api.post(`/api/concessions/${asked.json().id}/approve`, { reason: 'Checked' }).then((r) => (approved = r));
      // the approval has read the type at 10% and stands at its write of the balances
      await until(async () => (await waiting('relation')) === 1);
      expect(approved).toBeUndefined();
      void school.api.put(`/api/concession-types/${type.id}`, { name: 'Sibling', kind: 'percent', value: '20', heads: ['tuition'] }).then((r) => (edited = r));
      // the edit either answers, or waits for the approval to finish
      await until(async () => edited !== undefined || (await waiting('advisory')) === 1);
    });
    await until(async () => approved !== undefined && edited !== undefined);
    expect(approved?.statusCode, approved?.body).toBe(200);
    expect(edited?.statusCode, edited?.body).toBe(200);

    // 20% of ₹1,500 for April and May: ₹600 granted, ₹2,400 outstanding, wherever it is read
    const status = (await school.api.get(`/api/students/${studentId}/fee-status`)).json();
    expect(status.account.tillDate.granted).toBe('600.00');
    expect(status.ledger.outstandingTillDate).toBe('2400.00');
    const stats = (await school.api.get('/api/stats/school')).json();
    expect(stats.pendingFees).toBe('2400.00');
    expect((await verifySchoolBalances(ctx.database.db, school.schoolId)).differences).toEqual([]);
  });
});
