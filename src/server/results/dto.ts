import { z } from 'zod';
import { formatHalves, MARK_FIELDS, subjectPercent, type MarkField } from '../../domain/results';
import { classParam, sectionParam, sessionNameParam } from '../../domain/results';
import type { StoredResult } from './queries';
import type { SubjectRow } from './subjects';

export const subjectDto = z.object({
  id: z.string(),
  class: z.string(),
  name: z.string(),
  sortOrder: z.number().int(),
  /** marks are entered for it: it cannot be removed */
  hasMarks: z.boolean(),
});

export const toSubjectDto = (s: SubjectRow): z.infer<typeof subjectDto> => ({
  id: s.id,
  class: s.className,
  name: s.name,
  sortOrder: s.sortOrder,
  hasMarks: s.hasMarks,
});

export const subjectListDto = z.object({
  /** null when asked without a class: then every subject name the school uses */
  class: z.string().nullable(),
  subjects: z.array(subjectDto),
  names: z.array(z.string()),
});

const mark = z.string().nullable().describe('a whole or half mark ("4", "4.5"); null when not entered');

/** A stored result (operations §3 Result). FA, totalMarks and grade are computed by the server. */
export const resultDto = z.object({
  id: z.string(),
  studentId: z.string(),
  subjectId: z.string(),
  subject: z.string(),
  academicSession: z.string(),
  f1: mark, f2: mark, f3: mark, f4: mark, f5: mark, f6: mark,
  fa: z.string(),
  ca: mark,
  sa: mark,
  totalMarks: z.string(),
  /** the total out of 100, one decimal */
  percent: z.string(),
  grade: z.string(),
  remarks: z.string(),
  updatedAt: z.string(),
});

export function toResultDto(r: StoredResult, academicSession: string): z.infer<typeof resultDto> {
  const marks = Object.fromEntries(MARK_FIELDS.map((f) => [f, r.marks[f] === null ? null : formatHalves(r.marks[f])])) as Record<MarkField, string | null>;
  return {
    id: r.id,
    studentId: r.studentId,
    subjectId: r.subjectId,
    subject: r.subject,
    academicSession,
    ...marks,
    fa: formatHalves(r.faHalves),
    totalMarks: formatHalves(r.totalHalves),
    percent: subjectPercent(r.totalHalves),
    grade: r.grade,
    remarks: r.remarks,
    updatedAt: r.updatedAt.toISOString(),
  };
}

export const rosterStudentDto = z.object({
  id: z.string(),
  name: z.string(),
  rollNumber: z.number().int(),
  admissionNumber: z.string().nullable(),
});

export const classResultsDto = z.object({
  academicSession: z.string(),
  class: z.string(),
  section: z.string(),
  subjects: z.array(z.object({ id: z.string(), name: z.string() })),
  /** who sat in this class and section in that session, by roll number */
  students: z.array(rosterStudentDto),
  results: z.array(resultDto),
});

export const classQuery = z.object({
  class: classParam,
  section: sectionParam,
  academicSession: sessionNameParam,
});

export const marksheetQuery = classQuery.extend({
  rollNumber: z.coerce
    .number({ error: 'Select a roll number' })
    .int('Select a roll number')
    .min(1, 'Select a roll number')
    .max(100_000, 'Select a roll number'),
});

export const bulkAnswerDto = z.object({
  success: z.literal(true),
  /** entries whose marks differed from what was stored (or would, with validateOnly) */
  saved: z.number().int(),
  /** entries identical to what was stored: nothing written */
  unchanged: z.number().int(),
  validateOnly: z.boolean(),
});

export const bulkErrorDto = z
  .object({
    error: z.string().describe('"<student> — <subject>: <problem>" for the first bad entry'),
    fields: z.record(z.string(), z.string()).optional().describe('every problem, keyed results.<index>.<field>'),
    entry: z.object({ studentId: z.string(), subject: z.string(), field: z.string() }).optional(),
  })
  .passthrough();
