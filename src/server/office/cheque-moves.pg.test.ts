import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySchoolBalances } from '../balances/verify';
import { lockStudentLedger } from '../fees/locks';
import { createTestApp, type signUpSchool, type TestContext } from '../test/harness';
import { lockWaiters, schoolWithOneStudent, until } from '../test/races';

/**
 * A cheque marked cleared by one person while another records its bounce. Cleared and bounced are
 * both final (decision 0046): whichever is recorded second must be refused with the reason, never
 * written over the first nor answered as if the cheque were gone. PostgreSQL only: the embedded
 * database runs one statement at a time.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let studentId: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-05-22T06:00:00.000Z') });
  ({ school, studentId } = await schoolWithOneStudent(ctx));
});
afterAll(() => ctx.close());

const waiting = (event: string) => lockWaiters(ctx.database.db, [event]);

type Answer = { statusCode: number; body: string; json: () => { error?: string } };

/** A deposited cheque of ₹1,500 for April. */
async function depositedCheque(chequeNumber: string): Promise<string> {
  const paid = await school.api.post('/api/fees', { studentId, fees: [{ type: 'monthly', amount: '1500' }], paymentMode: 'cheque', chequeNumber, bankName: 'J&K Bank' });
  expect(paid.statusCode, paid.body).toBe(201);
  const receiptId: string = paid.json().receipt.id;
  expect((await school.api.put(`/api/cheques/${receiptId}`, { status: 'deposited' })).statusCode).toBe(200);
  return receiptId;
}

async function expectBouncedOnly(receiptId: string, chargesOwed: string) {
  const list = (await school.api.get('/api/cheques')).json();
  expect(list.cheques.filter((c: { receiptId: string }) => c.receiptId === receiptId)).toEqual([expect.objectContaining({ status: 'bounced' })]);
  const status = (await school.api.get(`/api/students/${studentId}/fee-status`)).json();
  expect(status.receipts.find((r: { id: string }) => r.id === receiptId).status).toBe('cancelled');
  // April and May unpaid again, and the bank charges owed
  expect(status.ledger.outstandingTillDate).toBe('3000.00');
  expect(status.previousBalance).toMatchObject({ balance: chargesOwed });
  expect((await verifySchoolBalances(ctx.database.db, school.schoolId)).differences).toEqual([]);
}

describe('a cheque cleared while its bounce is being recorded', () => {
  it('a clearing asked while the bounce is being written is refused as bounced, not answered "not found"', async () => {
    const receiptId = await depositedCheque('004512');
    let bounced: Answer | undefined;
    let cleared: Answer | undefined;
    // the bounce is held after it has cancelled the receipt and marked the cheque bounced, at its
    // insert of the bank charges, by a lock the test takes on that table
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table opening_balances in share mode`);
      void school.api.post(`/api/cheques/${receiptId}/bounce`, { reason: 'Insufficient funds', bankCharges: '250' }).then((r) => (bounced = r));
      await until(async () => (await waiting('relation')) === 1);
      expect(bounced).toBeUndefined();
      void school.api.put(`/api/cheques/${receiptId}`, { status: 'cleared' }).then((r) => (cleared = r));
      // the clearing answers, or waits: for the bounce's lock, or for its row of the cheque
      await until(async () => cleared !== undefined || (await waiting('advisory')) + (await waiting('transactionid')) === 1);
    });
    await until(async () => bounced !== undefined && cleared !== undefined);
    expect(bounced?.statusCode, bounced?.body).toBe(200);
    expect(cleared?.statusCode, cleared?.body).toBe(409);
    expect(cleared?.json().error).toBe('A cheque that is bounced cannot be marked cleared');
    await expectBouncedOnly(receiptId, '250.00');
  });

  it('a bounce and a clearing asked together take turns: the bounce, then the clearing refused (not cleared and then bounced over)', async () => {
    const receiptId = await depositedCheque('004513');
    let bounced: Answer | undefined;
    let cleared: Answer | undefined;
    // the bounce is held at the student's ledger lock, which the test holds: the code before read the
    // cheque's status ahead of that lock, the clearing took none and went through meanwhile
    await ctx.database.db.transaction(async (tx) => {
      await lockStudentLedger(tx, { schoolId: school.schoolId, studentId });
      void school.api.post(`/api/cheques/${receiptId}/bounce`, { reason: 'Signature differs', bankCharges: '100' }).then((r) => (bounced = r));
      await until(async () => (await waiting('advisory')) === 1);
      expect(bounced).toBeUndefined();
      void school.api.put(`/api/cheques/${receiptId}`, { status: 'cleared' }).then((r) => (cleared = r));
      await until(async () => cleared !== undefined || (await waiting('advisory')) === 2);
    });
    await until(async () => bounced !== undefined && cleared !== undefined);
    // the bounce asked first and is recorded; the clearing is told the cheque bounced
    expect(bounced?.statusCode, bounced?.body).toBe(200);
    expect(cleared?.statusCode, cleared?.body).toBe(409);
    expect(cleared?.json().error).toBe('A cheque that is bounced cannot be marked cleared');
    await expectBouncedOnly(receiptId, '350.00');
  });
});
