import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, results, schools } from '../db/schema';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { countResults } from './queries';
import { createSession, enrollStudents, type FixtureSession, type FixtureStudent } from './test-fixtures';

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let session: FixtureSession;
let classFive: FixtureStudent[];
let classSix: FixtureStudent[];

beforeAll(async () => {
  ctx = await createTestApp();
  school = await signUpSchool(ctx);
  // a J&K school: its classes start with the JKBOSE list (Urdu, Kashmiri, …) these marks use
  await ctx.database.db.update(schools).set({ board: 'jkbose' }).where(eq(schools.id, school.schoolId));
  const db = ctx.database.db;
  session = await createSession(db, { schoolId: school.schoolId, name: '2025-2026', isActive: true });
  classFive = await enrollStudents(db, {
    schoolId: school.schoolId,
    session,
    className: 'Class 5',
    students: [{ name: 'Aarav Sharma' }, { name: 'Zoya Bhat' }, { name: 'Kabir Lone' }],
  });
  classSix = await enrollStudents(db, { schoolId: school.schoolId, session, className: 'Class 6', students: [{ name: 'Ishaan Mir' }] });
});
afterAll(() => ctx.close());

type Marks = Partial<Record<'f1' | 'f2' | 'f3' | 'f4' | 'f5' | 'f6' | 'ca' | 'sa', string | number | null>>;
const entry = (student: FixtureStudent, subject: string, marks: Marks, extra: Record<string, unknown> = {}) => ({
  studentId: student.id,
  academicSession: '2025-2026',
  subject,
  f1: '', f2: '', f3: '', f4: '', f5: '', f6: '', ca: '', sa: '',
  fa: '', totalMarks: '', grade: '', remarks: '',
  ...marks,
  ...extra,
});

const readClass = async (className = 'Class 5', section = 'A') => {
  const res = await school.api.get(`/api/results?class=${encodeURIComponent(className)}&section=${section}&academicSession=2025-2026`);
  expect(res.statusCode).toBe(200);
  return res.json() as {
    students: Array<{ id: string; name: string; rollNumber: number }>;
    subjects: Array<{ id: string; name: string }>;
    results: Array<Record<string, string | null>>;
  };
};

