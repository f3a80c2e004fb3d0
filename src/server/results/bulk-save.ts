import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  changedMeanwhileMessage,
  computeMarks,
  entryMessage,
  FIELD_LABEL,
  loadedMarkProblem,
  MARK_FIELDS,
  parseMarkTexts,
  type MarkField,
  type MarkHalves,
  type ResultEntryInput,
} from '../../domain/results';
import type { Db } from '../db/client';
import { academicSessions, results, studentEnrollments, students } from '../db/schema';
import { badRequest, conflict } from '../lib/errors';
import { isUuid } from '../lib/ids';
import { lockFor } from '../lib/locks';
import { listSubjects } from './subjects';

/**
 * POST /api/results/bulk (issue 6): every entry is checked before anything is written, so a bad
 * entry stores nothing; then only entries whose marks differ from what is stored are written, in
 * one upsert per thousand rows. Re-sending the same marks writes nothing.
 *
 * An entry with `loaded` (the marks as the page loaded them) is merged mark by mark with what is
 * stored now: a mark sent as loaded was not touched and keeps the stored one; a mark the person
 * changed is written unless someone else changed that same mark since it was loaded, which refuses
 * the whole save (409). So two teachers entering different marks of one subject keep both.
 */

/**
 * The lock a save takes on the marks of one class in one session before it reads what is stored:
 * two saves of the same marks cannot both compare against the same stored marks.
 */
export const lockClassMarks = (tx: Db, { schoolId, sessionId, className }: { schoolId: string; sessionId: string; className: string }) =>
  lockFor(tx, `results:${schoolId}:${sessionId}:${className}`);

export interface BulkInput {
  results: ResultEntryInput[];
  class?: string | undefined;
  section?: string | undefined;
}

interface PlannedRow {
  studentId: string;
  sessionId: string;
  subjectId: string;
  marks: MarkHalves;
  remarks: string;
  /** what was stored before, for the audit trail; null when new */
  before: { marks: MarkHalves; remarks: string } | null;
  label: { student: string; subject: string; session: string };
}

export interface BulkPlan {
  rows: PlannedRow[];
  unchanged: number;
}

const NO_MARKS: MarkHalves = { f1: null, f2: null, f3: null, f4: null, f5: null, f6: null, ca: null, sa: null };

const MAX_LISTED_PROBLEMS = 50;

const sameMarks = (a: MarkHalves, b: MarkHalves) => MARK_FIELDS.every((f) => a[f] === b[f]);
const isBlank = (m: MarkHalves) => MARK_FIELDS.every((f) => m[f] === null);

/**
 * Validates every entry against the school's students, enrollments and subject lists (set-based:
 * a fixed handful of queries whatever the number of entries) and works out what would change.
 * Throws a 400 naming the first bad entry's student, subject and field, with every problem
 * found under `fields` (keyed `results.<index>.<field>`); a 409 the same way when a mark the
 * entry changed was changed by someone else since `loaded`.
 *
 * `forWrite`: the plan is about to be written in this transaction, so the stored marks are read
 * under the classes' locks (held to the end of the transaction). A validateOnly check needs none.
 */
