import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import { addStaff } from '../staff/staff-helpers';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
});
afterAll(() => ctx.close());

describe('the office day: a clerk collects and closes, the accountant acknowledges, the principal sees both', () => {
  it('runs the day through', async () => {
    const owner = await signUpSchool(ctx, { selectedPlan: 'premium' });
    const db = ctx.database.db;
    const session = await seedSession(db, { schoolId: owner.schoolId });
    await seedStructure(db, { schoolId: owner.schoolId, ...CLASS5_2025 });
    const studentId = (await seedStudent(db, { schoolId: owner.schoolId, sessionId: session.id, name: 'Kabir Lone', className: 'Class 5', busFee: 500 })).id;
    const clerk = await addStaff(ctx, owner, 'clerk', 'Ravi Kumar');
    const accountant = await addStaff(ctx, owner, 'accountant', 'Meena Shah');

    const cash = await clerk.api.post('/api/fees', { studentId, fees: [{ type: 'monthly', amount: '1500' }], paymentMode: 'cash' });
    expect(cash.statusCode).toBe(201);
    expect(cash.json().receipt?.receivedBy ?? cash.json().receivedBy).toBe('Ravi Kumar');
    const upi = await clerk.api.post('/api/fees', { studentId, fees: [{ type: 'exam', amount: '400' }], paymentMode: 'upi', upiReference: 'UPI-1' });
    expect(upi.statusCode).toBe(201);

    const day = (await clerk.api.get('/api/cash/day?date=2025-11-15')).json();
    expect(day).toMatchObject({ userName: 'Ravi Kumar', total: '1900.00', expectedCash: '1500.00', closing: null });
    expect(day.byMode.find((m: { mode: string }) => m.mode === 'upi')).toEqual({ mode: 'upi', count: 1, total: '400.00' });
    // the accountant collected nothing that day
    expect((await accountant.api.get('/api/cash/day?date=2025-11-15')).json().expectedCash).toBe('0.00');

    const short = await clerk.api.post('/api/cash/closings', { date: '2025-11-15', counts: { '500': 2, '200': 2, '50': 1 } });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toBe('The counted cash differs from the expected cash: add a note saying why');
    const closed = await clerk.api.post('/api/cash/closings', { date: '2025-11-15', counts: { '500': 2, '200': 2, '50': 1 }, note: 'Gave ₹50 change from the drawer' });
    expect(closed.statusCode).toBe(201);
    expect(closed.json()).toMatchObject({ countedCash: '1450.00', expectedCash: '1500.00', difference: '-50.00', acknowledgedAt: null });
    const twice = await clerk.api.post('/api/cash/closings', { date: '2025-11-15', counts: {} });
    expect(twice.statusCode).toBe(409);

    // a clerk cannot cancel, nor acknowledge
    const cancelByClerk = await clerk.api.post(`/api/receipts/${cash.json().receipt?.id ?? cash.json().id}/cancel`, { reason: 'typo' });
    expect(cancelByClerk.statusCode).toBe(403);
    expect((await clerk.api.post(`/api/cash/closings/${closed.json().id}/acknowledge`)).statusCode).toBe(403);

    const ack = await accountant.api.post(`/api/cash/closings/${closed.json().id}/acknowledge`);
    expect(ack.statusCode).toBe(200);
    expect(ack.json()).toMatchObject({ acknowledgedByName: 'Meena Shah' });
    expect((await accountant.api.post(`/api/cash/closings/${closed.json().id}/acknowledge`)).statusCode).toBe(409);

    const report = (await owner.api.get('/api/reports/cash-closings?from=2025-11-01&to=2025-11-30')).json();
    expect(report.byUser).toEqual([{ userId: clerk.id, userName: 'Ravi Kumar', counted: '1450.00', expected: '1500.00', difference: '-50.00', closings: 1 }]);
    expect(report.byDay[0]).toMatchObject({ date: '2025-11-15', difference: '-50.00' });
    const xlsx = await owner.api.get('/api/reports/cash-closings.xlsx?from=2025-11-01&to=2025-11-30');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect((await clerk.api.get('/api/reports/cash-closings.xlsx?from=2025-11-01&to=2025-11-30')).statusCode).toBe(403);
    const dayBook = (await owner.api.get('/api/reports/day-book?date=2025-11-15')).json();
    const receiptsTable = dayBook.tables.find((t: { title: string }) => t.title === 'Receipts');
    expect(receiptsTable.rows.map((r: { collectedBy: string }) => r.collectedBy)).toEqual(['Ravi Kumar', 'Ravi Kumar']);
  });
});