describe('POST /api/results/bulk', () => {
  it('stores marks with halves and computes FA, total and grade on the server, ignoring client figures', async () => {
    const res = await school.api.post('/api/results/bulk', {
      class: 'Class 5',
      section: 'A',
      results: [
        entry(classFive[0]!, 'Mathematics', { f1: '5', f2: '4.5', f3: '4', f4: '3.5', f5: '5', f6: '5', ca: '18.5', sa: '44' }, { fa: '30', totalMarks: '100', grade: 'A+' }),
        entry(classFive[0]!, 'English', { f1: 5, f2: 5, f3: 5, f4: 5, f5: 5, f6: 5, ca: 20, sa: 50 }),
        entry(classFive[1]!, 'Mathematics', { f1: '1', ca: '5', sa: '10' }),
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, saved: 3, unchanged: 0, validateOnly: false });

    const data = await readClass();
    const aaravMaths = data.results.find((r) => r.studentId === classFive[0]!.id && r.subject === 'Mathematics')!;
    expect(aaravMaths).toMatchObject({ f1: '5', f2: '4.5', f3: '4', f4: '3.5', f5: '5', f6: '5', fa: '27', ca: '18.5', sa: '44', totalMarks: '89.5', percent: '89.5', grade: 'A' });
    const aaravEnglish = data.results.find((r) => r.studentId === classFive[0]!.id && r.subject === 'English')!;
    expect(aaravEnglish).toMatchObject({ fa: '30', totalMarks: '100', grade: 'A+', percent: '100.0' });
    const zoya = data.results.find((r) => r.studentId === classFive[1]!.id)!;
    expect(zoya).toMatchObject({ f1: '1', f2: null, fa: '1', ca: '5', sa: '10', totalMarks: '16', grade: 'F' });
  });

  it('is idempotent: re-sending the same marks writes nothing', async () => {
    const before = await ctx.database.db.select().from(results).where(eq(results.studentId, classFive[0]!.id));
    const res = await school.api.post('/api/results/bulk', {
      results: [
        entry(classFive[0]!, 'Mathematics', { f1: '5.0', f2: '4.5', f3: '4', f4: '3.5', f5: '5', f6: '5', ca: '18.50', sa: '44' }),
        entry(classFive[0]!, 'english', { f1: 5, f2: 5, f3: 5, f4: 5, f5: 5, f6: 5, ca: 20, sa: 50 }),
      ],
    });
    expect(res.json()).toEqual({ success: true, saved: 0, unchanged: 2, validateOnly: false });
    const after = await ctx.database.db.select().from(results).where(eq(results.studentId, classFive[0]!.id));
    expect(after.map((r) => r.updatedAt.toISOString()).sort()).toEqual(before.map((r) => r.updatedAt.toISOString()).sort());
  });

  it('stores only the changed entries of a mixed request and audits them', async () => {
    ctx.clock.advance(60_000);
    const res = await school.api.post('/api/results/bulk', {
      results: [
        entry(classFive[0]!, 'Mathematics', { f1: '5', f2: '4.5', f3: '4', f4: '3.5', f5: '5', f6: '5', ca: '18.5', sa: '44' }),
        entry(classFive[1]!, 'Mathematics', { f1: '1', ca: '5', sa: '12.5' }),
      ],
    });
    expect(res.json()).toMatchObject({ saved: 1, unchanged: 1 });
    const data = await readClass();
    expect(data.results.find((r) => r.studentId === classFive[1]!.id && r.subject === 'Mathematics')).toMatchObject({ sa: '12.5', totalMarks: '18.5' });

    const rows = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.schoolId, school.schoolId), eq(auditLog.action, 'results.bulk_save')));
    const last = rows.at(-1)!.after as { saved: number; changes: Array<{ student: string; subject: string; before: { sa: number }; after: { sa: number } }> };
    expect(last.saved).toBe(1);
    expect(last.changes).toEqual([expect.objectContaining({ student: 'Zoya Bhat', subject: 'Mathematics', before: expect.objectContaining({ sa: 20 }), after: expect.objectContaining({ sa: 25 }) })]);
  });

  it('does not create rows for entries left entirely blank', async () => {
    const res = await school.api.post('/api/results/bulk', { results: [entry(classFive[2]!, 'Urdu', {})] });
    expect(res.json()).toMatchObject({ saved: 0, unchanged: 1 });
  });

  it('validateOnly checks and counts without storing', async () => {
    const count = await countResults(ctx.database.db, { schoolId: school.schoolId });
    const res = await school.api.post('/api/results/bulk', { validateOnly: true, results: [entry(classFive[2]!, 'Urdu', { sa: '30' })] });
    expect(res.json()).toEqual({ success: true, saved: 1, unchanged: 0, validateOnly: true });
    expect(await countResults(ctx.database.db, { schoolId: school.schoolId })).toBe(count);
  });

  it('keeps stored remarks when an entry leaves them out, and sets them when given', async () => {
    await school.api.post('/api/results/bulk', { results: [entry(classFive[2]!, 'Science', { sa: '40' }, { remarks: 'Very attentive in the lab' })] });
    const { remarks: _omit, ...withoutRemarks } = entry(classFive[2]!, 'Science', { sa: '41' });
    const res = await school.api.post('/api/results/bulk', { results: [withoutRemarks] });
    expect(res.json()).toMatchObject({ saved: 1 });
    const data = await readClass();
    expect(data.results.find((r) => r.studentId === classFive[2]!.id && r.subject === 'Science')).toMatchObject({ sa: '41', remarks: 'Very attentive in the lab' });
  });

  describe('bad input: a 400 naming student, subject and field, and nothing stored', () => {
    const cases: Array<[string, () => unknown, string]> = [
      ['CA above 20', () => entry(classFive[0]!, 'Mathematics', { ca: '21' }), 'Aarav Sharma — Mathematics: CA must be between 0 and 20'],
      ['F3 above 5', () => entry(classFive[1]!, 'English', { f3: '5.5' }), 'Zoya Bhat — English: F3 must be between 0 and 5'],
      ['SA above 50', () => entry(classFive[1]!, 'English', { sa: 51 }), 'Zoya Bhat — English: SA must be between 0 and 50'],
      ['a negative mark', () => entry(classFive[2]!, 'Hindi', { f1: '-1' }), 'Kabir Lone — Hindi: F1 must be between 0 and 5'],
      ['a non-numeric mark', () => entry(classFive[2]!, 'Hindi', { sa: 'abc' }), 'Kabir Lone — Hindi: SA must be a number'],
      ['a quarter mark', () => entry(classFive[2]!, 'Hindi', { ca: '10.25' }), 'Kabir Lone — Hindi: CA must be a whole or half mark (like 4 or 4.5)'],
      ['a subject the school does not have', () => entry(classFive[0]!, 'Astronomy', { sa: '10' }), 'Aarav Sharma — Astronomy: not a subject of Class 5'],
      ['a student of another class', () => entry(classSix[0]!, 'Mathematics', { sa: '10' }), 'Ishaan Mir — Mathematics: not in Class 5 A in 2025-2026'],
      [
        'an unknown student',
        () => entry({ id: '7d1f3c9e-8b7a-4c2d-9e1f-0a1b2c3d4e5f', name: '', rollNumber: 0 }, 'Mathematics', { sa: '10' }),
        'Student 7d1f3c9e-8b7a-4c2d-9e1f-0a1b2c3d4e5f — Mathematics: student not found',
      ],
      ['a malformed student id', () => entry({ id: 'not-an-id', name: '', rollNumber: 0 }, 'Mathematics', { sa: '10' }), 'Student not-an-id — Mathematics: student not found'],
      ['an unknown session', () => entry(classFive[0]!, 'Mathematics', { sa: '10' }, { academicSession: '2031-2032' }), 'Aarav Sharma — Mathematics: academic session 2031-2032 not found'],
    ];
    it.each(cases)('%s', async (_label, bad, message) => {
      const count = await countResults(ctx.database.db, { schoolId: school.schoolId });
      const res = await school.api.post('/api/results/bulk', {
        class: 'Class 5',
        section: 'A',
        // a good entry first: it must not be stored either
        results: [entry(classFive[2]!, 'Kashmiri', { sa: '33' }), bad()],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(message);
      expect(await countResults(ctx.database.db, { schoolId: school.schoolId })).toBe(count);
    });

    it('lists every problem under fields and names the first entry', async () => {
      const res = await school.api.post('/api/results/bulk', {
        results: [entry(classFive[0]!, 'Mathematics', { ca: '21', sa: '60' }), entry(classFive[1]!, 'Urdu', { f6: '9' })],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        error: 'Aarav Sharma — Mathematics: CA must be between 0 and 20',
        entry: { studentId: classFive[0]!.id, subject: 'Mathematics', field: 'CA' },
        fields: {
          'results.0.ca': 'Aarav Sharma — Mathematics: CA must be between 0 and 20',
          'results.0.sa': 'Aarav Sharma — Mathematics: SA must be between 0 and 50',
          'results.1.f6': 'Zoya Bhat — Urdu: F6 must be between 0 and 5',
        },
      });
    });

    it('refuses the same student and subject twice in one request', async () => {
      const res = await school.api.post('/api/results/bulk', {
        results: [entry(classFive[0]!, 'Urdu', { sa: '10' }), entry(classFive[0]!, 'urdu', { sa: '11' })],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Aarav Sharma — Urdu: entered twice in this request');
    });

    it('refuses an empty list and a non-JSON body', async () => {
      const empty = await school.api.post('/api/results/bulk', { results: [] });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().error).toBe('No results to save');
      const junk = await ctx.app.inject({ method: 'POST', url: '/api/results/bulk', headers: { authorization: `Bearer ${school.token}`, 'content-type': 'application/json' }, payload: '{"results": [' });
      expect(junk.statusCode).toBe(400);
    });
  });

  it('needs a signed-in school administrator', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/results/bulk', payload: { results: [entry(classFive[0]!, 'Urdu', { sa: '1' })] } });
    expect(res.statusCode).toBe(401);
  });

  it('another school cannot write marks for these students: the same answer as an unknown student', async () => {
    const other = await signUpSchool(ctx);
    await createSession(ctx.database.db, { schoolId: other.schoolId, name: '2025-2026', isActive: true });
    const count = await countResults(ctx.database.db, { schoolId: school.schoolId });
    const res = await other.api.post('/api/results/bulk', { results: [entry(classFive[0]!, 'Mathematics', { sa: '1' })] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(`Student ${classFive[0]!.id} — Mathematics: student not found`);
    expect(await countResults(ctx.database.db, { schoolId: school.schoolId })).toBe(count);
  });

  describe('two people saving marks of the same student and subject from pages loaded before either saved', () => {
    // each test its own students in Class 7, so what one test stores cannot meet another's
    let roll = 0;
    const twoStudents = () =>
      enrollStudents(ctx.database.db, {
        schoolId: school.schoolId,
        session,
        className: 'Class 7',
        students: [{ name: 'Asha Kaul', rollNumber: ++roll }, { name: 'Rohan Dar', rollNumber: ++roll }],
      });
    // what the grid sends for a cell: the eight marks as shown, and as the page loaded them
    const blank = { f1: '', f2: '', f3: '', f4: '', f5: '', f6: '', ca: '', sa: '' };
    const gridEntry = (student: FixtureStudent, subject: string, marks: Marks, loaded: Marks = blank) => ({
      studentId: student.id,
      academicSession: '2025-2026',
      subject,
      ...blank,
      ...marks,
      loaded: { ...blank, ...loaded },
    });
    const save = (results: unknown[]) => school.api.post('/api/results/bulk', { class: 'Class 7', section: 'A', results });
    const marksOf = async (student: FixtureStudent, subject: string) =>
      (await readClass('Class 7')).results.find((r) => r.studentId === student.id && r.subject === subject);

    it('keeps both: A enters F1, B (who loaded the cell blank) enters CA', async () => {
      const [asha] = await twoStudents();
      const a = await save([gridEntry(asha!, 'Mathematics', { f1: '4' })]);
      expect(a.statusCode, a.body).toBe(200);
      const b = await save([gridEntry(asha!, 'Mathematics', { ca: '8' })]);
      expect(b.statusCode, b.body).toBe(200);
      expect(b.json()).toMatchObject({ saved: 1, unchanged: 0 });
      expect(await marksOf(asha!, 'Mathematics')).toMatchObject({ f1: '4', f2: null, ca: '8', sa: null, fa: '4', totalMarks: '12' });
    });

    it('refuses the later save when both changed the same mark: 409 naming student, subject and field, and none of it stored', async () => {
      const [asha, rohan] = await twoStudents();
      const a = await save([gridEntry(asha!, 'Mathematics', { f1: '4' })]);
      expect(a.statusCode, a.body).toBe(200);
      const count = await countResults(ctx.database.db, { schoolId: school.schoolId });
      // B's save: another student's marks first (no conflict there), then the same F1 as A
      const b = await save([gridEntry(rohan!, 'English', { sa: '30' }), gridEntry(asha!, 'Mathematics', { f1: '3', ca: '9' })]);
      expect(b.statusCode, b.body).toBe(409);
      const message = 'Asha Kaul — Mathematics: F1 was changed by someone else after this page was loaded (now 4). Reload the marks to see it, then enter yours again.';
      expect(b.json()).toEqual({
        error: message,
        entry: { studentId: asha!.id, subject: 'Mathematics', field: 'F1' },
        fields: { 'results.1.f1': message },
      });
      expect(await marksOf(asha!, 'Mathematics')).toMatchObject({ f1: '4', ca: null, totalMarks: '4' });
      expect(await marksOf(rohan!, 'English')).toBeUndefined();
      expect(await countResults(ctx.database.db, { schoolId: school.schoolId })).toBe(count);

      // B reloads: the page now shows A's 4, and B's own mark goes in over it
      const again = await save([gridEntry(asha!, 'Mathematics', { f1: '3', ca: '9' }, { f1: '4' })]);
      expect(again.statusCode, again.body).toBe(200);
      expect(await marksOf(asha!, 'Mathematics')).toMatchObject({ f1: '3', ca: '9' });
    });

    it('names a mark someone else cleared as blank', async () => {
      const [asha] = await twoStudents();
      await save([gridEntry(asha!, 'Urdu', { f2: '2', sa: '40' })]);
      // A clears F2 (changing SA, so the entry counts as changed); B, who loaded F2 as 2, makes it 3
      expect((await save([gridEntry(asha!, 'Urdu', { f2: '', sa: '41' }, { f2: '2', sa: '40' })])).statusCode).toBe(200);
      const b = await save([gridEntry(asha!, 'Urdu', { f2: '3', sa: '40' }, { f2: '2', sa: '40' })]);
      expect(b.statusCode).toBe(409);
      expect(b.json().error).toBe('Asha Kaul — Urdu: F2 was changed by someone else after this page was loaded (now blank). Reload the marks to see it, then enter yours again.');
      expect(await marksOf(asha!, 'Urdu')).toMatchObject({ f2: null, sa: '41' });
    });

    it('accepts a changed mark already stored as sent (a retried save whose answer was lost)', async () => {
      const [asha] = await twoStudents();
      const first = await save([gridEntry(asha!, 'English', { f1: '4.5' })]);
      expect(first.json()).toMatchObject({ saved: 1 });
      const retried = await save([gridEntry(asha!, 'English', { f1: '4.5' })]);
      expect(retried.statusCode, retried.body).toBe(200);
      expect(retried.json()).toMatchObject({ saved: 0, unchanged: 1 });
      expect(await marksOf(asha!, 'English')).toMatchObject({ f1: '4.5' });
    });

    it('an entry without loaded writes all eight marks as sent, as before', async () => {
      const [asha] = await twoStudents();
      await save([gridEntry(asha!, 'Science', { f1: '4' })]);
      const { loaded: _none, ...withoutLoaded } = gridEntry(asha!, 'Science', { ca: '8' });
      const res = await save([withoutLoaded]);
      expect(res.statusCode, res.body).toBe(200);
      expect(await marksOf(asha!, 'Science')).toMatchObject({ f1: null, ca: '8', totalMarks: '8' });
    });

    it('validateOnly finds the same conflict, and stores nothing either way', async () => {
      const [asha] = await twoStudents();
      await save([gridEntry(asha!, 'Hindi', { sa: '20' })]);
      const res = await school.api.post('/api/results/bulk', { class: 'Class 7', section: 'A', validateOnly: true, results: [gridEntry(asha!, 'Hindi', { sa: '25' })] });
      expect(res.statusCode).toBe(409);
      expect(res.json().entry).toEqual({ studentId: asha!.id, subject: 'Hindi', field: 'SA' });
    });

    it('refuses loaded marks that are not marks, naming them as loaded', async () => {
      const [asha] = await twoStudents();
      const res = await save([gridEntry(asha!, 'Kashmiri', { f1: '4' }, { f1: '9' })]);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Asha Kaul — Kashmiri: as loaded, F1 must be between 0 and 5');
      expect(res.json().fields).toEqual({ 'results.0.loaded.f1': 'Asha Kaul — Kashmiri: as loaded, F1 must be between 0 and 5' });
    });
  });

  it('an expired school can read marks but not save them (402)', async () => {
    const late = await signUpSchool(ctx);
    const s = await createSession(ctx.database.db, { schoolId: late.schoolId, name: '2025-2026', isActive: true });
    const [kid] = await enrollStudents(ctx.database.db, { schoolId: late.schoolId, session: s, className: 'Class 1', students: [{ name: 'Late Kid' }] });
    await ctx.database.db.update(schools).set({ trialEndsAt: new Date(ctx.clock.now().getTime() - 60_000) }).where(eq(schools.id, late.schoolId));
    const res = await late.api.post('/api/results/bulk', { results: [entry(kid!, 'English', { sa: '1' })] });
    expect(res.statusCode).toBe(402);
    const read = await late.api.get('/api/results?class=Class%201&section=A&academicSession=2025-2026');
    expect(read.statusCode).toBe(200);
  });
});
