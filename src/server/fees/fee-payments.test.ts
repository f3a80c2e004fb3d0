import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMasterAdmin } from '../auth/master-admin';
import { receipts, schools } from '../db/schema';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from './test-fixtures';
import { sessionCache } from '../auth/session-cache';

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;
let studentId: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  other = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  studentId = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Kabir Lone', className: 'Class 5', busFee: 500 })).id;
});
afterAll(() => ctx.close());

const receiptCount = async () => Number((await ctx.database.db.select({ n: count() }).from(receipts))[0]!.n);

describe('Record Fee Payment', () => {
  it('previews the next receipt number without taking it', async () => {
    const first = await school.api.post('/api/generate-receipt-number', { prefix: 'FEE' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ receiptNumber: 'FEE/2025-26/000001', prefix: 'FEE', academicYear: '2025-2026', reserved: false });
    const again = await school.api.post('/api/generate-receipt-number', { prefix: 'FEE' });
    expect(again.json().receiptNumber).toBe('FEE/2025-26/000001');
    const bad = await school.api.post('/api/generate-receipt-number', { prefix: 'ABC' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Prefix must be MON, YRL, FEE or ONL');
  });

  it('records a payment of several fee types as one FEE receipt with the previewed number', async () => {
    const res = await school.api.post('/api/fees', {
      studentId,
      fees: [
        { type: 'monthly', amount: '1500' },
        { type: 'transport', amount: 500, month: 'May 2025' },
        { type: 'exam', amount: '800.00' },
        { type: 'laboratory', amount: 250.5 },
      ],
      totalPaid: '3050.50',
      paymentMode: 'upi',
      upiReference: 'UPI-4093',
      clientId: 'pay-1',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe('Payment recorded successfully');
    expect(body.receipt.receiptNumber).toBe('FEE/2025-26/000001');
    expect(body.receipt.totalPaid).toBe('3050.50');
    expect(body.receipt.paymentMode).toBe('upi');
    expect(body.receipt.upiReference).toBe('UPI-4093');
    // the monthly fee with no month goes to the earliest month still short: April
    expect(body.receipt.fees).toEqual([
      { type: 'monthly', amount: '1500.00', month: '2025-04' },
      { type: 'transport', amount: '500.00', month: '2025-05' },
      { type: 'exam', amount: '800.00', month: null },
      { type: 'laboratory', amount: '250.50', month: null },
    ]);

    const list = await school.api.get('/api/fees');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toHaveLength(1);
    expect(list.json()[0]).toMatchObject({ studentId, studentName: 'Kabir Lone', totalPaid: '3050.50', status: 'live' });
    expect((await other.api.get('/api/fees')).json()).toEqual([]);

    const next = await school.api.post('/api/fees', { studentId, fees: [{ type: 'monthly', amount: 1500 }] });
    expect(next.json().receipt.receiptNumber).toBe('FEE/2025-26/000002');
    expect(next.json().receipt.fees[0].month).toBe('2025-05');
  });

  it('replays a retried payment with the same clientId', async () => {
    const before = await receiptCount();
    const res = await school.api.post('/api/fees', {
      studentId,
      fees: [
        { type: 'monthly', amount: '1500' },
        { type: 'transport', amount: 500, month: 'May 2025' },
        { type: 'exam', amount: '800.00' },
        { type: 'laboratory', amount: 250.5 },
      ],
      totalPaid: '3050.50',
      paymentMode: 'upi',
      upiReference: 'UPI-4093',
      clientId: 'pay-1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().replayed).toBe(true);
    expect(res.json().receipt.receiptNumber).toBe('FEE/2025-26/000001');
    expect(await receiptCount()).toBe(before);
  });

  it('refuses incomplete or inconsistent payments with clear messages and writes nothing', async () => {
    const before = await receiptCount();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ fees: [{ type: 'exam', amount: 100 }] }, 400, 'Please select a student and at least one fee type'],
      [{ studentId, fees: [] }, 400, 'Please select a student and at least one fee type'],
      [{ studentId, fees: [{ type: 'exam', amount: '0' }] }, 400, 'Please select a student and at least one fee type'],
      [{ studentId, fees: [{ type: 'tuition', amount: 100 }] }, 400, 'Fee type must be one of monthly, admission, books, transport, exam, laboratory, library, sports, uniform, other, previous_balance, fine'],
      [{ studentId, fees: [{ type: 'exam', amount: 100 }], totalPaid: 90 }, 400, 'Total paid (₹90.00) does not match the selected fee amounts (₹100.00)'],
      [{ studentId, fees: [{ type: 'exam', amount: -100 }] }, 400, 'Fee amount cannot be negative'],
      [{ studentId, fees: [{ type: 'monthly', amount: 100, month: 'April 2026' }] }, 400, 'April 2026 is not a month of the 2025-2026 session'],
      [{ studentId, fees: [{ type: 'exam', amount: 100, month: 'April 2025' }] }, 400, 'Exam Fee is not paid per month: leave its month empty'],
      [{ studentId, fees: [{ type: 'previous_balance', amount: 100 }] }, 400, 'There is no previous balance pending for Kabir Lone'],
      [{ studentId, fees: [{ type: 'exam', amount: 100 }], paidOn: '2025-11-16' }, 400, 'The payment date (2025-11-16) cannot be in the future'],
      [{ studentId, fees: [{ type: 'exam', amount: 100 }], paymentMode: 'bank_transfer' }, 400, 'Enter the transaction reference for a bank transfer'],
      [{ studentId, fees: [{ type: 'exam', amount: 100 }], paymentMode: 'online' }, 400, 'Payment mode must be cash, cheque, upi, card or bank_transfer'],
    ];
    for (const [body, status, message] of cases) {
      const res = await school.api.post('/api/fees', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error).toBe(message);
    }
    const foreign = await other.api.post('/api/fees', { studentId, fees: [{ type: 'exam', amount: 100 }] });
    expect(foreign.statusCode).toBe(404);
    expect(await receiptCount()).toBe(before);
  });

  it('filters the list by student, prefix and status', async () => {
    expect((await school.api.get(`/api/fees?studentId=${studentId}&prefix=FEE`)).json()).toHaveLength(2);
    expect((await school.api.get('/api/fees?prefix=MON')).json()).toHaveLength(0);
    expect((await school.api.get('/api/fees?status=cancelled')).json()).toHaveLength(0);
    expect((await school.api.get('/api/fees?from=2025-11-15&to=2025-11-15')).json()).toHaveLength(2);
    expect((await school.api.get('/api/fees?to=2025-11-14')).json()).toHaveLength(0);
  });
});

describe('who may write', () => {
  it('shuts out a master administrator with the spec message', async () => {
    await ensureMasterAdmin(ctx.database.db, { email: 'master@ledger.test', password: 'MasterPass123', now: ctx.clock.now() });
    const login = await client(ctx.app).post('/api/auth/admin-login', { email: 'master@ledger.test', password: 'MasterPass123' });
    const master = client(ctx.app, login.json().token);
    const res = await master.get(`/api/monthly-fee-entries?studentId=${studentId}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('School Admin Access Required: this needs a school administrator account.');
    expect((await master.get(`/api/students/${studentId}/fee-status`)).statusCode).toBe(403);
  });

  it('lets a school whose plan has ended read its fees but not record new ones (402)', async () => {
    const db = ctx.database.db;
    await db.update(schools).set({ trialEndsAt: new Date('2025-11-01T00:00:00.000Z') }).where(eq(schools.id, school.schoolId));
    // written behind the app's back: the remembered session check would see it within seconds
    sessionCache.forgetSchool(school.schoolId);
    const before = await receiptCount();
    const write = await school.api.post('/api/fees', { studentId, fees: [{ type: 'exam', amount: 100 }] });
    expect(write.statusCode).toBe(402);
    expect(write.json().requiresPayment).toBe(true);
    expect((await school.api.post(`/api/receipts/${(await school.api.get('/api/fees')).json()[0].id}/cancel`, { reason: 'x' })).statusCode).toBe(402);
    expect((await school.api.get('/api/fees')).statusCode).toBe(200);
    expect((await school.api.get(`/api/students/${studentId}/fee-status`)).statusCode).toBe(200);
    expect((await school.api.post('/api/generate-receipt-number', { prefix: 'FEE' })).statusCode).toBe(200);
    expect(await receiptCount()).toBe(before);
  });
});
