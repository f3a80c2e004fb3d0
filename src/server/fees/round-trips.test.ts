import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReceiptNumber } from '../../domain/ledger';
import { paise, toRupeeString } from '../../domain/money';
import { verifySchoolBalances } from '../balances/verify';
import { receiptCounters } from '../db/schema';
import { rowsOf } from '../lib/sql-rows';
import type { signUpSchool, TestContext } from '../test/harness';
import { schoolWithStatementLog } from '../test/statement-log';

/**
 * Issue 14: the fee screen and the three saves in as few statements as they can be (decision 0049),
 * and the receipt counter, which every receipt of a school and prefix waits on, taken in the last
 * statement before COMMIT. Runs on the embedded database and on PostgreSQL (DATABASE_URL); the
 * statements are those the app sends through its handle (`schoolWithStatementLog`).
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let ids: string[];
let sessionId: string;
let statementsOf: Awaited<ReturnType<typeof schoolWithStatementLog>>['statementsOf'];

beforeAll(async () => {
  ({ ctx, school, ids, sessionId, statementsOf } = await schoolWithStatementLog(['Aamir Dar', 'Bilal Shah', 'Chetna Rao', 'Divya Nair', 'Eshan Wani']));
  // the session check of the token is cached after its first use: warm it
  await school.api.get(`/api/students/${ids[0]}/fee-status`);
});
afterAll(() => ctx.close());

/**
 * A save: the student's lock, one read, and one write holding the counter that also raises the
 * school's data version and, on PostgreSQL, commits (decision 0052): no statement after it.
 */
function expectOneReadOneWrite(statements: string[]) {
  expect(statements, statements.join('\n')).toHaveLength(3);
  const [lock, read, write] = statements as [string, string, string];
  expect(lock).toContain('pg_advisory_xact_lock');
  expect(read).not.toContain('receipt_counters');
  expect(read).toContain('json_agg');
  // the write takes the number, inserts the receipt, its lines, the running balances and the audit row
  for (const table of ['receipt_counters', 'insert into "receipts"', 'insert into "receipt_lines"', 'student_session_balances', 'student_balances', 'insert into "audit_log"', 'school_data_versions']) {
    expect(write).toContain(table);
  }
}

