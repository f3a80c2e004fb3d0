import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import { extractText, getDocumentProxy } from 'unpdf';
import { formatINR, parseRupees } from '../../domain/money';

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;
let studentId: string;
let siblingId: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  other = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  studentId = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Ishaan Mir', className: 'Class 5', busFee: 600 })).id;
  // April to June paid before the concession is asked for
  const entries = ['April', 'May', 'June'].map((month) => ({ month, year: 2025, tuitionFee: 1500, tuitionDate: '2025-06-10' }));
  expect((await school.api.post('/api/monthly-fee-entries/bulk', { studentId, academicYear: '2025-2026', entries })).statusCode).toBe(201);
  const type = await school.api.post('/api/concession-types', { name: 'Sibling', kind: 'percent', value: '10', heads: ['tuition', 'exam'] });
  expect(type.statusCode).toBe(201);
  siblingId = type.json().id;
});
afterAll(() => ctx.close());

describe('concession types', () => {
  it('describes a type and refuses a bad value, a duplicate name and no heads', async () => {
    const list = await school.api.get('/api/concession-types');
    expect(list.json()).toEqual([expect.objectContaining({ name: 'Sibling', kind: 'percent', value: '10', description: '10% of Tuition Fee, Exam Fee', active: true })]);
    const bad = await school.api.post('/api/concession-types', { name: 'Merit', kind: 'percent', value: '120', heads: ['tuition'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('Percentage must be more than 0 and at most 100');
    expect((await school.api.post('/api/concession-types', { name: 'sibling', kind: 'amount', value: '100', heads: ['bus'] })).statusCode).toBe(409);
    expect((await school.api.post('/api/concession-types', { name: 'Staff', kind: 'amount', value: '100', heads: [] })).statusCode).toBe(400);
    expect(await other.api.get('/api/concession-types').then((r) => r.json())).toEqual([]);
  });
});

describe('a concession from its start month', () => {
  let concessionId: string;

  it('is requested, then approved; months already paid keep their receipts and their due', async () => {
    const req = await school.api.post('/api/concessions', { studentId, typeId: siblingId, academicYear: '2025-2026', fromMonth: '2025-05', reason: 'Elder sister in Class 8' });
    expect(req.statusCode).toBe(201);
    expect(req.json()).toMatchObject({ status: 'requested', statusLabel: 'Awaiting approval', studentName: 'Ishaan Mir', className: 'Class 5', fromMonth: '2025-05', toMonth: null });
    concessionId = req.json().id;

    // nothing changes until approved
    const before = (await school.api.get(`/api/students/${studentId}/fee-status`)).json();
    expect(before.account.months[6].tuition).toMatchObject({ expected: '1500.00', granted: '0.00', outstanding: '1500.00' });

    expect((await other.api.post(`/api/concessions/${concessionId}/approve`, {})).statusCode).toBe(404);
    const ok = await school.api.post(`/api/concessions/${concessionId}/approve`, { reason: 'Checked the sibling record' });
    expect(ok.statusCode).toBe(200);
    // May and June were paid in full before approval; the exam fee was not
    expect(ok.json()).toMatchObject({ status: 'approved', statusLabel: 'Active', excluded: ['tuition:2025-05', 'tuition:2025-06'], decisionReason: 'Checked the sibling record' });
    // July … March: 9 × ₹150, plus 10% of the ₹800 exam fee
    expect(ok.json().amountInSession).toBe('1430.00');
    expect((await school.api.post(`/api/concessions/${concessionId}/approve`, {})).statusCode).toBe(409);
  });

  it('reduces what is due on fee status from its start, never before it', async () => {
    const body = (await school.api.get(`/api/students/${studentId}/fee-status`)).json();
    const [apr, may, , jul] = body.account.months;
    expect(apr.tuition).toMatchObject({ expected: '1500.00', granted: '0.00', paid: '1500.00' });
    expect(may.tuition).toMatchObject({ granted: '0.00', paid: '1500.00', outstanding: '0.00' });
    expect(jul.tuition).toMatchObject({ expected: '1500.00', granted: '150.00', outstanding: '1350.00', grants: [{ name: 'Sibling', amount: '150.00' }] });
    const exam = body.account.yearly.heads.find((h: { head: string }) => h.head === 'exam');
    expect(exam).toMatchObject({ expected: '800.00', granted: '80.00', outstanding: '720.00' });
    // till November: tuition 5 months × ₹1,350, bus 8 × ₹600, yearly 5000 + 720 + 2500 + 1800 + 400
    const owed = `${5 * 1350 + 8 * 600 + 10420}.00`;
    expect(body.account.tillDate).toMatchObject({ granted: '830.00', outstanding: owed });
    expect(body.ledger.outstandingTillDate).toBe(owed);
  });

  it('caps a payment at the reduced due (a fee cannot be paid twice)', async () => {
    const over = await school.api.post('/api/monthly-fee-entries/bulk', { studentId, academicYear: '2025-2026', entries: [{ month: 'July', year: 2025, tuitionFee: 1500, tuitionDate: '2025-11-10' }] });
    expect(over.statusCode).toBe(409);
    const fits = await school.api.post('/api/monthly-fee-entries/bulk', { studentId, academicYear: '2025-2026', entries: [{ month: 'July', year: 2025, tuitionFee: 1350, tuitionDate: '2025-11-10' }] });
    expect(fits.statusCode).toBe(201);
    const jul = (await school.api.get(`/api/students/${studentId}/fee-status`)).json().account.months[3];
    const receipts = (await school.api.get(`/api/students/${studentId}/fee-status`)).json().receipts as Array<{ id: string; lines: Array<{ period: string | null }> }>;
    const july = receipts.find((r) => r.lines.some((l) => l.period === '2025-07'))!;
    const doc = (await school.api.get(`/api/receipts/${july.id}`)).json();
    expect(doc.concessions).toEqual(['Concession: Sibling −₹150.00 (Tuition Fee, July 2025)']);
    // the receipt of April–June, paid before the concession, shows none
    const april = receipts.find((r) => r.lines.some((l) => l.period === '2025-04'))!;
    expect((await school.api.get(`/api/receipts/${april.id}`)).json().concessions).toEqual([]);
    // the bus fee of July is still owed
    expect(jul).toMatchObject({ status: 'Partial', outstanding: '600.00', tuition: { granted: '150.00', paid: '1350.00', outstanding: '0.00' } });
  });

  it('refuses a second concession of the same type and a month outside the session', async () => {
    expect((await school.api.post('/api/concessions', { studentId, typeId: siblingId, academicYear: '2025-2026', fromMonth: '2025-08', reason: 'again' })).statusCode).toBe(409);
    const outside = await school.api.post('/api/concessions', { studentId, typeId: siblingId, academicYear: '2025-2026', fromMonth: '2026-05', reason: 'later' });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().error).toBe('From month May 2026 is not a month of the 2025-2026 session');
  });

  it('lists per student and rejects with a reason', async () => {
    const rte = (await school.api.post('/api/concession-types', { name: 'RTE', kind: 'percent', value: '100', heads: ['tuition', 'bus', 'admission', 'exam', 'books', 'uniform', 'misc'] })).json();
    const req = (await school.api.post('/api/concessions', { studentId, typeId: rte.id, academicYear: '2025-2026', fromMonth: '2025-12', reason: 'RTE seat' })).json();
    expect((await school.api.post(`/api/concessions/${req.id}/reject`, {})).statusCode).toBe(400);
    const rejected = await school.api.post(`/api/concessions/${req.id}/reject`, { reason: 'Not an RTE admission' });
    expect(rejected.json()).toMatchObject({ status: 'rejected', decisionReason: 'Not an RTE admission', amountInSession: expect.any(String) });
    const list = (await school.api.get(`/api/concessions?studentId=${studentId}`)).json();
    expect(list.map((c: { type: { name: string }; status: string }) => `${c.type.name}: ${c.status}`).sort()).toEqual(['RTE: rejected', 'Sibling: approved']);
    expect((await other.api.get(`/api/concessions?studentId=${studentId}`)).json()).toEqual([]);
  });
});

describe('year-end statements', () => {
  it('print one page per student with dues, concessions, fines, payments and balance, single and for a class', async () => {
    const one = await school.api.get(`/api/students/${studentId}/statement.pdf?academicYear=2025-2026`);
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-type']).toContain('application/pdf');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(one.rawPayload)), { mergePages: true });
    expect(text).toContain('Fee statement for the 2025-2026 session');
    expect(text).toContain('Ishaan Mir');
    expect(text).toContain('Tuition Fee');
    expect(text).toContain('Balance for the session');
    const all = await school.api.get('/api/statements.pdf?academicYear=2025-2026&className=Class%205');
    expect(all.statusCode).toBe(200);
    expect((await school.api.get('/api/statements.pdf?academicYear=2025-2026&className=Class%209')).statusCode).toBe(404);
    // one section of a class, as the Reports card asks
    expect((await school.api.get('/api/statements.pdf?academicYear=2025-2026&className=Class%205&section=Q')).statusCode).toBe(404);
    expect((await other.api.get(`/api/students/${studentId}/statement.pdf`)).statusCode).toBe(404);
  });

  it('print the outstanding by class on one page, with the class-wise figures and a line for the principal', async () => {
    const classWise = (await school.api.get('/api/reports/class-wise?academicYear=2025-2026')).json();
    const row = classWise.tables[0].rows.find((r: { className: string }) => r.className === 'Class 5');
    const res = await school.api.get('/api/reports/outstanding-by-class.pdf?academicYear=2025-2026');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(res.rawPayload)), { mergePages: true });
    expect(text).toContain('Outstanding fees by class, 2025-2026 session');
    expect(text).toContain('Class 5');
    expect(text).toContain(formatINR(parseRupees(row.outstanding)!));
    expect(text).toContain(formatINR(parseRupees(classWise.tables[0].totals.outstanding)!));
    expect(text).toContain('Principal (signature and date)');
    // another school prints its own page: none of this school's name or students
    const theirs = await other.api.get('/api/reports/outstanding-by-class.pdf?academicYear=2025-2026');
    const { text: theirText } = await extractText(await getDocumentProxy(new Uint8Array(theirs.rawPayload)), { mergePages: true });
    expect(theirText).not.toContain(classWise.schoolName);
  });
});