export async function planBulkSave(
  db: Db,
  { schoolId, input, forWrite }: { schoolId: string; input: BulkInput; forWrite: boolean },
): Promise<BulkPlan> {
  const entries = input.results;
  const studentIds = [...new Set(entries.map((e) => e.studentId).filter(isUuid))];
  const sessionNames = [...new Set(entries.map((e) => e.academicSession))];

  const sessionRows = await db
    .select({ id: academicSessions.id, name: academicSessions.name })
    .from(academicSessions)
    .where(and(eq(academicSessions.schoolId, schoolId), inArray(academicSessions.name, sessionNames)));
  const sessionByName = new Map(sessionRows.map((s) => [s.name, s]));
  const sessionIds = sessionRows.map((s) => s.id);

  // another school's student is simply not found here: the same answer as a made-up id
  const studentRows =
    studentIds.length === 0
      ? []
      : await db
          .select({ id: students.id, name: students.name })
          .from(students)
          .where(and(eq(students.schoolId, schoolId), inArray(students.id, studentIds)));
  const nameById = new Map(studentRows.map((s) => [s.id, s.name]));

  const enrollmentRows =
    studentRows.length === 0 || sessionIds.length === 0
      ? []
      : await db
          .select({
            studentId: studentEnrollments.studentId,
            sessionId: studentEnrollments.sessionId,
            className: studentEnrollments.className,
            section: studentEnrollments.section,
          })
          .from(studentEnrollments)
          .where(
            and(
              eq(studentEnrollments.schoolId, schoolId),
              inArray(studentEnrollments.studentId, studentRows.map((s) => s.id)),
              inArray(studentEnrollments.sessionId, sessionIds),
            ),
          );
  const enrollmentOf = new Map(enrollmentRows.map((e) => [`${e.studentId}|${e.sessionId}`, e]));

  const classNames = [...new Set(enrollmentRows.map((e) => e.className))];
  const subjectRows = await listSubjects(db, { schoolId, classNames });
  const subjectOf = new Map(subjectRows.map((s) => [`${s.className}|${s.name.toLowerCase()}`, s]));

  const problems: Record<string, string> = {};
  let first: { message: string; entry: { studentId: string; subject: string; field: string } } | null = null;
  const problem = (index: number, field: string, message: string, entry: ResultEntryInput) => {
    const key = `results.${index}.${field}`;
    if (Object.keys(problems).length < MAX_LISTED_PROBLEMS) problems[key] = message;
    first ??= { message, entry: { studentId: entry.studentId, subject: entry.subject, field } };
  };

  const planned: Array<Omit<PlannedRow, 'before'> & { index: number; className: string; loaded: MarkHalves | null; remarksGiven: boolean }> = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const subjectText = entry.subject.trim();
    const name = nameById.get(entry.studentId);
    if (!name) {
      problem(index, 'studentId', entryMessage(`Student ${entry.studentId}`, subjectText, 'student not found'), entry);
      return;
    }
    const session = sessionByName.get(entry.academicSession);
    if (!session) {
      problem(index, 'academicSession', entryMessage(name, subjectText, `academic session ${entry.academicSession} not found`), entry);
      return;
    }
    const enrollment = enrollmentOf.get(`${entry.studentId}|${session.id}`);
    if (!enrollment) {
      problem(index, 'studentId', entryMessage(name, subjectText, `not enrolled in ${session.name}`), entry);
      return;
    }
    if (input.class && (enrollment.className !== input.class || enrollment.section !== (input.section ?? 'A'))) {
      problem(
        index,
        'studentId',
        entryMessage(name, subjectText, `not in ${input.class} ${input.section ?? 'A'} in ${session.name}`),
        entry,
      );
      return;
    }
    const subject = subjectOf.get(`${enrollment.className}|${subjectText.toLowerCase()}`);
    if (!subject) {
      problem(index, 'subject', entryMessage(name, subjectText, `not a subject of ${enrollment.className}`), entry);
      return;
    }
    const key = `${entry.studentId}|${session.id}|${subject.id}`;
    if (seen.has(key)) {
      problem(index, 'subject', entryMessage(name, subject.name, 'entered twice in this request'), entry);
      return;
    }
    seen.add(key);
    const { marks, errors } = parseMarkTexts(entry);
    const bad = MARK_FIELDS.filter((f) => errors[f]);
    for (const f of bad) problem(index, f, entryMessage(name, subject.name, errors[f as MarkField]!), entry);
    const loaded = entry.loaded ? parseMarkTexts(entry.loaded) : null;
    const badLoaded = loaded ? MARK_FIELDS.filter((f) => loaded.errors[f]) : [];
    for (const f of badLoaded) problem(index, `loaded.${f}`, entryMessage(name, subject.name, loadedMarkProblem(loaded!.errors[f]!)), entry);
    if (bad.length > 0 || badLoaded.length > 0) return;
    planned.push({
      index,
      className: enrollment.className,
      loaded: loaded?.marks ?? null,
      studentId: entry.studentId,
      sessionId: session.id,
      subjectId: subject.id,
      marks,
      remarks: (entry.remarks ?? '').trim(),
      remarksGiven: entry.remarks !== undefined,
      label: { student: name, subject: subject.name, session: session.name },
    });
  });

  if (first) {
    const { message, entry } = first as { message: string; entry: { studentId: string; subject: string; field: string } };
    throw badRequest(message, { fields: problems, entry: { ...entry, field: FIELD_LABEL[entry.field as MarkField] ?? entry.field } });
  }

  if (forWrite) {
    // one order for every save, so two saves of several classes cannot wait for each other
    const classes = new Map(planned.map((p) => [`${p.sessionId}|${p.className}`, { sessionId: p.sessionId, className: p.className }]));
    for (const key of [...classes.keys()].sort()) await lockClassMarks(db, { schoolId, ...classes.get(key)! });
  }

  const existing =
    planned.length === 0
      ? []
      : await db
          .select()
          .from(results)
          .where(
            and(
              eq(results.schoolId, schoolId),
              inArray(results.studentId, [...new Set(planned.map((p) => p.studentId))]),
              inArray(results.sessionId, [...new Set(planned.map((p) => p.sessionId))]),
              inArray(results.subjectId, [...new Set(planned.map((p) => p.subjectId))]),
            ),
          );
  const stored = new Map(
    existing.map((r) => [
      `${r.studentId}|${r.sessionId}|${r.subjectId}`,
      {
        marks: { f1: r.f1Halves, f2: r.f2Halves, f3: r.f3Halves, f4: r.f4Halves, f5: r.f5Halves, f6: r.f6Halves, ca: r.caHalves, sa: r.saHalves },
        remarks: r.remarks,
      },
    ]),
  );

  const conflicts: Record<string, string> = {};
  let firstConflict: { message: string; entry: { studentId: string; subject: string; field: string } } | null = null;
  const rows: PlannedRow[] = [];
  let unchanged = 0;
  for (const p of planned) {
    const before = stored.get(`${p.studentId}|${p.sessionId}|${p.subjectId}`) ?? null;
    let marks = p.marks;
    if (p.loaded) {
      const now = before?.marks ?? NO_MARKS;
      marks = { ...now };
      for (const f of MARK_FIELDS) {
        const sent = p.marks[f];
        const loaded = p.loaded[f];
        // sent as loaded: not touched here, whatever is stored now stays
        if (sent === loaded) continue;
        if (now[f] === loaded || now[f] === sent) {
          marks[f] = sent;
          continue;
        }
        const message = changedMeanwhileMessage(p.label.student, p.label.subject, f, now[f]);
        if (Object.keys(conflicts).length < MAX_LISTED_PROBLEMS) conflicts[`results.${p.index}.${f}`] = message;
        firstConflict ??= { message, entry: { studentId: p.studentId, subject: p.label.subject, field: FIELD_LABEL[f] } };
      }
    }
    // remarks left out keep what is stored (the marks grid does not edit them)
    const remarks = p.remarksGiven ? p.remarks : (before?.remarks ?? '');
    const same = before ? sameMarks(before.marks, marks) && before.remarks === remarks : isBlank(marks) && remarks === '';
    if (same) {
      unchanged += 1;
      continue;
    }
    rows.push({ studentId: p.studentId, sessionId: p.sessionId, subjectId: p.subjectId, marks, remarks, before, label: p.label });
  }
  if (firstConflict) {
    const { message, entry } = firstConflict as { message: string; entry: { studentId: string; subject: string; field: string } };
    throw conflict(message, { fields: conflicts, entry });
  }
  return { rows, unchanged };
}

