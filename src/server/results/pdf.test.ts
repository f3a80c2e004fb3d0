import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schools } from '../db/schema';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { createSession, enrollStudents, type FixtureStudent } from './test-fixtures';

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let kids: FixtureStudent[];

beforeAll(async () => {
  ctx = await createTestApp();
  school = await signUpSchool(ctx, { schoolName: 'Dal Lake Model School' });
  const db = ctx.database.db;
  await db.update(schools).set({ phone: '0194-2470011', address: 'Boulevard Road, Srinagar', schoolCode: 'DLMS' }).where(eq(schools.id, school.schoolId));
  const session = await createSession(db, { schoolId: school.schoolId, name: '2025-2026', isActive: true });
  kids = await enrollStudents(db, {
    schoolId: school.schoolId,
    session,
    className: 'Class 8',
    section: 'C',
    students: [
      { name: 'Aarav Sharma', fatherName: 'Rakesh Sharma', motherName: 'Sunita Sharma', admissionNumber: 'DL-11', dateOfBirth: '2012-01-15', residence: 'Nishat' },
      { name: 'Zoya Bhat' },
      { name: 'Kabir Lone' },
      { name: 'Ishaan Mir' },
    ],
  });
  const results = kids.flatMap((kid, i) =>
    ['English', 'Mathematics', 'Science'].map((subject) => ({
      studentId: kid.id,
      academicSession: '2025-2026',
      subject,
      f1: '5', f2: '4.5', f3: '4', f4: '5', f5: '5', f6: '3',
      ca: String(10 + i),
      sa: String(30 + i),
    })),
  );
  expect((await school.api.post('/api/results/bulk', { results })).json().saved).toBe(12);
});
afterAll(() => ctx.close());

async function readPdf(body: Buffer) {
  const pdf = await getDocumentProxy(new Uint8Array(body));
  const { totalPages, text } = await extractText(pdf, { mergePages: false });
  return { totalPages, pages: text as string[] };
}

const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

describe('marksheet PDFs', () => {
  it("one student's marksheet: one A4 landscape page with the report card's text", async () => {
    const res = await school.api.get(`/api/results/marksheet.pdf?${q({ class: 'Class 8', section: 'C', rollNumber: 1, academicSession: '2025-2026' })}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="marksheet-Class-8-C-roll-1-2025-2026.pdf"');
    const pdf = await getDocumentProxy(new Uint8Array(res.rawPayload));
    const page = await pdf.getPage(1);
    const [, , width, height] = page.view;
    // A4 landscape: 297 × 210 mm
    expect(Math.round(width!)).toBe(842);
    expect(Math.round(height!)).toBe(595);
    const { totalPages, pages } = await readPdf(res.rawPayload);
    expect(totalPages).toBe(1);
    const text = pages[0]!;
    for (const expected of [
      'Dal Lake Model School', 'Boulevard Road, Srinagar', 'Phone: 0194-2470011', 'School Code: DLMS', 'Student Report Card',
      'Academic Session 2025-2026', 'Aarav Sharma', 'Rakesh Sharma', 'Sunita Sharma', 'DL-11', 'Class 8 C', '15/01/2012', 'Nishat',
      'F1 (5)', 'FA (30)', 'CA (20)', 'SA (50)', 'Total (100)', 'Grand Total', 'Remarks:', 'Exam Incharge', 'Checker', 'Principal',
    ]) {
      expect(text).toContain(expected);
    }
    // each subject: FA 26.5 + CA 10 + SA 30 = 66.5 (B); grand 199.5 / 300 = 66.50%
    expect(text).toContain('66.5%');
    expect(text).toContain('199.5 / 300');
    expect(text).toContain('66.50%');
  });

  it('the whole class: one page per student in roll order, each with its own total', async () => {
    const res = await school.api.get(`/api/results/marksheets.pdf?${q({ class: 'Class 8', section: 'C', academicSession: '2025-2026' })}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="marksheets-Class-8-C-2025-2026.pdf"');
    const { totalPages, pages } = await readPdf(res.rawPayload);
    expect(totalPages).toBe(4);
    expect(pages.map((p) => ['Aarav Sharma', 'Zoya Bhat', 'Kabir Lone', 'Ishaan Mir'].find((n) => p.includes(n)))).toEqual([
      'Aarav Sharma', 'Zoya Bhat', 'Kabir Lone', 'Ishaan Mir',
    ]);
    // Ishaan (roll 4): 26.5 + 13 + 33 = 72.5 per subject, 217.5 of 300
    expect(pages[3]).toContain('217.5 / 300');
    expect(pages[3]).toContain('72.50%');
  });

  it('an empty class answers 404 with the empty prompt', async () => {
    const res = await school.api.get(`/api/results/marksheets.pdf?${q({ class: 'Class 2', section: 'A', academicSession: '2025-2026' })}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('No students found for the selected class and section');
  });

  it("another school cannot download this school's marksheets", async () => {
    const other = await signUpSchool(ctx);
    await createSession(ctx.database.db, { schoolId: other.schoolId, name: '2025-2026', isActive: true });
    const one = await other.api.get(`/api/results/marksheet.pdf?${q({ class: 'Class 8', section: 'C', rollNumber: 1, academicSession: '2025-2026' })}`);
    expect(one.statusCode).toBe(404);
    const all = await other.api.get(`/api/results/marksheets.pdf?${q({ class: 'Class 8', section: 'C', academicSession: '2025-2026' })}`);
    expect(all.statusCode).toBe(404);
    expect(all.body).not.toContain('Aarav');
  });

  it("prints the school's logo from Settings at the top of the report card", async () => {
    const url = `/api/results/marksheet.pdf?${q({ class: 'Class 8', section: 'C', rollNumber: 1, academicSession: '2025-2026' })}`;
    expect((await school.api.get(url)).rawPayload.toString('latin1')).not.toMatch(/\/Subtype \/Image/);
    // a 1×1 PNG
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';
    expect((await school.api.put('/api/school/logo', { image: png })).statusCode).toBe(200);
    expect((await school.api.get(url)).rawPayload.toString('latin1')).toMatch(/\/Subtype \/Image/);
  });
});
