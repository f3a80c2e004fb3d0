import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSubjects } from '../../domain/boards';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { createSession, enrollStudents } from './test-fixtures';

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;

beforeAll(async () => {
  ctx = await createTestApp();
  school = await signUpSchool(ctx);
  other = await signUpSchool(ctx);
});
afterAll(() => ctx.close());

interface SubjectList {
  class: string | null;
  names: string[];
  subjects: Array<{ id: string; name: string; sortOrder: number; hasMarks: boolean }>;
}
const list = async (api = school.api, className = 'Class 3') => {
  const res = await api.get(`/api/results/subjects?class=${encodeURIComponent(className)}`);
  expect(res.statusCode).toBe(200);
  return res.json() as SubjectList;
};

/** A new school follows CBSE until Settings says otherwise (decision 0032). */
const CLASS_3 = defaultSubjects('cbse', 'Class 3');

describe('subjects per class', () => {
  it("seeds each class with its board's defaults on first read, in order", async () => {
    const data = await list();
    expect(data.class).toBe('Class 3');
    expect(data.names).toEqual(['English', 'Hindi', 'Mathematics', 'Environmental Studies', 'Computer Science', 'General Knowledge', 'Art Education']);
    expect(data.subjects.map((s) => s.sortOrder)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(data.subjects.every((s) => !s.hasMarks)).toBe(true);
    // reading again does not seed twice
    expect((await list()).subjects).toHaveLength(7);
  });

  it('accepts the class spellings of ruling 7', async () => {
    expect((await list(school.api, '3rd')).class).toBe('Class 3');
    const bad = await school.api.get('/api/results/subjects?class=Class%2013');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Select a valid class');
  });

  it('without a class, lists the names the school uses (the defaults at first)', async () => {
    const res = await other.api.get('/api/results/subjects');
    expect(res.json()).toMatchObject({ class: null, names: [...defaultSubjects('cbse', 'Class 6')] });
  });

  it('adds a subject at the end; a duplicate name in the class is a 409', async () => {
    const res = await school.api.post('/api/results/subjects', { class: 'Class 3', name: '  Drawing ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ class: 'Class 3', name: 'Drawing', sortOrder: CLASS_3.length + 1, hasMarks: false });
    const dup = await school.api.post('/api/results/subjects', { class: 'Class 3', name: 'drawing' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe('drawing is already a subject of Class 3');
    const blank = await school.api.post('/api/results/subjects', { class: 'Class 3', name: ' ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toBe('Subject name is required');
    // other classes are untouched
    expect((await list(school.api, 'Class 4')).names).not.toContain('Drawing');
  });

  it('adding to a class never read before seeds it first', async () => {
    const res = await school.api.post('/api/results/subjects', { class: 'UKG', name: 'Rhymes' });
    const prePrimary = defaultSubjects('cbse', 'UKG');
    expect(res.json().sortOrder).toBe(prePrimary.length + 1);
    expect((await list(school.api, 'UKG')).names).toEqual([...prePrimary, 'Rhymes']);
  });

  it('renames a subject; the marks stay with it', async () => {
    const session = await createSession(ctx.database.db, { schoolId: school.schoolId, name: '2025-2026', isActive: true });
    const [kid] = await enrollStudents(ctx.database.db, { schoolId: school.schoolId, session, className: 'Class 3', students: [{ name: 'Meera Rather' }] });
    const saved = await school.api.post('/api/results/bulk', {
      results: [{ studentId: kid!.id, academicSession: '2025-2026', subject: 'General Knowledge', f1: '4', ca: '15', sa: '40' }],
    });
    expect(saved.json().saved).toBe(1);

    const gk = (await list()).subjects.find((s) => s.name === 'General Knowledge')!;
    expect(gk.hasMarks).toBe(true);
    const res = await school.api.put(`/api/results/subjects/${gk.id}`, { name: 'G.K.' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: gk.id, name: 'G.K.', hasMarks: true });

    const marks = await school.api.get('/api/results?class=Class%203&section=A&academicSession=2025-2026');
    expect(marks.json().results).toEqual([expect.objectContaining({ subject: 'G.K.', totalMarks: '59' })]);

    const clash = await school.api.put(`/api/results/subjects/${gk.id}`, { name: 'English' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error).toBe('English is already a subject of Class 3');
  });

  it('removes a subject without marks; refuses one with marks (409)', async () => {
    const subjects = (await list()).subjects;
    const drawing = subjects.find((s) => s.name === 'Drawing')!;
    const removed = await school.api.delete(`/api/results/subjects/${drawing.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().message).toBe('Drawing was removed from Class 3');
    expect((await list()).names).not.toContain('Drawing');

    const gk = subjects.find((s) => s.name === 'G.K.')!;
    const refused = await school.api.delete(`/api/results/subjects/${gk.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('G.K. cannot be removed from Class 3: marks are already entered for it (1 entry).');
    expect((await list()).names).toContain('G.K.');
  });

  it('a class whose subjects were all removed stays empty (no re-seeding)', async () => {
    const subjects = (await list(school.api, 'Class 9')).subjects;
    for (const s of subjects) expect((await school.api.delete(`/api/results/subjects/${s.id}`)).statusCode).toBe(200);
    expect((await list(school.api, 'Class 9')).subjects).toEqual([]);
  });

  it('reorders a class from the full list of its ids', async () => {
    const subjects = (await list()).subjects;
    const reversed = [...subjects].reverse().map((s) => s.id);
    const res = await school.api.put('/api/results/subjects/order', { class: 'Class 3', subjectIds: reversed });
    expect(res.statusCode).toBe(200);
    expect(res.json().names).toEqual([...subjects].reverse().map((s) => s.name));
    expect((await list()).names[0]).toBe('Art Education');

    const partial = await school.api.put('/api/results/subjects/order', { class: 'Class 3', subjectIds: reversed.slice(1) });
    expect(partial.statusCode).toBe(400);
    expect(partial.json().error).toBe('The new order must list every subject of Class 3 exactly once');
    const doubled = await school.api.put('/api/results/subjects/order', { class: 'Class 3', subjectIds: [...reversed.slice(1), reversed[1]] });
    expect(doubled.statusCode).toBe(400);
  });

  describe('tenancy', () => {
    it("another school never sees, renames, removes or reorders this school's subjects", async () => {
      const mine = (await list()).subjects;
      const target = mine.find((s) => s.name === 'Hindi')!;
      // the other school's own Class 3 list is its own defaults
      expect((await list(other.api)).names).toEqual([...CLASS_3]);
      const rename = await other.api.put(`/api/results/subjects/${target.id}`, { name: 'Stolen' });
      expect(rename.statusCode).toBe(404);
      expect(rename.json().error).toBe('Subject not found');
      const remove = await other.api.delete(`/api/results/subjects/${target.id}`);
      expect(remove.statusCode).toBe(404);
      const reorder = await other.api.put('/api/results/subjects/order', { class: 'Class 3', subjectIds: mine.map((s) => s.id) });
      expect(reorder.statusCode).toBe(400);
      expect((await list()).names).toEqual(mine.map((s) => s.name));
    });

    it('an unknown or malformed id is a 404', async () => {
      expect((await school.api.delete('/api/results/subjects/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
      expect((await school.api.put('/api/results/subjects/nope', { name: 'X' })).statusCode).toBe(404);
    });

    it('needs a signed-in school administrator', async () => {
      expect((await ctx.app.inject({ method: 'GET', url: '/api/results/subjects?class=Class%201' })).statusCode).toBe(401);
    });
  });
});

describe('default subjects by board (issue 13)', () => {
  const update = (s: typeof school, board: string) =>
    s.api.put('/api/schools/update-info', { name: 'Board Test School', schoolCode: 'BTS01', phone: '', address: '', board });

  it("default subjects come from the school's board and the class band, not one region's list", async () => {
    const cbse = await signUpSchool(ctx);
    const me = await cbse.api.get('/api/auth/me');
    expect(me.json().school.board).toBe('cbse');
    expect((await list(cbse.api, 'Class 1')).names).toEqual(['English', 'Hindi', 'Mathematics', 'Environmental Studies', 'Computer Science', 'General Knowledge', 'Art Education']);
    expect((await list(cbse.api, 'Class 7')).names).toEqual(['English', 'Hindi', 'Sanskrit', 'Mathematics', 'Science', 'Social Science', 'Computer Science']);
    expect((await list(cbse.api, 'Class 9')).names).toEqual(['English', 'Hindi', 'Mathematics', 'Science', 'Social Science', 'Information Technology']);
    expect((await list(cbse.api, 'Class 12')).names).toEqual(['English', 'Physics', 'Chemistry', 'Mathematics', 'Biology', 'Physical Education']);
    expect((await list(cbse.api, 'LKG')).names).toEqual(['English', 'Hindi', 'Numbers', 'General Awareness', 'Rhymes and Stories', 'Drawing']);
    for (const c of ['Class 1', 'Class 7', 'Class 9', 'Class 12']) expect((await list(cbse.api, c)).names).not.toContain('Islamiyat');

    const icse = await signUpSchool(ctx);
    expect((await update(icse, 'icse')).json().school.board).toBe('icse');
    expect((await list(icse.api, 'Class 10')).names).toEqual([
      'English Language', 'English Literature', 'Hindi', 'Mathematics', 'Physics', 'Chemistry', 'Biology', 'History and Civics', 'Geography', 'Computer Applications',
    ]);
    expect((await list(icse.api, 'Class 11')).names).toEqual(['English', 'Physics', 'Chemistry', 'Mathematics', 'Biology', 'Computer Science']);

    const state = await signUpSchool(ctx);
    await update(state, 'state');
    expect((await list(state.api, 'Class 4')).names).toEqual(['English', 'Regional Language', 'Hindi', 'Mathematics', 'Environmental Studies', 'General Knowledge']);

    const jk = await signUpSchool(ctx);
    await update(jk, 'jkbose');
    expect((await list(jk.api, 'Class 5')).names).toEqual([
      'English', 'Urdu', 'Mathematics', 'Science', 'Social Studies', 'Computer Science', 'General Knowledge', 'Islamiyat', 'Kashmiri', 'Hindi',
    ]);
  });

  it('changing the board keeps the subjects a class already has; classes never opened take the new board', async () => {
    const s = await signUpSchool(ctx);
    const before = (await list(s.api, 'Class 9')).names;
    expect((await update(s, 'icse')).statusCode).toBe(200);
    expect((await list(s.api, 'Class 9')).names).toEqual(before);
    expect((await list(s.api, 'Class 10')).names[0]).toBe('English Language');
    // leaving the board out (an older screen) keeps it
    const kept = await s.api.put('/api/schools/update-info', { name: 'Board Test School', schoolCode: 'BTS01' });
    expect(kept.json().school.board).toBe('icse');
  });

  it('refuses a board the product does not know with a clear 400', async () => {
    const res = await update(school, 'harvard');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Board must be one of CBSE, ICSE / ISC (CISCE), State board, J&K Board (JKBOSE)');
  });
});
