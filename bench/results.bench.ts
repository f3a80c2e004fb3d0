import { getDocumentProxy } from 'unpdf';
import { eq } from 'drizzle-orm';
import { defaultSubjects } from '../src/domain/boards';
import { schools } from '../src/server/db/schema';
import { createSession, enrollStudents, type FixtureStudent } from '../src/server/results/test-fixtures';
import type { BenchContext, BenchRow } from './types';

/**
 * Issue 6 speed targets: saving 40 students × 10 subjects of changed marks answers in under 1 s
 * on the embedded database, and the class PDF of 60 marksheets is ready in under 10 s.
 */

const SESSION = '2025-2026';
const CHUNK = 50; // what the marks screen sends per request
/** the ICSE middle school list has the ten subjects the targets are written for */
const SUBJECTS = defaultSubjects('icse', 'Class 7');

function entries(students: FixtureStudent[], round: number) {
  return students.flatMap((s, i) =>
    SUBJECTS.map((subject, j) => {
      const v = (i + j + round) % 6; // 0..5, so every field stays within its maximum
      return {
        studentId: s.id,
        academicSession: SESSION,
        subject,
        f1: String(v), f2: `${Math.min(v, 4)}.5`, f3: String(5 - v), f4: String(v), f5: '4', f6: '3.5',
        ca: String(10 + v), sa: `${30 + v}.5`,
        fa: '', totalMarks: '', grade: '', remarks: '',
      };
    }),
  );
}

async function post(ctx: BenchContext, token: string, body: unknown): Promise<{ saved: number; unchanged: number }> {
  const res = await fetch(`${ctx.baseUrl}/api/results/bulk`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`bulk save answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { saved: number; unchanged: number };
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];

  // 40 students × 10 subjects
  const school = await ctx.createSchool('Bench Results School');
  await ctx.db.update(schools).set({ board: 'icse' }).where(eq(schools.id, school.schoolId));
  const session = await createSession(ctx.db, { schoolId: school.schoolId, name: SESSION, isActive: true });
  const forty = await enrollStudents(ctx.db, {
    schoolId: school.schoolId,
    session,
    className: 'Class 7',
    students: Array.from({ length: 40 }, (_, i) => ({ name: `Bench Student ${i + 1}` })),
  });
  // the subject list is seeded on first read, as the screen does before anyone types
  await fetch(`${ctx.baseUrl}/api/results?class=Class%207&section=A&academicSession=${SESSION}`, { headers: { authorization: `Bearer ${school.token}` } });

  const first = await ctx.time('save 40 students × 10 subjects (400 new entries, one request)', () => post(ctx, school.token, { class: 'Class 7', section: 'A', results: entries(forty, 0) }), {
    ms: 1_000,
    label: '< 1 s',
  });
  first.row.note = `saved ${first.value.saved}, unchanged ${first.value.unchanged}`;
  first.row.met = Boolean(first.row.met) && first.value.saved === 400;
  rows.push(first.row);

  const changed = await ctx.time('save 400 changed entries (updates, one request)', () => post(ctx, school.token, { class: 'Class 7', section: 'A', results: entries(forty, 1) }), {
    ms: 1_000,
    label: '< 1 s',
  });
  changed.row.note = `saved ${changed.value.saved}, unchanged ${changed.value.unchanged}`;
  changed.row.met = Boolean(changed.row.met) && changed.value.saved === 400;
  rows.push(changed.row);

  // the screen's way: the server checks everything, then chunks of 50 stored one after another
  const screen = await ctx.time(
    `save 400 changed entries as the screen does (validate + ${400 / CHUNK} chunks of ${CHUNK})`,
    async () => {
      const list = entries(forty, 2);
      await post(ctx, school.token, { class: 'Class 7', section: 'A', validateOnly: true, results: list });
      let saved = 0;
      for (let i = 0; i < list.length; i += CHUNK) saved += (await post(ctx, school.token, { class: 'Class 7', section: 'A', results: list.slice(i, i + CHUNK) })).saved;
      return saved;
    },
    { ms: 1_000, label: '< 1 s' },
  );
  screen.row.note = `saved ${screen.value}`;
  screen.row.met = Boolean(screen.row.met) && screen.value === 400;
  rows.push(screen.row);

  const same = await ctx.time('re-send the same 400 entries (idempotent: nothing written)', () => post(ctx, school.token, { results: entries(forty, 2) }), { ms: 1_000, label: '< 1 s' });
  same.row.note = `saved ${same.value.saved}, unchanged ${same.value.unchanged}`;
  same.row.met = Boolean(same.row.met) && same.value.saved === 0 && same.value.unchanged === 400;
  rows.push(same.row);

  // 60 marksheets in one PDF
  const sixty = await enrollStudents(ctx.db, {
    schoolId: school.schoolId,
    session,
    className: 'Class 10',
    section: 'B',
    students: Array.from({ length: 60 }, (_, i) => ({ name: `Class Ten Student ${i + 1}`, fatherName: `Father ${i + 1}`, motherName: `Mother ${i + 1}`, residence: 'Srinagar' })),
  });
  const marks = entries(sixty, 3);
  for (let i = 0; i < marks.length; i += 1_000) await post(ctx, school.token, { results: marks.slice(i, i + 1_000) });
  const pdf = await ctx.time(
    'class PDF of 60 marksheets (GET /api/results/marksheets.pdf)',
    async () => {
      const res = await fetch(`${ctx.baseUrl}/api/results/marksheets.pdf?class=Class%2010&section=B&academicSession=${SESSION}`, { headers: { authorization: `Bearer ${school.token}` } });
      if (!res.ok) throw new Error(`class PDF answered ${res.status}`);
      return new Uint8Array(await res.arrayBuffer());
    },
    { ms: 10_000, label: '< 10 s' },
  );
  const kib = Math.round(pdf.value.byteLength / 1024); // read before pdf.js takes the buffer
  const pages = (await getDocumentProxy(pdf.value)).numPages;
  pdf.row.met = Boolean(pdf.row.met) && pages === 60;
  pdf.row.note = `${pages} pages, ${kib} KiB`;
  rows.push(pdf.row);
  return rows;
}
