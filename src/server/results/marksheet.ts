import { z } from 'zod';
import { formatHalves, grandTotal, MARK_FIELDS, subjectPercent, type MarkField } from '../../domain/results';
import type { Db } from '../db/client';
import { findSchool } from '../schools/queries';
import { notFound } from '../lib/errors';
import { listResults, listRoster, type RosterStudent, type SessionRef } from './queries';
import { listSubjects } from './subjects';

/** The Student Report Card (operations §2, §3 Marksheet response), for the screen and the PDF. */

const mark = z.string().nullable();

export const subjectMarksDto = z.object({
  f1: mark, f2: mark, f3: mark, f4: mark, f5: mark, f6: mark,
  fa: z.string(),
  ca: mark,
  sa: mark,
  total: z.string(),
  /** the total out of 100, one decimal */
  percent: z.string(),
  grade: z.string(),
  remarks: z.string(),
});
export type SubjectMarks = z.infer<typeof subjectMarksDto>;

export const marksheetDto = z.object({
  school: z.object({ name: z.string(), phone: z.string(), address: z.string(), schoolCode: z.string().nullable() }),
  academicSession: z.string(),
  student: z.object({
    id: z.string(),
    name: z.string(),
    admissionNumber: z.string().nullable(),
    fatherName: z.string(),
    motherName: z.string(),
    class: z.string(),
    section: z.string(),
    rollNumber: z.number().int(),
    dateOfBirth: z.string().nullable(),
    residence: z.string(),
  }),
  /** the class's subjects in their order */
  subjects: z.array(z.string()),
  /** per subject with marks entered; a subject without marks is absent */
  resultsBySubject: z.record(z.string(), subjectMarksDto),
  grandTotal: z.object({
    fa: z.string(),
    ca: z.string(),
    sa: z.string(),
    total: z.string(),
    /** 100 × the subjects whose total is above zero */
    maxMarks: z.number().int(),
    countedSubjects: z.number().int(),
    /** sum of totals over subjects above zero ÷ (100 × their count), two decimals */
    percent: z.string(),
    grade: z.string().nullable(),
  }),
  /** the remarks entered with the marks, one line per subject that has any */
  remarks: z.string(),
});
export type Marksheet = z.infer<typeof marksheetDto>;

/**
 * The marksheets of a class and section in a session (one student with `rollNumber`): a fixed
 * number of queries whatever the class size.
 */
export async function buildMarksheets(
  db: Db,
  {
    schoolId,
    session,
    className,
    section,
    rollNumber,
  }: { schoolId: string; session: SessionRef; className: string; section: string; rollNumber?: number },
): Promise<Marksheet[]> {
  const school = await findSchool(db, { schoolId });
  if (!school) throw notFound('School not found');
  const roster = await listRoster(db, { schoolId, sessionId: session.id, className, section, rollNumber });
  if (roster.length === 0) {
    throw notFound(rollNumber === undefined ? 'No students found for the selected class and section' : 'Student not found');
  }
  const subjectRows = await listSubjects(db, { schoolId, classNames: [className] });
  const stored = await listResults(db, { schoolId, sessionId: session.id, studentIds: roster.map((s) => s.id) });
  const byStudent = new Map<string, typeof stored>();
  for (const r of stored) {
    const list = byStudent.get(r.studentId) ?? [];
    list.push(r);
    byStudent.set(r.studentId, list);
  }
  const schoolInfo = { name: school.name, phone: school.phone, address: school.address, schoolCode: school.schoolCode };
  return roster.map((student) => toMarksheet(schoolInfo, session, student, subjectRows.map((s) => s.name), byStudent.get(student.id) ?? []));
}

function toMarksheet(
  school: Marksheet['school'],
  session: SessionRef,
  student: RosterStudent,
  classSubjects: string[],
  stored: Awaited<ReturnType<typeof listResults>>,
): Marksheet {
  // subjects of the class first, in order; then any subject marked under an older list
  const subjects = [...classSubjects];
  for (const r of stored) if (!subjects.includes(r.subject)) subjects.push(r.subject);
  const resultsBySubject: Record<string, SubjectMarks> = {};
  let fa = 0;
  let ca = 0;
  let sa = 0;
  const remarks: string[] = [];
  for (const r of stored) {
    const marks = Object.fromEntries(MARK_FIELDS.map((f) => [f, r.marks[f] === null ? null : formatHalves(r.marks[f])])) as Record<MarkField, string | null>;
    resultsBySubject[r.subject] = {
      ...marks,
      fa: formatHalves(r.faHalves),
      total: formatHalves(r.totalHalves),
      percent: subjectPercent(r.totalHalves),
      grade: r.grade,
      remarks: r.remarks,
    };
    fa += r.faHalves;
    ca += r.marks.ca ?? 0;
    sa += r.marks.sa ?? 0;
  }
  for (const name of subjects) {
    const text = resultsBySubject[name]?.remarks;
    if (text) remarks.push(`${name}: ${text}`);
  }
  const grand = grandTotal(stored.map((r) => r.totalHalves));
  return {
    school,
    academicSession: session.name,
    student: {
      id: student.id,
      name: student.name,
      admissionNumber: student.admissionNumber,
      fatherName: student.fatherName,
      motherName: student.motherName,
      class: student.className,
      section: student.section,
      rollNumber: student.rollNumber,
      dateOfBirth: student.dateOfBirth,
      residence: student.residence,
    },
    subjects,
    resultsBySubject,
    grandTotal: {
      fa: formatHalves(fa),
      ca: formatHalves(ca),
      sa: formatHalves(sa),
      total: formatHalves(grand.totalHalves),
      maxMarks: grand.maxMarks,
      countedSubjects: grand.countedSubjects,
      percent: grand.percent,
      grade: grand.grade,
    },
    remarks: remarks.join('\n'),
  };
}
