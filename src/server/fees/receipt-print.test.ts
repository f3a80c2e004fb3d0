import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schools, students } from '../db/schema';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { actualTexts } from '../test/pdf-text';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from './test-fixtures';

/**
 * The receipt a parent keeps (item 9): the stored "Received by" on every reprint, father's name,
 * admission number, months grouped per head, the balance still due, the school's code and logo,
 * two copies on one A4 page, and a Unicode font so ₹ and Hindi names print as themselves.
 */

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;
let receiptId: string;

// a 1×1 PNG (red pixel)
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx, { schoolName: 'Saraswati Vidya Mandir' });
  other = await signUpSchool(ctx);
  const db = ctx.database.db;
  await db.update(schools).set({ address: 'Civil Lines, Prayagraj', schoolCode: 'SVM01' }).where(eq(schools.id, school.schoolId));
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  const student = await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'राहुल शर्मा', className: 'Class 5', section: 'A' });
  await db.update(students).set({ fatherName: 'सुरेश शर्मा', admissionNumber: 'ADM-2025-017' }).where(eq(students.id, student.id));
  const saved = await school.api.post('/api/monthly-fee-entries/bulk', {
    studentId: student.id,
    academicYear: '2025-2026',
    paymentMode: 'cash',
    receivedBy: 'Anita Koul',
    entries: ['April', 'May', 'June'].map((month) => ({ month, year: 2025, tuitionFee: 1500, tuitionDate: '2025-11-01' })),
  });
  expect(saved.statusCode).toBe(201);
  receiptId = saved.json().receipt.id;
});
afterAll(() => ctx.close());

async function pdfText(buffer: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(buffer)), { mergePages: true });
  return text;
}

// till November 2025: 8 months × ₹1,500 + yearly heads ₹10,500, less the ₹4,500 paid
const BALANCE = 8 * 1500 + (5000 + 800 + 2500 + 1800 + 400) - 4500;

describe('the printed receipt', () => {
  it('a name typed at print time is never printed: every reprint shows the stored Received by', async () => {
    const typed = await school.api.get(`/api/receipts/${receiptId}/pdf?issuedBy=Somebody%20Else`);
    expect(typed.statusCode).toBe(200);
    const text = await pdfText(typed.rawPayload);
    expect(text).toContain('Received by: Anita Koul');
    expect(text).not.toContain('Somebody Else');
    expect((await school.api.get(`/api/receipts/${receiptId}`)).json().receipt.receivedBy).toBe('Anita Koul');
  });

  it('prints ₹, a Hindi name, both copies, grouped months, father, admission number and the balance due', async () => {
    const res = await school.api.get(`/api/receipts/${receiptId}/pdf`);
    expect(res.statusCode).toBe(200);
    const buffer = res.rawPayload;
    if (process.env.RECEIPT_PNG) {
      // look at it: RECEIPT_PNG=/tmp/out npx vitest run … then open /tmp/out/receipt-1.png
      mkdirSync(process.env.RECEIPT_PNG, { recursive: true });
      writeFileSync(`${process.env.RECEIPT_PNG}/receipt.pdf`, buffer);
      execFileSync('pdftoppm', ['-png', '-r', '60', `${process.env.RECEIPT_PNG}/receipt.pdf`, `${process.env.RECEIPT_PNG}/receipt`]);
    }
    const text = await pdfText(buffer);
    for (const expected of [
      'Saraswati Vidya Mandir',
      'School Code: SVM01',
      'Office copy'.toUpperCase(),
      'Parent copy'.toUpperCase(),
      'MON/2025-26/000001',
      'ADM-2025-017',
      'Class 5 / A',
      'Apr–Jun 2025',
      '₹4,500.00',
      'Rupees Four Thousand Five Hundred Only',
      'Received by: Anita Koul',
      `Balance due as on 15 November 2025: ₹${BALANCE.toLocaleString('en-IN')}.00`,
    ]) {
      expect(text).toContain(expected);
    }
    // the Hindi names as Unicode, in reading order, once per copy
    const shaped = actualTexts(buffer);
    expect(shaped.filter((t) => t === 'राहुल शर्मा')).toHaveLength(2);
    expect(shaped.filter((t) => t === 'सुरेश शर्मा')).toHaveLength(2);
    expect(text).toContain('राहुल श'); // and their glyphs really are on the page
    // two copies of the same receipt on one A4 page
    const pdf = await getDocumentProxy(new Uint8Array(buffer));
    expect(pdf.numPages).toBe(1);
    const page = await pdf.getPage(1);
    const [, , width, height] = page.view;
    expect([Math.round(width!), Math.round(height!)]).toEqual([595, 842]);
    expect(text.split('MON/2025-26/000001').length - 1).toBe(2);
    // the fonts are embedded (no standard Helvetica)
    expect(buffer.toString('latin1')).toMatch(/FontFile2/);
    expect(buffer.toString('latin1')).not.toMatch(/\/BaseFont \/Helvetica/);

  });

  it('the receipt answer carries father, admission number and the balance for the print page', async () => {
    const body = (await school.api.get(`/api/receipts/${receiptId}`)).json();
    expect(body.student).toEqual({ fatherName: 'सुरेश शर्मा', admissionNumber: 'ADM-2025-017' });
    expect(body.balance).toEqual({ asOn: '2025-11-15', amount: `${BALANCE}.00` });
    expect(body.school).toMatchObject({ schoolCode: 'SVM01', hasLogo: false });
  });
});

