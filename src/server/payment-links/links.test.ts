import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentLinks, schoolPaymentSettings } from '../db/schema';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';

/**
 * Payment links (issue 13 items 1–3, ruling 34): the school's collection settings, links and their
 * statuses, and the public link response that reveals nothing beyond that one fee.
 */

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;
let ishaan: string;
let sara: string;
let paidUp: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx, { schoolName: 'Green Valley School' });
  other = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  ishaan = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Ishaan Mir', className: 'Class 5', busFee: 600 })).id;
  sara = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Sara Khan', className: 'Class 5' })).id;
  // a class without a fee structure: nothing is ever due
  paidUp = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Zoya Dar', className: 'Class 9' })).id;
  const april = await school.api.post('/api/monthly-fee-entries/bulk', {
    studentId: ishaan,
    academicYear: '2025-2026',
    entries: [{ month: 'April', year: 2025, tuitionFee: 1500, tuitionDate: '2025-04-10', busFee: 600, busDate: '2025-04-10' }],
  });
  expect(april.statusCode).toBe(201);
});
afterAll(() => ctx.close());

describe('collection settings', () => {
  it('start empty: the sandbox collects in tests, with a webhook address of the school', async () => {
    const res = await school.api.get('/api/settings/payments');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ razorpayKeyId: null, razorpayKeySecretSet: false, webhookSecretSet: false, upiVpa: null, upiPayeeName: null, collectsThrough: 'sandbox' });
    expect(body.webhookUrl).toMatch(/^http:\/\/school\.test\/api\/pay\/webhook\/[A-Za-z0-9_-]{30,}$/);
  });

  it('secrets are stored encrypted and never sent back; omitted keeps, "" clears', async () => {
    const put = await school.api.put('/api/settings/payments', {
      razorpayKeyId: 'rzp_test_Abc123',
      razorpayKeySecret: 'very-secret-key-1234',
      razorpayWebhookSecret: 'hook-secret-5678',
      upiVpa: 'greenvalley@sbi',
      upiPayeeName: 'Green Valley School',
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ razorpayKeyId: 'rzp_test_Abc123', razorpayKeySecretSet: true, webhookSecretSet: true, upiVpa: 'greenvalley@sbi', collectsThrough: 'razorpay' });
    expect(put.body).not.toContain('very-secret-key-1234');
    expect(put.body).not.toContain('hook-secret-5678');
    const get = await school.api.get('/api/settings/payments');
    expect(get.body).not.toContain('very-secret');
    const [row] = await ctx.database.db.select().from(schoolPaymentSettings).where(eq(schoolPaymentSettings.schoolId, school.schoolId));
    expect(row!.razorpayKeySecretEnc).toMatch(/^v1\./);
    expect(row!.razorpayKeySecretEnc).not.toContain('very-secret');
    expect(row!.razorpayWebhookSecretEnc).not.toContain('hook-secret');

    const keep = await school.api.put('/api/settings/payments', { upiPayeeName: 'Green Valley Sr Sec School' });
    expect(keep.json()).toMatchObject({ razorpayKeySecretSet: true, upiPayeeName: 'Green Valley Sr Sec School' });
    const cleared = await school.api.put('/api/settings/payments', { razorpayKeyId: '', razorpayKeySecret: '', razorpayWebhookSecret: '' });
    expect(cleared.json()).toMatchObject({ razorpayKeyId: null, razorpayKeySecretSet: false, webhookSecretSet: false, collectsThrough: 'sandbox', upiVpa: 'greenvalley@sbi' });
  });

  it('refuses a key id without its secret and a malformed UPI id, with a message', async () => {
    const half = await school.api.put('/api/settings/payments', { razorpayKeyId: 'rzp_live_Xyz9' });
    expect(half.statusCode).toBe(400);
    expect(half.json().error).toBe('Enter the Razorpay key id and key secret together (or clear both)');
    const vpa = await school.api.put('/api/settings/payments', { upiVpa: 'not a vpa' });
    expect(vpa.statusCode).toBe(400);
    expect(vpa.json().error).toBe('The UPI id must look like schoolname@bank');
    // nothing half-written
    expect((await school.api.get('/api/settings/payments')).json()).toMatchObject({ razorpayKeyId: null, upiVpa: 'greenvalley@sbi' });
  });

  it('every school has its own settings', async () => {
    expect((await other.api.get('/api/settings/payments')).json()).toMatchObject({ upiVpa: null, razorpayKeySecretSet: false });
  });
});

