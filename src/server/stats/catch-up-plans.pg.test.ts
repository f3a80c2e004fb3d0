import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRupees } from '../../domain/money';
import { openTestDatabase, type signUpSchool, type TestContext } from '../test/harness';
import { plansOf } from '../test/prepared-plans';
import { class5School } from '../test/statement-log';
import { ensurePositions } from './student-positions';

/**
 * Decision 0088: the catch-up of the students a write marked runs its statements' generic plans.
 * Under PostgreSQL's own choice the statement that writes their rows (16 KB of SQL) was planned for
 * its values on at least the first five runs of every connection, 5-25 ms of PostgreSQL's CPU each
 * against 1 ms to run it: a stats read or a Pending Fees build right after a payment paid it. On ONE
 * connection, so every catch-up meets the same prepared statements. PostgreSQL only: the embedded
 * database keeps no named statements.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let ids: string[];

beforeAll(async () => {
  ({ ctx, school, ids } = await class5School(await openTestDatabase({ max: 1 }), ['Aamir Dar', 'Bilal Shah', 'Chetan Rao']));
});
afterAll(() => ctx.close());

const pendingOnCards = async () => {
  const answer = await school.api.get('/api/stats/school');
  expect(answer.statusCode, answer.body).toBe(200);
  return Number(parseRupees(answer.json<{ pendingFees: string }>().pendingFees));
};

let paid = 0;
/** A month's tuition (Class 5: ₹1,500), the next month the student owes. */
async function payAMonth(studentId: string) {
  const answer = await school.api.post('/api/fees', {
    studentId,
    fees: [{ type: 'monthly', amount: 1500 }],
    paymentMode: 'cash',
    paidOn: '2025-11-14',
    clientId: `plans-${paid++}`,
  });
  expect(answer.statusCode, answer.body).toBe(201);
}

/** The plans PostgreSQL made for the prepared statement that writes the students' rows. */
const rowWriterPlans = () => plansOf(ctx.database.db, { like: ['%insert into student_positions%'] });

describe('the catch-up after a payment', () => {
  it('is never planned for its values, and every read after a payment shows it', async () => {
    // the first read builds the school's rows
    let pending = await pendingOnCards();
    expect(pending).toBeGreaterThan(0);
    const before = await rowWriterPlans();

    // the cards' read after each payment (readAfterCatchUp)
    for (let k = 0; k < 7; k++) {
      await payAMonth(ids[k % 3]!);
      const now = await pendingOnCards();
      expect(pending - now).toBe(1500_00);
      pending = now;
    }
    // a report's catch-up after each payment (ensurePositions, as Pending Fees calls it)
    for (let k = 0; k < 7; k++) {
      await payAMonth(ids[k % 3]!);
      const totals = await ensurePositions(ctx.database.db, { schoolId: school.schoolId, month: '2025-11' });
      expect(pending - Number(totals.pending_fees)).toBe(1500_00);
      pending = Number(totals.pending_fees);
    }
    expect(await pendingOnCards()).toBe(pending);

    // one statement, the same in both catch-ups, run fifteen times more on its one plan (the cards'
    // read runs it each time, moving no one when no one is marked)
    const after = await rowWriterPlans();
    expect({ generic: after.generic - before.generic, custom: after.custom - before.custom, statements: after.statements }).toEqual({ generic: 15, custom: 0, statements: 1 });
  });
});
