import { eq, sql } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, receiptLines, receipts, schools } from '../db/schema';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from './test-fixtures';

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;
let studentId: string;
let receiptId: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx, { schoolName: 'Dal Lake Model School' });
  other = await signUpSchool(ctx);
  const db = ctx.database.db;
  await db.update(schools).set({ address: 'Boulevard Road, Srinagar', schoolCode: 'DLMS' }).where(eq(schools.id, school.schoolId));
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  studentId = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Zoya Bhat', className: 'Class 5', section: 'B', busFee: 600 })).id;
  const saved = await school.api.post('/api/monthly-fee-entries/bulk', {
    studentId,
    academicYear: '2025-2026',
    paymentMode: 'cheque',
    chequeNumber: '004512',
    bankName: 'J&K Bank',
    entries: ['April', 'May', 'June'].map((month) => ({ month, year: 2025, tuitionFee: 1500, tuitionDate: '2025-11-01', busFee: 600, busDate: '2025-11-01' })),
  });
  receiptId = saved.json().receipt.id;
});
afterAll(() => ctx.close());

async function pdfText(buffer: Buffer): Promise<string> {
  const doc = await getDocumentProxy(new Uint8Array(buffer));
  const { text } = await extractText(doc, { mergePages: true });
  return text;
}

describe('receipts', () => {
  it('shows one receipt with the school details for printing; another school gets 404', async () => {
    const res = await school.api.get(`/api/receipts/${receiptId}`);
    expect(res.statusCode).toBe(200);
    const { receipt, school: info } = res.json();
    expect(info).toMatchObject({ name: 'Dal Lake Model School', address: 'Boulevard Road, Srinagar', schoolCode: 'DLMS' });
    expect(receipt).toMatchObject({ receiptNumber: 'MON/2025-26/000001', section: 'B', rollNumber: 1, total: '6300.00', chequeNumber: '004512', bankName: 'J&K Bank' });
    expect(receipt.totalInWords).toBe('Rupees Six Thousand Three Hundred Only');
    expect((await other.api.get(`/api/receipts/${receiptId}`)).statusCode).toBe(404);
    expect((await school.api.get('/api/receipts/not-a-uuid')).statusCode).toBe(404);
    expect((await other.api.get(`/api/students/${studentId}/receipts`)).statusCode).toBe(404);
  });

  it('prints a PDF a parent can keep', async () => {
    const res = await school.api.get(`/api/receipts/${receiptId}/pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="receipt-MON-2025-26-000001.pdf"');
    const text = await pdfText(res.rawPayload);
    for (const expected of [
      'Dal Lake Model School',
      'Boulevard Road, Srinagar',
      'School Code: DLMS',
      'FEE RECEIPT',
      'MON/2025-26/000001',
      '15/11/2025',
      'Zoya Bhat',
      'Class 5',
      'Class 5 / B',
      'Tuition Fee',
      'Apr–Jun 2025',
      'Bus Fee',
      '₹4,500.00',
      '₹1,800.00',
      '₹6,300.00',
      'Rupees Six Thousand Three Hundred Only',
      'Cheque No. 004512, J&K Bank',
      `Received by: ${(await school.api.get(`/api/receipts/${receiptId}`)).json().receipt.receivedBy}`,
    ]) {
      expect(text).toContain(expected);
    }
    expect((await other.api.get(`/api/receipts/${receiptId}/pdf`)).statusCode).toBe(404);
  });

  it('cancels with a reason: the receipt stays visible, its lines stop counting, and a second cancel is refused', async () => {
    const before = (await school.api.get(`/api/students/${studentId}/outstanding-fees`)).json();
    const noReason = await school.api.post(`/api/receipts/${receiptId}/cancel`, { reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error).toBe('Please enter a reason for cancelling this receipt');
    const foreign = await other.api.post(`/api/receipts/${receiptId}/cancel`, { reason: 'not yours' });
    expect(foreign.statusCode).toBe(404);

    const res = await school.api.post(`/api/receipts/${receiptId}/cancel`, { reason: 'Cheque bounced' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Receipt MON/2025-26/000001 has been cancelled.');
    expect(res.json().receipt).toMatchObject({ status: 'cancelled', cancelReason: 'Cheque bounced' });

    const after = (await school.api.get(`/api/students/${studentId}/outstanding-fees`)).json();
    // the three months (₹2,100 each) are owed again
    const paise = (s: string) => Math.round(Number(s.replace('.', '')));
    expect(paise(after.total) - paise(before.total)).toBe(3 * 210_000);

    const history = (await school.api.get(`/api/students/${studentId}/receipts`)).json();
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ receiptNumber: 'MON/2025-26/000001', status: 'cancelled' });
    expect((await school.api.get(`/api/monthly-fee-entries?studentId=${studentId}&academicYear=2025-2026`)).json()).toEqual([]);

    const twice = await school.api.post(`/api/receipts/${receiptId}/cancel`, { reason: 'again' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe('Receipt MON/2025-26/000001 was already cancelled on 15/11/2025.');

    const pdf = await pdfText((await school.api.get(`/api/receipts/${receiptId}/pdf`)).rawPayload);
    expect(pdf).toContain('CANCELLED');
    expect(pdf).toContain('Cancelled: Cheque bounced');

    const logged = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'receipt.cancel'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ entityId: receiptId, userId: school.userId });
    expect(logged[0]!.before).toMatchObject({ status: 'live', totalPaise: 630_000 });
    expect(logged[0]!.after).toMatchObject({ status: 'cancelled', reason: 'Cheque bounced' });

    // the months can be entered again now
    const again = await school.api.post('/api/monthly-fee-entries/bulk', {
      studentId,
      academicYear: '2025-2026',
      entries: [{ month: 'April', year: 2025, tuitionFee: 1500, tuitionDate: '2025-11-14' }],
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().receipt.receiptNumber).toBe('MON/2025-26/000002');
  });

  it('the database itself refuses to edit or delete saved money', async () => {
    const db = ctx.database.db;
    await expect(db.execute(sql`update ${receiptLines} set amount_paise = 1 where receipt_id = ${receiptId}`)).rejects.toThrow();
    await expect(db.execute(sql`delete from ${receiptLines} where receipt_id = ${receiptId}`)).rejects.toThrow();
    await expect(db.execute(sql`delete from ${receipts} where id = ${receiptId}`)).rejects.toThrow();
    await expect(db.execute(sql`update ${receipts} set status = 'live', cancelled_at = null, cancel_reason = null where id = ${receiptId}`)).rejects.toThrow();
    await expect(db.execute(sql`update ${receipts} set total_paise = 1 where id = ${receiptId}`)).rejects.toThrow();
  });
});