describe('making links', () => {
  it('defaults the amount to what is due for that fee and month', async () => {
    const res = await school.api.post('/api/payment-links', { studentId: ishaan, feeType: 'tuition', feeMonth: '2025-06' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ amount: '1500.00', feeType: 'tuition', feeMonth: '2025-06', status: 'active' });
    expect(body.linkToken).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
    expect(body.url).toBe(`http://school.test/pay/${body.linkToken}`);
    // 15 days by default
    expect(body.expiresAt).toBe('2025-11-30T06:00:00.000Z');
  });

  it('the whole outstanding: every due month (tuition and bus) and the yearly heads', async () => {
    // Ishaan: Apr paid; May–Nov tuition 7 × 1500 + bus 7 × 600 + yearly 10,500
    const res = await school.api.post('/api/payment-links', { studentId: ishaan, feeType: 'outstanding', expiresInDays: 30 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ amount: '25200.00', feeMonth: null });
    expect(res.json().expiresAt).toBe('2025-12-15T06:00:00.000Z');
  });

  it('a partial amount is fine; more than is due is refused with 409 and writes nothing', async () => {
    const part = await school.api.post('/api/payment-links', { studentId: ishaan, feeType: 'exam', amount: '300.50' });
    expect(part.statusCode).toBe(201);
    expect(part.json().amount).toBe('300.50');
    const before = (await ctx.database.db.select().from(paymentLinks)).length;
    const over = await school.api.post('/api/payment-links', { studentId: ishaan, feeType: 'tuition', feeMonth: '2025-04', amount: '1.00' });
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toBe("Nothing is due for Ishaan Mir's Tuition Fee for April 2025: there is nothing to ask for.");
    const tooMuch = await school.api.post('/api/payment-links', { studentId: ishaan, feeType: 'exam', amount: '800.01' });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().error).toBe('Amount ₹800.01 is more than what is due for this fee (₹800.00). A fee cannot be paid twice.');
    // the amount due travels as the wire's decimal string, as every amount does
    expect(tooMuch.json().due).toBe('800.00');
    expect((await ctx.database.db.select().from(paymentLinks)).length).toBe(before);
  });

  it('refuses fees that cannot be asked for, with messages', async () => {
    const noMonth = await school.api.post('/api/payment-links', { studentId: ishaan, feeType: 'bus' });
    expect(noMonth.json().error).toBe('Choose the month (feeMonth) for the Bus Fee');
    const extra = await school.api.post('/api/payment-links', { studentId: ishaan, feeType: 'library', amount: '100' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().error).toBe('Library Fee has no amount due in the fee structure: collect it at the counter');
    const outside = await school.api.post('/api/payment-links', { studentId: ishaan, feeType: 'tuition', feeMonth: '2026-05' });
    expect(outside.json().error).toBe("May 2026 is not a month of the student's session");
    const long = await school.api.post('/api/payment-links', { studentId: ishaan, feeType: 'exam', expiresInDays: 181 });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toBe('A payment link can be valid for at most 180 days');
    const none = await school.api.post('/api/payment-links', { studentId: paidUp, feeType: 'outstanding' });
    expect(none.statusCode).toBe(409);
    expect(none.json().error).toBe('Zoya Dar has no outstanding fees: there is nothing to ask for.');
  });

  it("another school's student is not found (404), and its links are not listed", async () => {
    const res = await other.api.post('/api/payment-links', { studentId: ishaan, feeType: 'outstanding' });
    expect(res.statusCode).toBe(404);
    expect((await other.api.get('/api/payment-links')).json().links).toEqual([]);
    const [mine] = (await school.api.get('/api/payment-links')).json().links;
    expect((await other.api.post(`/api/payment-links/${mine.id}/cancel`)).statusCode).toBe(404);
    expect((await school.api.get('/api/payment-links')).json().links[0].status).toBe('active');
  });
});

