import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schools } from '../db/schema';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { createSession, enrollStudents, promoteStudents, type FixtureSession, type FixtureStudent } from './test-fixtures';

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;
let oldSession: FixtureSession;
let newSession: FixtureSession;
let kids: FixtureStudent[];

const full = { f1: '5', f2: '5', f3: '5', f4: '5', f5: '5', f6: '5', ca: '20', sa: '50' };

beforeAll(async () => {
  ctx = await createTestApp();
  school = await signUpSchool(ctx, { schoolName: 'Green Valley Public School' });
  // a J&K school: its classes start with the JKBOSE list (Urdu, Kashmiri, …) these marks use
  await ctx.database.db.update(schools).set({ board: 'jkbose' }).where(eq(schools.id, school.schoolId));
  other = await signUpSchool(ctx);
  const db = ctx.database.db;
  await db.update(schools).set({ phone: '0194-2456789', address: 'Rajbagh, Srinagar', schoolCode: 'GVPS' }).where(eq(schools.id, school.schoolId));
  oldSession = await createSession(db, { schoolId: school.schoolId, name: '2024-2025' });
  newSession = await createSession(db, { schoolId: school.schoolId, name: '2025-2026', isActive: true });
  kids = await enrollStudents(db, {
    schoolId: school.schoolId,
    session: oldSession,
    className: 'Class 5',
    section: 'B',
    students: [
      { name: 'Aarav Sharma', fatherName: 'Rakesh Sharma', motherName: 'Sunita Sharma', admissionNumber: 'GV-101', dateOfBirth: '2014-06-02', residence: 'Lal Chowk' },
      { name: 'Zoya Bhat', fatherName: 'Imran Bhat' },
      { name: 'Kabir Lone' },
    ],
  });
  const res = await school.api.post('/api/results/bulk', {
    class: 'Class 5',
    section: 'B',
    results: [
      { studentId: kids[0]!.id, academicSession: '2024-2025', subject: 'English', ...full },
      { studentId: kids[0]!.id, academicSession: '2024-2025', subject: 'Mathematics', f1: '4.5', f2: '4', f3: '3', f4: '5', f5: '2', f6: '1', ca: '15.5', sa: '36' },
      { studentId: kids[0]!.id, academicSession: '2024-2025', subject: 'Urdu', sa: '0', remarks: 'Absent for the exam' },
      { studentId: kids[1]!.id, academicSession: '2024-2025', subject: 'English', ca: '10', sa: '22' },
    ],
  });
  expect(res.json().saved).toBe(4);
  // promotion: the students move on to Class 6 in the new session
  await promoteStudents(db, { schoolId: school.schoolId, session: newSession, className: 'Class 6', section: 'A', students: kids });
});
afterAll(() => ctx.close());

const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