describe('round trips of the fee screen and the saves', () => {
  it('reads the whole fee status in one statement', async () => {
    const { answer, statements } = await statementsOf(() => school.api.get(`/api/students/${ids[0]}/fee-status`));
    expect(answer.statusCode).toBe(200);
    // on PostgreSQL the read runs with generic plans (lib/prepared.ts), set by a statement before it
    const reads = statements.filter((q) => !q.includes('plan_cache_mode'));
    expect(reads, statements.join('\n')).toHaveLength(1);
    expect(statements.length - reads.length).toBe(ctx.database.kind === 'postgres' ? 1 : 0);
    // April to November of ₹1,500 tuition and ₹500 bus, and ₹10,500 of yearly heads
    expect(answer.json().account.tillDate.outstanding).toBe('26500.00');
  });

  it('saves the monthly grid with the counter taken last, and answers a replay without it', async () => {
    const body = {
      studentId: ids[0],
      academicYear: '2025-2026',
      clientId: 'grid-rt-1',
      entries: [{ month: 'April', year: 2025, tuitionFee: 1500, tuitionDate: '2025-04-10', busFee: 500, busDate: '2025-04-10' }],
    };
    const saved = await statementsOf(() => school.api.post('/api/monthly-fee-entries/bulk', body));
    expect(saved.answer.statusCode).toBe(201);
    expect(saved.answer.json().receipt).toMatchObject({ receiptNumber: 'MON/2025-26/000001', total: '2000.00' });
    expectOneReadOneWrite(saved.statements);

    const again = await statementsOf(() => school.api.post('/api/monthly-fee-entries/bulk', body));
    expect(again.answer.statusCode).toBe(200);
    expect(again.answer.json()).toMatchObject({ replayed: true, receipt: { receiptNumber: 'MON/2025-26/000001' } });
    expect(again.statements, again.statements.join('\n')).toHaveLength(3);
    expect(again.statements.some((q) => q.includes('receipt_counters'))).toBe(false);
  });

  it('saves the yearly cards with the counter taken last', async () => {
    const { answer, statements } = await statementsOf(() =>
      school.api.post('/api/yearly-fee-entries', { studentId: ids[1], academicYear: '2025-2026', examFee: 800, examDate: '2025-09-20' }),
    );
    expect(answer.statusCode).toBe(201);
    expect(answer.json().receipt).toMatchObject({ receiptNumber: 'YRL/2025-26/000001', total: '800.00' });
    expectOneReadOneWrite(statements);
  });

  it('records a fee payment with the counter taken last, previous balance and fine reads only when asked for', async () => {
    const { answer, statements } = await statementsOf(() =>
      school.api.post('/api/fees', { studentId: ids[2], fees: [{ type: 'monthly', amount: 2000 }], paymentMode: 'cash', paidOn: '2025-11-14', clientId: 'fee-rt-1' }),
    );
    expect(answer.statusCode).toBe(201);
    // ₹2,000 of tuition settles April (₹1,500) and ₹500 of May
    expect(answer.json().receipt).toMatchObject({
      receiptNumber: 'FEE/2025-26/000001',
      totalPaid: '2000.00',
      fees: [
        { type: 'monthly', amount: '1500.00', month: '2025-04' },
        { type: 'monthly', amount: '500.00', month: '2025-05' },
      ],
    });
    expectOneReadOneWrite(statements);
  });

  it('prints a receipt from two statements: the receipt with its school, then its student as fee status reads them', async () => {
    const paid = await school.api.post('/api/fees', { studentId: ids[3], fees: [{ type: 'monthly', amount: 2000 }], paymentMode: 'cash', paidOn: '2025-11-14', clientId: 'fee-rt-print' });
    expect(paid.statusCode).toBe(201);
    const id = paid.json().receipt.id as string;
    const { answer, statements } = await statementsOf(() => school.api.get(`/api/receipts/${id}/pdf`));
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(statements, statements.join('\n')).toHaveLength(2);
    expect(statements[0]).toContain('"receipts"');
    expect(statements[0]).toContain('"schools"');
    expect(statements[1]).toContain('"student_previous_balances"');
    // what it prints as due is what fee status shows: April to November of ₹2,000 and ₹10,500 of
    // yearly heads (₹26,500), less the ₹2,000 paid for April and May's tuition and those two months'
    // bus fee, which a month recorded without it gives up as its discount (operations §9)
    const shown = await statementsOf(() => school.api.get(`/api/receipts/${id}`));
    expect(shown.statements).toHaveLength(2);
    expect(shown.answer.json().balance).toEqual({ asOn: '2025-11-15', amount: '23500.00' });
    expect((await school.api.get(`/api/students/${ids[3]}/fee-status`)).json().account.tillDate.outstanding).toBe('23500.00');
  });

  it('keeps every running balance equal to a recomputation from the ledger', async () => {
    const check = await verifySchoolBalances(ctx.database.db, school.schoolId);
    expect(check.differences).toEqual([]);
    const [row] = rowsOf<{ owed: string; received: string }>(
      await ctx.database.db.execute(sql`
        select monthly_owed[8]::text as owed, received::text as received from student_session_balances
        where school_id = ${school.schoolId} and student_id = ${ids[2]} and session_id = ${sessionId}`),
    );
    // the stored row says what the fee screen says: received ₹2,000, and the same monthly outstanding
    const status = (await school.api.get(`/api/students/${ids[2]}/fee-status`)).json();
    expect(row!.received).toBe('200000');
    expect(status.account.totalPaid).toBe('2000.00');
    expect(toRupeeString(paise(Number(row!.owed)))).toBe(status.account.tillDate.monthlyOutstanding);
  });

  it('numbers past 999999 as the domain writes them: at least six digits, never cut', async () => {
    const db = ctx.database.db;
    await db
      .update(receiptCounters)
      .set({ lastNumber: 999_998 })
      .where(and(eq(receiptCounters.schoolId, school.schoolId), eq(receiptCounters.prefix, 'FEE'), eq(receiptCounters.academicYear, '2025-2026')));
    const numbers: string[] = [];
    for (const [i, studentId] of [ids[3], ids[4]].entries()) {
      const res = await school.api.post('/api/fees', { studentId, fees: [{ type: 'monthly', amount: 100 }], paymentMode: 'cash', clientId: `fee-rt-big-${i}` });
      expect(res.statusCode).toBe(201);
      numbers.push(res.json().receipt.receiptNumber as string);
    }
    expect(numbers).toEqual([formatReceiptNumber('FEE', '2025-2026', 999_999), formatReceiptNumber('FEE', '2025-2026', 1_000_000)]);
    expect(numbers).toEqual(['FEE/2025-26/999999', 'FEE/2025-26/1000000']);
  });
});