describe('link statuses', () => {
  it('active → cancelled, and active → expired once expiresAt passes; the list filters by status and class', async () => {
    const a = (await school.api.post('/api/payment-links', { studentId: sara, feeType: 'tuition', feeMonth: '2025-05', expiresInDays: 1 })).json();
    const b = (await school.api.post('/api/payment-links', { studentId: sara, feeType: 'tuition', feeMonth: '2025-07' })).json();
    const cancelled = await school.api.post(`/api/payment-links/${b.id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', studentName: 'Sara Khan', className: 'Class 5', rollNumber: 2, amount: '1500.00', receiptNumber: null });
    const pub = await client(ctx.app).get(`/api/pay/${b.linkToken}`);
    expect(pub.json().paymentLink.status).toBe('cancelled');

    // a day later the one-day link has run out (the clock is moved on the row, so the session stays valid)
    await ctx.database.db.update(paymentLinks).set({ expiresAt: new Date('2025-11-15T05:00:00.000Z') }).where(eq(paymentLinks.id, a.id));
    const listed = (await school.api.get(`/api/payment-links?studentId=${sara}`)).json().links;
    const byId = Object.fromEntries(listed.map((l: { id: string; status: string }) => [l.id, l.status]));
    expect(byId).toEqual({ [a.id]: 'expired', [b.id]: 'cancelled' });
    expect((await school.api.get(`/api/payment-links?studentId=${sara}&status=expired`)).json().links).toHaveLength(1);
    expect((await school.api.get(`/api/payment-links?studentId=${sara}&status=active`)).json().links).toHaveLength(0);
    expect((await school.api.get('/api/payment-links?class=Class 9')).json().links).toHaveLength(0);
    expect((await client(ctx.app).get(`/api/pay/${a.linkToken}`)).json().paymentLink.status).toBe('expired');
  });
});

describe('bulk links for defaulters', () => {
  it('one outstanding link per student with dues, reusing an active one; the rest are skipped with a reason', async () => {
    const first = await school.api.post('/api/payment-links/bulk', { studentIds: [sara, paidUp, '00000000-0000-4000-8000-000000000000'] });
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.created.map((c: { studentName: string; amount: string }) => [c.studentName, c.amount])).toEqual([['Sara Khan', '22500.00']]);
    expect(body.skipped).toEqual([
      { studentId: paidUp, studentName: 'Zoya Dar', reason: 'Zoya Dar has no outstanding fees: there is nothing to ask for.' },
      { studentId: '00000000-0000-4000-8000-000000000000', studentName: '', reason: 'Student not found' },
    ]);
    const again = (await school.api.post('/api/payment-links/bulk', { studentIds: [sara] })).json();
    expect(again.created[0].id).toBe(body.created[0].id);
    expect((await school.api.post('/api/payment-links/bulk', { studentIds: Array(101).fill(sara) })).statusCode).toBe(400);
  });
});

describe('the public link response', () => {
  it('has exactly the keys of the seed list and nothing about anyone else', async () => {
    const made = (await school.api.post('/api/payment-links', { studentId: ishaan, feeType: 'tuition', feeMonth: '2025-08' })).json();
    const res = await client(ctx.app).get(`/api/pay/${made.linkToken}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const keys = (o: Record<string, unknown>) => Object.keys(o).sort();
    expect(keys(body)).toEqual(['paymentLink', 'school', 'student']);
    expect(keys(body.school)).toEqual(['name']);
    expect(keys(body.student)).toEqual(['class', 'name', 'rollNumber']);
    expect(keys(body.paymentLink)).toEqual(['amount', 'description', 'expiresAt', 'feeMonth', 'feeType', 'status']);
    expect(body).toEqual({
      school: { name: 'Green Valley School' },
      student: { name: 'Ishaan Mir', class: 'Class 5', rollNumber: 1 },
      paymentLink: { feeType: 'tuition', description: 'Tuition Fee for August 2025', feeMonth: '2025-08', amount: '1500.00', expiresAt: '2025-11-30T06:00:00.000Z', status: 'active' },
    });
    expect(res.body).not.toMatch(/school_id|schoolId|studentId|Sara|bus|600/);
  });

  it('unknown or malformed tokens get the same 404 that reveals nothing', async () => {
    const unknown = await client(ctx.app).get(`/api/pay/${'A'.repeat(43)}`);
    const malformed = await client(ctx.app).get('/api/pay/x');
    for (const res of [unknown, malformed]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Invalid payment link', message: 'Invalid payment link' });
    }
  });

  it('methods: the sandbox gateway and the UPI intent with pa, pn, am, cu, tn and tr', async () => {
    const made = (await school.api.post('/api/payment-links', { studentId: ishaan, feeType: 'tuition', feeMonth: '2025-09' })).json();
    const res = await client(ctx.app).get(`/api/pay/${made.linkToken}/methods`);
    expect(res.statusCode).toBe(200);
    const { gateway, upi } = res.json();
    expect(gateway).toBe('sandbox');
    expect(upi.vpa).toBe('greenvalley@sbi');
    const url = new URL(upi.intentUrl.replace('upi://pay', 'http://upi/pay'));
    expect(upi.intentUrl.startsWith('upi://pay?pa=greenvalley%40sbi&pn=')).toBe(true);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      pa: 'greenvalley@sbi',
      pn: 'Green Valley Sr Sec School',
      am: '1500.00',
      cu: 'INR',
      tn: 'Tuition Fee for September 2025',
    });
    expect(url.searchParams.get('tr')).toMatch(/^SL[0-9A-F]{24}$/);
  });

  it('is rate limited per IP, also under parallel requests', async () => {
    const calls = await Promise.all(
      Array.from({ length: 70 }, () => ctx.app.inject({ method: 'GET', url: `/api/pay/${'B'.repeat(43)}`, remoteAddress: '10.9.8.7' })),
    );
    const codes = calls.map((c) => c.statusCode);
    expect(codes.filter((c) => c === 404)).toHaveLength(60);
    expect(codes.filter((c) => c === 429)).toHaveLength(10);
    // another address is not held by it
    expect((await ctx.app.inject({ method: 'GET', url: `/api/pay/${'B'.repeat(43)}`, remoteAddress: '10.9.8.8' })).statusCode).toBe(404);
  });
});