describe('GET /api/results', () => {
  it('lists the students of that class and section in that session, by roll, with their marks', async () => {
    const res = await school.api.get(`/api/results?${q({ class: 'Class 5', section: 'B', academicSession: '2024-2025' })}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ academicSession: '2024-2025', class: 'Class 5', section: 'B' });
    expect(body.students.map((s: { name: string; rollNumber: number }) => `${s.rollNumber} ${s.name}`)).toEqual(['1 Aarav Sharma', '2 Zoya Bhat', '3 Kabir Lone']);
    expect(body.subjects).toHaveLength(10);
    expect(body.results).toHaveLength(4);
    expect(body.results.find((r: { subject: string; studentId: string }) => r.subject === 'Mathematics')).toMatchObject({
      studentId: kids[0]!.id,
      fa: '19.5',
      ca: '15.5',
      sa: '36',
      totalMarks: '71',
      percent: '71.0',
      grade: 'B+',
    });
  });

  it("a promoted student's old marks stay with the old session and class", async () => {
    const now = await school.api.get(`/api/results?${q({ class: 'Class 6', section: 'A', academicSession: '2025-2026' })}`);
    expect(now.json().students.map((s: { name: string }) => s.name)).toEqual(['Aarav Sharma', 'Zoya Bhat', 'Kabir Lone']);
    expect(now.json().results).toEqual([]);
    const oldClassNewSession = await school.api.get(`/api/results?${q({ class: 'Class 5', section: 'B', academicSession: '2025-2026' })}`);
    expect(oldClassNewSession.json().students).toEqual([]);
  });

  it('marks for the new session go to the new class, not the old one', async () => {
    const wrong = await school.api.post('/api/results/bulk', {
      class: 'Class 5',
      section: 'B',
      results: [{ studentId: kids[0]!.id, academicSession: '2025-2026', subject: 'English', sa: '10' }],
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('Aarav Sharma — English: not in Class 5 B in 2025-2026');
  });

  it('answers an unknown session with 404 and a bad class with 400', async () => {
    const missing = await school.api.get(`/api/results?${q({ class: 'Class 5', section: 'B', academicSession: '2019-2020' })}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('Academic session 2019-2020 not found');
    const bad = await school.api.get(`/api/results?${q({ class: 'Class 99', section: 'B', academicSession: '2024-2025' })}`);
    expect(bad.statusCode).toBe(400);
    const badSection = await school.api.get(`/api/results?${q({ class: 'Class 5', section: 'Z', academicSession: '2024-2025' })}`);
    expect(badSection.statusCode).toBe(400);
    expect(badSection.json().error).toBe('Sections are A to F');
  });

  it("another school never sees this school's results", async () => {
    await createSession(ctx.database.db, { schoolId: other.schoolId, name: '2024-2025' });
    const res = await other.api.get(`/api/results?${q({ class: 'Class 5', section: 'B', academicSession: '2024-2025' })}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().students).toEqual([]);
    expect(res.json().results).toEqual([]);
    const noSession = await other.api.get(`/api/results?${q({ class: 'Class 6', section: 'A', academicSession: '2025-2026' })}`);
    expect(noSession.statusCode).toBe(404);
  });
});

describe('GET /api/results/marksheet', () => {
  it('gives the Student Report Card: school, student, subjects, marks per subject and the grand total', async () => {
    const res = await school.api.get(`/api/results/marksheet?${q({ class: 'Class 5', section: 'B', rollNumber: 1, academicSession: '2024-2025' })}`);
    expect(res.statusCode).toBe(200);
    const m = res.json();
    expect(m.school).toEqual({ name: 'Green Valley Public School', phone: '0194-2456789', address: 'Rajbagh, Srinagar', schoolCode: 'GVPS' });
    expect(m.student).toEqual({
      id: kids[0]!.id,
      name: 'Aarav Sharma',
      admissionNumber: 'GV-101',
      fatherName: 'Rakesh Sharma',
      motherName: 'Sunita Sharma',
      class: 'Class 5',
      section: 'B',
      rollNumber: 1,
      dateOfBirth: '2014-06-02',
      residence: 'Lal Chowk',
    });
    expect(m.subjects).toHaveLength(10);
    expect(m.resultsBySubject.English).toMatchObject({ fa: '30', total: '100', percent: '100.0', grade: 'A+' });
    expect(m.resultsBySubject.Mathematics).toMatchObject({ f1: '4.5', f6: '1', fa: '19.5', ca: '15.5', sa: '36', total: '71', percent: '71.0', grade: 'B+' });
    expect(m.resultsBySubject.Urdu).toMatchObject({ total: '0', percent: '0.0', grade: 'F' });
    expect(m.resultsBySubject.Hindi).toBeUndefined();
    // grand percent over subjects with a total above zero: (100 + 71) / 200 — Urdu's 0 is not counted
    expect(m.grandTotal).toEqual({ fa: '49.5', ca: '35.5', sa: '86', total: '171', maxMarks: 200, countedSubjects: 2, percent: '85.50', grade: 'A' });
    expect(m.remarks).toBe('Urdu: Absent for the exam');
  });

  it('answers a roll number nobody has with 404, and a missing roll number with 400', async () => {
    const none = await school.api.get(`/api/results/marksheet?${q({ class: 'Class 5', section: 'B', rollNumber: 99, academicSession: '2024-2025' })}`);
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toBe('Student not found');
    const missing = await school.api.get(`/api/results/marksheet?${q({ class: 'Class 5', section: 'B', academicSession: '2024-2025' })}`);
    expect(missing.statusCode).toBe(400);
  });

  it("another school cannot open this school's marksheet", async () => {
    const res = await other.api.get(`/api/results/marksheet?${q({ class: 'Class 5', section: 'B', rollNumber: 1, academicSession: '2024-2025' })}`);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Aarav');
  });
});
