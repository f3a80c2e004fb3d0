import { eq } from 'drizzle-orm';
import Papa from 'papaparse';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatINR, parseRupees } from '../../domain/money';
import { students } from '../db/schema';
import { addStaff } from '../staff/staff-helpers';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';

/**
 * The concession register (issue 16 item 1): who got how much, approved by whom, with the amounts
 * fee status shows to the paisa. The clock stands in November 2025: "till date" is April–November.
 */

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;
let clerk: Awaited<ReturnType<typeof addStaff>>;
let accountant: Awaited<ReturnType<typeof addStaff>>;
let aarav: string;
let zoya: string;
let ownerName: string;

const YEAR = '2025-2026';

async function concession(studentId: string, typeId: string, fromMonth: string, toMonth: string | null, by: { api: typeof school.api }) {
  const res = await by.api.post('/api/concessions', { studentId, typeId, academicYear: YEAR, fromMonth, toMonth, reason: 'As per the fee committee' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function type(name: string, kind: 'percent' | 'amount', value: string, heads: string[]) {
  const res = await school.api.post('/api/concession-types', { name, kind, value, heads });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  other = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedSession(db, { schoolId: other.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 3', tuition: 1000 });
  aarav = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Aarav Shah', className: 'Class 5' })).id;
  zoya = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Zoya Bhat', className: 'Class 3', busFee: 600 })).id;
  await db.update(students).set({ admissionNumber: 'ADM-0042' }).where(eq(students.id, zoya));
  clerk = await addStaff(ctx, school, 'clerk', 'Ravi Kumar');
  accountant = await addStaff(ctx, school, 'accountant', 'Meera Koul');
  ownerName = (await school.api.get('/api/auth/me')).json().user.username;

  const sibling = await type('Sibling', 'percent', '10', ['tuition', 'exam']);
  const staffWard = await type('Staff ward', 'amount', '100', ['tuition']);
  const bus = await type('Bus help', 'amount', '200', ['bus']);
  const rte = await type('RTE', 'percent', '100', ['tuition', 'bus']);

  // Aarav: 10% of tuition and exam from April (the accountant approves), then ₹100 off tuition from September
  const a1 = await concession(aarav, sibling, '2025-04', null, clerk);
  expect((await accountant.api.post(`/api/concessions/${a1}/approve`, { reason: 'Sister in Class 8' })).statusCode).toBe(200);
  const a2 = await concession(aarav, staffWard, '2025-09', null, clerk);
  expect((await accountant.api.post(`/api/concessions/${a2}/approve`, {})).statusCode).toBe(200);
  // Zoya: ₹200 off the bus fee June to December (the owner approves); an RTE request is rejected
  const z1 = await concession(zoya, bus, '2025-06', '2025-12', school);
  expect((await school.api.post(`/api/concessions/${z1}/approve`, {})).statusCode).toBe(200);
  const z2 = await concession(zoya, rte, '2025-04', null, clerk);
  expect((await accountant.api.post(`/api/concessions/${z2}/reject`, { reason: 'Not an RTE admission' })).statusCode).toBe(200);
});
afterAll(() => ctx.close());

describe('the concession register', () => {
  it('lists the approved concessions by class and roll, with the amounts fee status shows, who asked and who approved', async () => {
    const res = await school.api.get(`/api/reports/concession-register?academicYear=${YEAR}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ academicYear: YEAR, status: 'approved', asOfMonth: '2025-11' });
    // Class 3 before Class 5; Aarav's two in the order they were asked for
    expect(body.rows.map((r: { studentName: string; typeName: string }) => `${r.studentName}: ${r.typeName}`)).toEqual(['Zoya Bhat: Bus help', 'Aarav Shah: Sibling', 'Aarav Shah: Staff ward']);
    const [bus, sibling, staffWard] = body.rows;
    // ₹200 a month, June–November so far, June–December in all
    expect(bus).toMatchObject({ className: 'Class 3', section: 'A', rollNumber: 1, admissionNumber: 'ADM-0042', value: '₹200.00 a month', period: 'June 2025 – December 2025', status: 'approved', statusLabel: 'Active', grantedTillDate: '1200.00', grantedInSession: '1400.00', requestedBy: ownerName, decidedBy: ownerName });
    // 10% of ₹1,500 for April–November and of the ₹800 exam fee; all twelve months for the session
    expect(sibling).toMatchObject({ className: 'Class 5', description: '10% of Tuition Fee, Exam Fee', period: 'April 2025 – March 2026', grantedTillDate: '1280.00', grantedInSession: '1880.00', requestedBy: 'Ravi Kumar', decidedBy: 'Meera Koul', decisionReason: 'Sister in Class 8', reason: 'As per the fee committee' });
    // ₹100 off the tuition left after the sibling concession, September onwards
    expect(staffWard).toMatchObject({ grantedTillDate: '300.00', grantedInSession: '700.00', decidedBy: 'Meera Koul' });
    expect(body.totals).toEqual({ count: 3, grantedTillDate: '2780.00', grantedInSession: '3980.00' });

    // to the paisa: each student's concessions add up to what their fee status takes off
    for (const [id, rows] of [[aarav, [sibling, staffWard]], [zoya, [bus]]] as const) {
      const account = (await school.api.get(`/api/students/${id}/fee-status`)).json().account;
      const sum = (pick: (r: { grantedTillDate: string; grantedInSession: string }) => string) => rows.reduce((s, r) => s + parseRupees(pick(r))!, 0);
      expect(sum((r) => r.grantedTillDate)).toBe(parseRupees(account.tillDate.granted));
      expect(sum((r) => r.grantedInSession)).toBe(parseRupees(account.annual.granted));
    }
  });

  it('shows the rejected and the requested with a status filter, granting nothing', async () => {
    const rejected = (await school.api.get(`/api/reports/concession-register?academicYear=${YEAR}&status=rejected`)).json();
    expect(rejected.rows).toHaveLength(1);
    expect(rejected.rows[0]).toMatchObject({ studentName: 'Zoya Bhat', typeName: 'RTE', status: 'rejected', statusLabel: 'Rejected', grantedTillDate: '0.00', grantedInSession: '0.00', decidedBy: 'Meera Koul', decisionReason: 'Not an RTE admission' });
    expect(rejected.totals).toEqual({ count: 1, grantedTillDate: '0.00', grantedInSession: '0.00' });
    const all = (await school.api.get(`/api/reports/concession-register?academicYear=2025-26&status=all`)).json();
    expect(all.totals).toEqual({ count: 4, grantedTillDate: '2780.00', grantedInSession: '3980.00' });
    expect((await school.api.get(`/api/reports/concession-register?academicYear=${YEAR}&status=requested`)).json().rows).toEqual([]);
  });

  it('refuses a missing or malformed session with 400, an unknown one with 404, and a clerk with 403', async () => {
    const missing = await school.api.get('/api/reports/concession-register');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toContain('academicYear');
    const bad = await school.api.get('/api/reports/concession-register.pdf?academicYear=last-year');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('academicYear must be a session such as 2025-2026, not last-year');
    const unknown = await school.api.get('/api/reports/concession-register.csv?academicYear=2031-2032');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('Academic session 2031-2032 was not found');
    const status = await school.api.get(`/api/reports/concession-register?academicYear=${YEAR}&status=maybe`);
    expect(status.statusCode).toBe(400);
    expect(status.json().error).toContain('status must be approved, requested, rejected or all');
    expect((await clerk.api.get(`/api/reports/concession-register?academicYear=${YEAR}`)).statusCode).toBe(403);
    expect((await clerk.api.get(`/api/reports/concession-register.pdf?academicYear=${YEAR}`)).statusCode).toBe(403);
    expect((await accountant.api.get(`/api/reports/concession-register.csv?academicYear=${YEAR}`)).statusCode).toBe(200);
  });

  it('shows another school none of these rows', async () => {
    const theirs = await other.api.get(`/api/reports/concession-register?academicYear=${YEAR}&status=all`);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toMatchObject({ rows: [], totals: { count: 0, grantedTillDate: '0.00', grantedInSession: '0.00' } });
    const pdf = await other.api.get(`/api/reports/concession-register.pdf?academicYear=${YEAR}`);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.rawPayload)), { mergePages: true });
    expect(text).toContain('No concessions in this session.');
    expect(text).not.toContain('Aarav Shah');
  });

  it('prints a PDF with the school, the session, each row, the totals and signature lines', async () => {
    const res = await school.api.get(`/api/reports/concession-register.pdf?academicYear=${YEAR}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    expect(res.headers['content-disposition']).toContain('concession-register-2025-2026.pdf');
    expect(res.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(res.rawPayload)), { mergePages: true });
    expect(text).toContain(school.schoolName);
    expect(text).toContain('Concession register, 2025-2026 session');
    expect(text).toContain('Aarav Shah');
    expect(text).toContain('Zoya Bhat (ADM-0042)');
    expect(text).toContain('Meera Koul');
    expect(text).toContain('3 concessions');
    expect(text).toContain(formatINR(parseRupees('2780.00')!));
    expect(text).toContain(formatINR(parseRupees('3980.00')!));
    expect(text).toContain('Principal (signature and date)');
  });

  it('downloads a CSV with a row per concession and a totals line', async () => {
    const res = await school.api.get(`/api/reports/concession-register.csv?academicYear=${YEAR}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const [header, ...rows] = Papa.parse<string[]>(res.body.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    expect(header!.slice(0, 5)).toEqual(['Class', 'Section', 'Roll', 'Admission No.', 'Student']);
    const col = (name: string) => header!.indexOf(name);
    expect(rows.map((r) => r[col('Student')])).toEqual(['Zoya Bhat', 'Aarav Shah', 'Aarav Shah', '3 concessions']);
    expect(rows[0]![col('Admission No.')]).toBe('ADM-0042');
    expect(rows[1]![col('Granted till date')]).toBe('1280.00');
    expect(rows[1]![col('Decided by')]).toBe('Meera Koul');
    expect(rows[1]![col('Requested on')]).toBe('2025-11-15');
    expect(rows[3]![col('Granted in session')]).toBe('3980.00');
  });

  it('leaves out the months paid before the approval, as fee status does', async () => {
    const db = ctx.database.db;
    const [session] = (await school.api.get('/api/academic-sessions')).json();
    const kabir = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Kabir Lone', className: 'Class 3' })).id;
    const months = ['April', 'May', 'June'].map((month) => ({ month, year: 2025, tuitionFee: 1000, tuitionDate: '2025-11-10' }));
    expect((await school.api.post('/api/monthly-fee-entries/bulk', { studentId: kabir, academicYear: YEAR, entries: months })).statusCode).toBe(201);
    const types = (await school.api.get('/api/concession-types')).json();
    const sibling = (types.types ?? types).find((t: { name: string }) => t.name === 'Sibling').id as string;
    const id = await concession(kabir, sibling, '2025-04', null, clerk);
    expect((await accountant.api.post(`/api/concessions/${id}/approve`, {})).statusCode).toBe(200);

    const row = (await school.api.get(`/api/reports/concession-register?academicYear=${YEAR}`)).json().rows.find((r: { studentName: string }) => r.studentName === 'Kabir Lone');
    const account = (await school.api.get(`/api/students/${kabir}/fee-status`)).json().account;
    // 10% of ₹1,000 for July–November only: April–June were paid in full before the approval
    expect(row).toMatchObject({ grantedTillDate: '500.00', grantedInSession: '900.00' });
    expect(parseRupees(row.grantedTillDate)).toBe(parseRupees(account.tillDate.granted));
    expect(parseRupees(row.grantedInSession)).toBe(parseRupees(account.annual.granted));
  });
});
