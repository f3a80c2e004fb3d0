import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySchoolBalances } from '../balances/verify';
import { concessions, fineWaivers, openingBalances, receiptLines } from '../db/schema';
import { seedSession, seedStructure, seedStudents } from '../fees/test-fixtures';
import { addStaff } from '../staff/staff-helpers';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';

/**
 * The session-5 write paths under simultaneous requests (like src/server/fees/concurrency.test.ts):
 * two people pressing the same button at once, or a double click over a slow network. Each pair
 * must have exactly one effect, the other a clear 409, and the running balances must stay what a
 * full recomputation gives. On PostgreSQL (DATABASE_URL set) the pairs run on separate connections
 * at the same time; each write path takes the student's ledger lock and re-reads what it changes
 * under it, which is what these tests prove.
 */

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let accountant: Awaited<ReturnType<typeof addStaff>>;
let kids: string[];

const YEAR = '2025-2026';
/** ₹10 a day past the 15th, at most ₹100 a month, on tuition: on 22 May, April and May each owe ₹100 */
const RULE = { enabled: true, dueDay: 10, graceDays: 5, mode: 'per_day', amount: '10', capPerMonth: '100', capPerSession: null, heads: ['tuition'] };

const pair = <T>(make: () => Promise<T>) => Promise.all([make(), make()]);
const codes = (results: Array<{ statusCode: number }>) => results.map((r) => r.statusCode).sort();
const feeStatus = async (studentId: string) => (await school.api.get(`/api/students/${studentId}/fee-status`)).json();
const clean = async () => expect((await verifySchoolBalances(ctx.database.db, school.schoolId)).differences).toEqual([]);

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-05-22T06:00:00.000Z') });
  school = await signUpSchool(ctx, { selectedPlan: 'premium' });
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 5', tuition: 1500 });
  const rows = await seedStudents(db, {
    schoolId: school.schoolId,
    sessionId: session.id,
    people: ['Kabir Lone', 'Ishaan Mir', 'Sana Wani', 'Aarav Shah', 'Zoya Bhat'].map((name) => ({ name, className: 'Class 5' })),
  });
  kids = rows.map((r) => r.id);
  accountant = await addStaff(ctx, school, 'accountant', 'Meena Shah');
  expect((await school.api.put('/api/fee-rules/late-fine', RULE)).statusCode).toBe(200);
});
afterAll(() => ctx.close());

