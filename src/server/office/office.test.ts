import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySchoolBalances } from '../balances/verify';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import { addStaff } from '../staff/staff-helpers';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
});
afterAll(() => ctx.close());

async function school() {
  const owner = await signUpSchool(ctx, { selectedPlan: 'premium' });
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: owner.schoolId });
  await seedStructure(db, { schoolId: owner.schoolId, ...CLASS5_2025 });
  const studentId = (await seedStudent(db, { schoolId: owner.schoolId, sessionId: session.id, name: 'Kabir Lone', className: 'Class 5', busFee: 500 })).id;
  const clerk = await addStaff(ctx, owner, 'clerk', 'Ravi Kumar');
  const accountant = await addStaff(ctx, owner, 'accountant', 'Meena Shah');
  return { owner, studentId, clerk, accountant };
}

type Api = Awaited<ReturnType<typeof school>>['owner']['api'];
const status = async (api: Api, studentId: string) => (await api.get(`/api/students/${studentId}/fee-status`)).json();
const outstanding = async (api: Api, studentId: string) => (await api.get(`/api/students/${studentId}/outstanding-fees`)).json();

describe('the cheque register (issue 15 item 5)', () => {
  it('moves a cheque in hand → deposited → cleared, refuses what the table forbids, and roles as the table says', async () => {
    const { owner, studentId, clerk, accountant } = await school();
    const paid = await clerk.api.post('/api/fees', { studentId, fees: [{ type: 'monthly', amount: '1500' }], paymentMode: 'cheque', chequeNumber: '004512', bankName: 'J&K Bank' });
    expect(paid.statusCode).toBe(201);
    const receiptId = paid.json().receipt?.id ?? paid.json().id;

    expect((await clerk.api.get('/api/cheques')).statusCode).toBe(403);
    expect((await clerk.api.put(`/api/cheques/${receiptId}`, { status: 'deposited' })).statusCode).toBe(403);
    expect((await clerk.api.post(`/api/cheques/${receiptId}/bounce`, { reason: 'x' })).statusCode).toBe(403);

    const list = (await accountant.api.get('/api/cheques')).json();
    expect(list.cheques).toEqual([
      expect.objectContaining({ receiptId, chequeNumber: '004512', bankName: 'J&K Bank', amount: '1500.00', status: 'in_hand', collectedBy: 'Ravi Kumar', receiptDate: '2025-11-15' }),
    ]);
    expect((await accountant.api.put(`/api/cheques/${receiptId}`, { status: 'cleared' })).statusCode).toBe(409);
    const deposited = await accountant.api.put(`/api/cheques/${receiptId}`, { status: 'deposited', date: '2025-11-16' });
    expect(deposited.statusCode).toBe(200);
    expect(deposited.json()).toMatchObject({ status: 'deposited', depositedOn: '2025-11-16' });
    expect((await owner.api.get('/api/cheques?status=in_hand')).json().cheques).toEqual([]);
    const cleared = await owner.api.put(`/api/cheques/${receiptId}`, { status: 'cleared' });
    expect(cleared.json()).toMatchObject({ status: 'cleared', depositedOn: '2025-11-16', clearedOn: '2025-11-15' });
    const bounceCleared = await accountant.api.post(`/api/cheques/${receiptId}/bounce`, { reason: 'late' });
    expect(bounceCleared.statusCode).toBe(409);
    expect((await accountant.api.put('/api/cheques/not-an-id', { status: 'deposited' })).statusCode).toBe(404);
    expect((await accountant.api.get('/api/cheques?from=2025-12-01')).json().cheques).toEqual([]);

    const xlsx = await accountant.api.get('/api/cheques.xlsx');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('a bounce cancels the receipt, re-opens the dues to the paisa, charges the bank fee and leaves the ledger clean', async () => {
    const { owner, studentId, clerk, accountant } = await school();
    const before = await status(owner.api, studentId);
    const beforeOutstanding = await outstanding(owner.api, studentId);
    const paid = await clerk.api.post('/api/fees', { studentId, fees: [{ type: 'monthly', amount: '1500' }], paymentMode: 'cheque', chequeNumber: '777', bankName: 'SBI' });
    const receiptId = paid.json().receipt?.id ?? paid.json().id;
    expect(await status(owner.api, studentId)).not.toEqual(before);

    expect((await accountant.api.post(`/api/cheques/${receiptId}/bounce`, { reason: '  ' })).statusCode).toBe(400);
    const bounced = await accountant.api.post(`/api/cheques/${receiptId}/bounce`, { reason: 'Insufficient funds', bankCharges: '250' });
    expect(bounced.statusCode).toBe(200);
    expect(bounced.json()).toMatchObject({ status: 'bounced', bouncedOn: '2025-11-15', bounceReason: 'Insufficient funds', bankCharges: '250.00' });
    expect((await accountant.api.post(`/api/cheques/${receiptId}/bounce`, { reason: 'again' })).statusCode).toBe(409);

    // the fee status is as before the cheque; the only new due is the bank charge
    const { receipts: _r, previousBalance, ...rest } = await status(owner.api, studentId);
    const { receipts: _b, previousBalance: previousBefore, ...restBefore } = before;
    expect(rest).toEqual(restBefore);
    expect(previousBefore.balance).toBe('0.00');
    expect(previousBalance).toMatchObject({ balance: '250.00', yearlyOutstanding: '250.00', monthlyOutstanding: '0.00' });
    const after = await outstanding(owner.api, studentId);
    expect(JSON.stringify(after)).toContain('250');
    expect(after).not.toEqual(beforeOutstanding);

    const receipt = (await owner.api.get(`/api/receipts/${receiptId}`)).json();
    expect(receipt.status ?? receipt.receipt?.status).toBe('cancelled');
    expect(receipt.cancelReason ?? receipt.receipt?.cancelReason).toBe('Cheque bounced: Insufficient funds');
    expect(await verifySchoolBalances(ctx.database.db, owner.schoolId)).toMatchObject({ differences: [] });

    const register = (await owner.api.get('/api/reports/cancellations?from=2025-11-01&to=2025-11-30')).json();
    expect(register.rows).toEqual([
      expect.objectContaining({ receiptId, amount: '1500.00', paymentMode: 'cheque', cancelledBy: 'Meena Shah', collectedBy: 'Ravi Kumar', reason: 'Insufficient funds', bounced: true }),
    ]);
  });
});

describe('the cancellation register (issue 15 item 6)', () => {
  it('lists every cancelled receipt with who cancelled, why and who collected; JSON, Excel and CSV; clerks refused', async () => {
    const { owner, studentId, clerk, accountant } = await school();
    const a = (await clerk.api.post('/api/fees', { studentId, fees: [{ type: 'monthly', amount: '1500' }], paymentMode: 'cash' })).json();
    const b = (await clerk.api.post('/api/fees', { studentId, fees: [{ type: 'exam', amount: '400' }], paymentMode: 'upi', upiReference: 'U1' })).json();
    const idA = a.receipt?.id ?? a.id;
    const idB = b.receipt?.id ?? b.id;
    expect((await accountant.api.post(`/api/receipts/${idA}/cancel`, { reason: 'Wrong student' })).statusCode).toBe(200);
    expect((await owner.api.post(`/api/receipts/${idB}/cancel`, { reason: 'Entered twice' })).statusCode).toBe(200);

    expect((await clerk.api.get('/api/reports/cancellations?from=2025-11-01&to=2025-11-30')).statusCode).toBe(403);
    expect((await owner.api.get('/api/reports/cancellations?from=2025-11-30&to=2025-11-01')).statusCode).toBe(400);
    expect((await owner.api.get('/api/reports/cancellations')).statusCode).toBe(400);
    const rows = (await accountant.api.get('/api/reports/cancellations?from=2025-11-15&to=2025-11-15')).json().rows;
    expect(rows.map((r: Record<string, unknown>) => [r.receiptNumber, r.amount, r.cancelledBy, r.reason, r.collectedBy, r.bounced])).toEqual([
      [a.receipt?.receiptNumber ?? a.receiptNumber, '1500.00', 'Meena Shah', 'Wrong student', 'Ravi Kumar', false],
      [b.receipt?.receiptNumber ?? b.receiptNumber, '400.00', expect.any(String), 'Entered twice', 'Ravi Kumar', false],
    ]);
    expect((await owner.api.get('/api/reports/cancellations?from=2025-11-16&to=2025-11-30')).json().rows).toEqual([]);

    const csv = await owner.api.get('/api/reports/cancellations.csv?from=2025-11-01&to=2025-11-30');
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe('Receipt No.,Receipt date,Student,Class,Amount,Mode,Cancelled at,Cancelled by,Reason,Collected by,Bounced cheque');
    expect(lines[1]).toContain(',1500.00,cash,');
    expect(lines[1]).toContain('Meena Shah,Wrong student,Ravi Kumar,No');
    const xlsx = await owner.api.get('/api/reports/cancellations.xlsx?from=2025-11-01&to=2025-11-30');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});

describe('the audit log viewer (issue 15 item 3)', () => {
  it('names who did it, filters by user, action and date, pages, exports; only Administrators', async () => {
    const { owner, studentId, clerk, accountant } = await school();
    const admin = await addStaff(ctx, owner, 'administrator', 'Asha Admin');
    const r = (await clerk.api.post('/api/fees', { studentId, fees: [{ type: 'monthly', amount: '1500' }], paymentMode: 'cash' })).json();
    await accountant.api.post(`/api/receipts/${r.receipt?.id ?? r.id}/cancel`, { reason: 'Wrong month' });

    for (const u of [clerk, accountant]) expect((await u.api.get('/api/audit-log')).statusCode).toBe(403);
    expect((await accountant.api.get('/api/audit-log.xlsx')).statusCode).toBe(403);

    const all = (await admin.api.get('/api/audit-log')).json();
    expect(all.total).toBeGreaterThanOrEqual(2);
    expect(all.actions).toEqual(expect.arrayContaining(['receipt.cancel']));
    const cancels = (await admin.api.get('/api/audit-log?action=receipt.cancel')).json();
    expect(cancels.rows).toEqual([expect.objectContaining({ action: 'receipt.cancel', userId: accountant.id, userName: 'Meena Shah', entity: 'receipt' })]);
    const byClerk = (await owner.api.get(`/api/audit-log?userId=${clerk.id}`)).json();
    expect(byClerk.rows.length).toBeGreaterThanOrEqual(1);
    expect(byClerk.rows.every((x: { userName: string }) => x.userName === 'Ravi Kumar')).toBe(true);
    // audit rows carry the database's time, not the test clock: filter on the India day they were written
    const day = new Date(Date.parse(all.rows[0].at) + 330 * 60_000).toISOString().slice(0, 10);
    expect((await owner.api.get('/api/audit-log?from=2099-01-01')).json().rows).toEqual([]);
    expect((await owner.api.get('/api/audit-log?to=2020-01-01')).json().total).toBe(0);
    expect((await owner.api.get(`/api/audit-log?from=${day}&to=${day}`)).json().total).toBe(all.total);
    const page = (await owner.api.get('/api/audit-log?pageSize=1&page=2')).json();
    expect(page).toMatchObject({ page: 2, pageSize: 1, total: all.total });
    expect(page.rows).toHaveLength(1);
    expect((await owner.api.get('/api/audit-log?userId=nope')).statusCode).toBe(400);
    const xlsx = await admin.api.get('/api/audit-log.xlsx?action=receipt.cancel');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