describe('the school logo', () => {
  it('is uploaded as PNG, served only to its school, printed on the receipt and removable', async () => {
    expect((await school.api.get('/api/school/logo')).statusCode).toBe(404);
    // no token, no logo: it is a school's own record (ruling 23)
    const anonymous = client(ctx.app);
    expect((await anonymous.get('/api/school/logo')).statusCode).toBe(401);
    expect((await anonymous.put('/api/school/logo', { image: PNG.toString('base64') })).statusCode).toBe(401);
    const put = await school.api.put('/api/school/logo', { image: `data:image/png;base64,${PNG.toString('base64')}` });
    expect(put.statusCode).toBe(200);
    expect(put.json().message).toBe('The school logo has been saved.');

    const got = await school.api.get('/api/school/logo');
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(got.rawPayload, PNG)).toBe(0);
    // another school sees no logo: its own, which it has not uploaded
    expect((await other.api.get('/api/school/logo')).statusCode).toBe(404);

    expect((await school.api.get(`/api/receipts/${receiptId}`)).json().school.hasLogo).toBe(true);
    const pdf = (await school.api.get(`/api/receipts/${receiptId}/pdf`)).rawPayload.toString('latin1');
    expect(pdf).toMatch(/\/Subtype \/Image/);

    const del = await school.api.delete('/api/school/logo');
    expect(del.json().message).toBe('The school logo has been removed.');
    expect((await school.api.get('/api/school/logo')).statusCode).toBe(404);
    expect((await school.api.delete('/api/school/logo')).statusCode).toBe(404);
  });

  it('refuses a file that is not PNG or JPEG by its bytes, and one over 300 KB', async () => {
    const gif = await school.api.put('/api/school/logo', { image: Buffer.from('GIF89a-not-really-an-image').toString('base64') });
    expect(gif.statusCode).toBe(400);
    expect(gif.json().error).toBe('The logo must be a PNG or JPEG image.');
    const big = await school.api.put('/api/school/logo', { image: Buffer.concat([PNG, Buffer.alloc(301 * 1024)]).toString('base64') });
    expect(big.statusCode).toBe(400);
    expect(big.json().error).toBe('The logo is larger than 300 KB. Choose a smaller image.');
    const junk = await school.api.put('/api/school/logo', { image: 'not base64!' });
    expect(junk.statusCode).toBe(400);
    expect(junk.json().error).toBe('The logo could not be read. Choose the image again.');
  });
});