describe('simultaneous session-5 writes', () => {
  it('a cheque bounced twice at once is cancelled once, charged once, and in the cancellation register once', async () => {
    const studentId = kids[0]!;
    const before = (await feeStatus(studentId)).account.tillDate;
    const paid = await school.api.post('/api/fees', { studentId, fees: [{ type: 'monthly', amount: '1500' }], paymentMode: 'cheque', chequeNumber: '004512', bankName: 'J&K Bank' });
    expect(paid.statusCode, paid.body).toBe(201);
    const receiptId: string = paid.json().receipt.id;

    const results = await pair(() => accountant.api.post(`/api/cheques/${receiptId}/bounce`, { reason: 'Insufficient funds', bankCharges: '250' }));
    expect(codes(results)).toEqual([200, 409]);
    const refused = results.find((r) => r.statusCode === 409)!;
    // whichever read second, the refusal names what happened: the receipt already cancelled, or the cheque already bounced
    expect(refused.json().error).toMatch(/^Receipt FEE\/2025-26\/\d{6} was already cancelled on |^A cheque that is bounced cannot be marked bounced/);
    expect(results.find((r) => r.statusCode === 200)!.json()).toMatchObject({ status: 'bounced', bankCharges: '250.00' });

    // the dues are back to what they were before the cheque, and ₹250 of bank charges is owed once
    const after = await feeStatus(studentId);
    expect(after.account.tillDate).toEqual(before);
    expect(after.previousBalance).toMatchObject({ balance: '250.00' });
    const charges = await ctx.database.db.select().from(openingBalances).where(and(eq(openingBalances.schoolId, school.schoolId), eq(openingBalances.studentId, studentId)));
    expect(charges.map((c) => Number(c.amountPaise))).toEqual([25_000]);
    const register = (await school.api.get('/api/reports/cancellations?from=2025-05-22&to=2025-05-22')).json();
    expect(register.rows.filter((r: { receiptId: string }) => r.receiptId === receiptId)).toEqual([
      expect.objectContaining({ amount: '1500.00', paymentMode: 'cheque', cancelledBy: 'Meena Shah', bounced: true }),
    ]);
    await clean();
  });

  it('a concession approved twice at once is approved once and counted once on fee status', async () => {
    const studentId = kids[1]!;
    const type = await school.api.post('/api/concession-types', { name: 'Sibling', kind: 'percent', value: '10', heads: ['tuition'] });
    const asked = await school.api.post('/api/concessions', { studentId, typeId: type.json().id, academicYear: YEAR, fromMonth: '2025-04', reason: 'Elder sister in Class 8' });
    expect(asked.statusCode, asked.body).toBe(201);
    const id: string = asked.json().id;

    const results = await pair(() => accountant.api.post(`/api/concessions/${id}/approve`, { reason: 'Checked' }));
    expect(codes(results)).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().error).toBe('This concession was already approved');
    expect(results.find((r) => r.statusCode === 200)!.json()).toMatchObject({ status: 'approved', amountInSession: '1800.00' });

    // 10% of ₹1,500 for April and May so far, twelve months in all: once, not twice
    const account = (await feeStatus(studentId)).account;
    expect(account.tillDate.granted).toBe('300.00');
    expect(account.annual.granted).toBe('1800.00');
    expect(account.months[0].tuition).toMatchObject({ granted: '150.00', outstanding: '1350.00', grants: [{ name: 'Sibling', amount: '150.00' }] });
    const rows = await ctx.database.db.select().from(concessions).where(eq(concessions.id, id));
    expect(rows.map((r) => r.status)).toEqual(['approved']);
    await clean();
  });

  it('the same late fine paid twice at once is collected once: the second is refused, nothing is kept beyond what is due', async () => {
    const studentId = kids[2]!;
    expect((await feeStatus(studentId)).fine).toMatchObject({ accrued: '200.00', due: '200.00' });

    // two counters take the whole fine at the same moment
    const whole = await pair(() => school.api.post('/api/fees', { studentId, fees: [{ type: 'fine', amount: '200' }] }));
    expect(codes(whole)).toEqual([201, 409]);
    expect(whole.find((r) => r.statusCode === 409)!.json().error).toContain('Late Fine: only ₹0.00 is due today');

    // and two parts that together exceed what is left: one fits, the other is refused
    const studentB = kids[3]!;
    const parts = await pair(() => school.api.post('/api/fees', { studentId: studentB, fees: [{ type: 'fine', amount: '150' }] }));
    expect(codes(parts)).toEqual([201, 409]);
    expect(parts.find((r) => r.statusCode === 409)!.json().error).toContain('Late Fine: only ₹50.00 is due today');

    for (const [id, paid, due] of [[studentId, '200.00', '0.00'], [studentB, '150.00', '50.00']] as const) {
      const status = await feeStatus(id);
      expect(status.account.finePaid).toBe(paid);
      expect(status.fine).toMatchObject({ accrued: '200.00', paid, due });
      const lines = await ctx.database.db.select().from(receiptLines).where(and(eq(receiptLines.studentId, id), eq(receiptLines.head, 'fine')));
      expect(lines).toHaveLength(1);
    }
    // ruling 27's credit is for money that arrived anyway (online); a counter payment beyond the due is refused, so no credit appears
    expect((await feeStatus(studentId)).credit).toBe('0.00');
    await clean();
  });

  it('a fine waiver approved twice at once is one approved waiver, the fine waived once', async () => {
    const studentId = kids[4]!;
    const asked = await school.api.post('/api/fine-waivers', { studentId, academicYear: YEAR, instalment: '2025-04', reason: 'Parent was in hospital' });
    expect(asked.statusCode, asked.body).toBe(201);
    const id: string = asked.json().id;

    const results = await pair(() => accountant.api.post(`/api/fine-waivers/${id}/approve`, {}));
    expect(codes(results)).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().error).toBe('This waiver was already approved');
    expect(results.find((r) => r.statusCode === 200)!.json()).toMatchObject({ status: 'approved', amount: '100.00', decidedBy: 'Meena Shah' });

    const rows = await ctx.database.db.select().from(fineWaivers).where(and(eq(fineWaivers.schoolId, school.schoolId), eq(fineWaivers.studentId, studentId)));
    expect(rows.map((r) => `${r.instalment} ${r.status}`)).toEqual(['2025-04 approved']);
    expect((await feeStatus(studentId)).fine).toMatchObject({ accrued: '200.00', waived: '100.00', due: '100.00' });
    await clean();
  });

  it('a plan and a fee structure changed while the counter takes receipts leave every balance equal to the ledger', async () => {
    // the class's whole dues move while receipts of its students are being written: whichever
    // finishes last, the stored balances must be those of the new dues and every receipt
    const receipt = (studentId: string) => accountant.api.post('/api/fees', { studentId, fees: [{ type: 'monthly', amount: '500' }], paymentMode: 'cash' });
    const plan = school.api.put('/api/instalment-plans/Class 5', { kind: 'quarterly', dueDay: 10 });
    const paid = await Promise.all([receipt(kids[2]!), plan, receipt(kids[3]!), receipt(kids[4]!)]);
    expect(paid.map((r) => r.statusCode), paid.map((r) => r.body).join('\n')).toEqual([201, 200, 201, 201]);
    await clean();
    // April–June fall due together in the quarter: ₹4,500 of tuition, less the ₹500 just paid
    expect((await feeStatus(kids[3]!)).account.tillDate).toMatchObject({ monthlyExpected: '4500.00' });

    const [structure] = (await school.api.get('/api/class-fee-structures')).json().filter((s: { className: string }) => s.className === 'Class 5');
    const body = { className: 'Class 5', academicYear: YEAR, monthlyTuitionFee: '1800', yearlyFee: '0', examFee: '0', booksFee: '0', uniformFee: '0', miscFee: '0' };
    const changed = await Promise.all([receipt(kids[2]!), school.api.put(`/api/class-fee-structures/${structure.id}`, body), receipt(kids[4]!)]);
    expect(changed.map((r) => r.statusCode), changed.map((r) => r.body).join('\n')).toEqual([201, 200, 201]);
    await clean();
    expect((await feeStatus(kids[3]!)).account.tillDate).toMatchObject({ monthlyExpected: '5400.00' });
  });
});