const WRITE_CHUNK = 1000;

/** Writes planned rows with FA, total and grade computed here; client-sent figures never reach the table. */
export async function writePlannedRows(
  db: Db,
  { schoolId, userId, rows, now }: { schoolId: string; userId: string | null; rows: PlannedRow[]; now: Date },
): Promise<number> {
  let written = 0;
  for (let i = 0; i < rows.length; i += WRITE_CHUNK) {
    const chunk = rows.slice(i, i + WRITE_CHUNK);
    const values = chunk.map((r) => {
      const computed = computeMarks(r.marks);
      return {
        schoolId,
        studentId: r.studentId,
        sessionId: r.sessionId,
        subjectId: r.subjectId,
        f1Halves: r.marks.f1,
        f2Halves: r.marks.f2,
        f3Halves: r.marks.f3,
        f4Halves: r.marks.f4,
        f5Halves: r.marks.f5,
        f6Halves: r.marks.f6,
        caHalves: r.marks.ca,
        saHalves: r.marks.sa,
        faHalves: computed.faHalves,
        totalHalves: computed.totalHalves,
        grade: computed.grade,
        remarks: r.remarks,
        updatedBy: userId,
        createdAt: now,
        updatedAt: now,
      };
    });
    const excluded = (column: string) => sql.raw(`excluded.${column}`);
    const out = await db
      .insert(results)
      .values(values)
      .onConflictDoUpdate({
        target: [results.schoolId, results.studentId, results.sessionId, results.subjectId],
        set: {
          f1Halves: excluded('f1_halves'),
          f2Halves: excluded('f2_halves'),
          f3Halves: excluded('f3_halves'),
          f4Halves: excluded('f4_halves'),
          f5Halves: excluded('f5_halves'),
          f6Halves: excluded('f6_halves'),
          caHalves: excluded('ca_halves'),
          saHalves: excluded('sa_halves'),
          faHalves: excluded('fa_halves'),
          totalHalves: excluded('total_halves'),
          grade: excluded('grade'),
          remarks: excluded('remarks'),
          updatedBy: excluded('updated_by'),
          updatedAt: excluded('updated_at'),
        },
      })
      .returning({ id: results.id });
    written += out.length;
  }
  return written;
}

/** The audit record of one save: which marks moved from what to what. */
export function auditChanges(rows: PlannedRow[]) {
  return rows.map((r) => ({
    student: r.label.student,
    studentId: r.studentId,
    subject: r.label.subject,
    session: r.label.session,
    before: r.before ? { ...r.before.marks, remarks: r.before.remarks } : null,
    after: { ...r.marks, remarks: r.remarks },
  }));
}
