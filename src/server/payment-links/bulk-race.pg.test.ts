import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentLinks } from '../db/schema';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { lockWaiters, until } from '../test/races';

/**
 * "One outstanding link per student with dues (an active link for the same amount is reused)":
 * also when the bulk action is pressed twice at once. Both requests are held at their insert by a
 * lock the test takes on the links table. PostgreSQL only: the embedded database runs one
 * statement at a time.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let studentId: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx, { selectedPlan: 'premium' });
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  studentId = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Ishaan Mir', className: 'Class 5' })).id;
});
afterAll(() => ctx.close());

const waiting = () => lockWaiters(ctx.database.db, ['relation', 'advisory']);

describe('the bulk outstanding links pressed twice at once', () => {
  it('make one link for the student, answered to both', async () => {
    const answers: Array<{ statusCode: number; json: () => { created: Array<{ id: string; amount: string }> } }> = [];
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table payment_links in share mode`);
      for (let i = 0; i < 2; i++) void school.api.post('/api/payment-links/bulk', { studentIds: [studentId] }).then((r) => answers.push(r));
      await until(async () => (await waiting()) >= 2);
    });
    await until(() => answers.length === 2);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const [a, b] = answers.map((r) => r.json().created);
    expect(a).toHaveLength(1);
    expect(b!.map((l) => l.id)).toEqual(a!.map((l) => l.id));
    const links = await ctx.database.db.select().from(paymentLinks).where(and(eq(paymentLinks.schoolId, school.schoolId), eq(paymentLinks.studentId, studentId)));
    expect(links.map((l) => l.status)).toEqual(['active']);
  });
});
