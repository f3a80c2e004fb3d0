import { z } from 'zod';
import { normaliseClass, normaliseSection } from './classes';

/**
 * Marks, grades and percentages (operations §4, §5, §9). Marks are whole or half marks, held as
 * integer half-marks (4.5 → 9) so sums and comparisons are exact; nothing here uses float
 * arithmetic on a mark, and percentages are rounded from integers.
 */

/** The fields a teacher types; FA, total and grade are computed from them. */
export const MARK_FIELDS = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'ca', 'sa'] as const;
export type MarkField = (typeof MARK_FIELDS)[number];
export const FA_FIELDS = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6'] as const;

/** Maximum whole marks per field: F1–F6 5 each (FA 30), CA 20, SA 50; total 100. */
export const MARK_MAX: Record<MarkField, number> = { f1: 5, f2: 5, f3: 5, f4: 5, f5: 5, f6: 5, ca: 20, sa: 50 };
export const FA_MAX = 30;
export const SUBJECT_MAX = 100;

export const FIELD_LABEL: Record<MarkField, string> = {
  f1: 'F1', f2: 'F2', f3: 'F3', f4: 'F4', f5: 'F5', f6: 'F6', ca: 'CA', sa: 'SA',
};

/** A mark in half-marks: 9 means 4.5. */
export type Halves = number;
export type MarkHalves = Record<MarkField, Halves | null>;

export type ParsedMark = { ok: true; value: Halves | null } | { ok: false; message: string };

const MARK_TEXT = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * Reads one typed mark: blank is "not entered" (null); "4", "4.5", "4.50" and the JSON numbers
 * 4 and 4.5 are marks; anything else gets the message the server and the grid both show.
 */
export function parseMark(field: MarkField, input: string | number | null | undefined): ParsedMark {
  const label = FIELD_LABEL[field];
  const max = MARK_MAX[field];
  const range = `${label} must be between 0 and ${max}`;
  if (input === null || input === undefined) return { ok: true, value: null };
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, message: `${label} must be a number` };
    text = String(input);
    if (/e/i.test(text)) return { ok: false, message: range };
  } else {
    text = input.trim();
  }
  if (text === '') return { ok: true, value: null };
  const match = MARK_TEXT.exec(text);
  if (!match) return { ok: false, message: `${label} must be a number` };
  const [, sign, wholeText = '', fractionText = ''] = match;
  const fraction = fractionText.replace(/0+$/, '');
  const isZero = /^0+$/.test(wholeText) && fraction === '';
  if (sign && !isZero) return { ok: false, message: range };
  if (wholeText.replace(/^0+/, '').length > 3) return { ok: false, message: range };
  if (fraction !== '' && fraction !== '5') {
    return { ok: false, message: `${label} must be a whole or half mark (like 4 or 4.5)` };
  }
  const halves = Number(wholeText) * 2 + (fraction === '5' ? 1 : 0);
  if (halves > max * 2) return { ok: false, message: range };
  return { ok: true, value: halves };
}

/** "4.5", "4", or "" for a mark not entered: the wire and screen form of a half-mark count. */
export function formatHalves(value: Halves | null | undefined): string {
  if (value === null || value === undefined) return '';
  const whole = Math.floor(value / 2);
  return value % 2 === 0 ? String(whole) : `${whole}.5`;
}

/** Reads a computed figure from the wire ("89.5", "712") back into half-marks; null when not one. */
export function parseHalves(text: string | null | undefined): Halves | null {
  const match = /^(\d{1,6})(?:\.(5|0))?$/.exec((text ?? '').trim());
  if (!match) return null;
  return Number(match[1]) * 2 + (match[2] === '5' ? 1 : 0);
}

export const GRADE_BANDS = [
  { min: 90, grade: 'A+' },
  { min: 80, grade: 'A' },
  { min: 70, grade: 'B+' },
  { min: 60, grade: 'B' },
  { min: 50, grade: 'C+' },
  { min: 40, grade: 'C' },
  { min: 33, grade: 'D' },
  { min: 0, grade: 'F' },
] as const;
export type Grade = (typeof GRADE_BANDS)[number]['grade'];

/**
 * The grade of a score out of a maximum (§9 bands on the percent): percent ≥ band is compared as
 * scored × 100 ≥ band × max, in integers, so 89.5 is an A and 90 an A+.
 */
export function gradeFor(scoredHalves: Halves, maxMarks: number): Grade {
  for (const band of GRADE_BANDS) {
    if (scoredHalves * 100 >= band.min * maxMarks * 2) return band.grade;
  }
  return 'F';
}

export interface ComputedMarks {
  faHalves: Halves;
  totalHalves: Halves;
  grade: Grade;
}

/** FA = F1 + … + F6, total = FA + CA + SA (blank counts as nothing), grade on the total out of 100. */
export function computeMarks(marks: MarkHalves): ComputedMarks {
  let fa = 0;
  for (const f of FA_FIELDS) fa += marks[f] ?? 0;
  const total = fa + (marks.ca ?? 0) + (marks.sa ?? 0);
  return { faHalves: fa, totalHalves: total, grade: gradeFor(total, SUBJECT_MAX) };
}

/**
 * numerator ÷ denominator as a percent with `decimals` places, rounded half up in integers
 * (no float division touches the figure).
 */
export function formatPercent(numerator: number, denominator: number, decimals: number): string {
  if (denominator <= 0) return (0).toFixed(decimals);
  const scale = 10 ** decimals;
  const scaled = Math.floor((2 * numerator * 100 * scale + denominator) / (2 * denominator));
  const whole = Math.floor(scaled / scale);
  if (decimals === 0) return String(whole);
  return `${whole}.${String(scaled % scale).padStart(decimals, '0')}`;
}

/** A subject's percent on the marksheet: its total out of 100, with one decimal ("87.5"). */
export function subjectPercent(totalHalves: Halves): string {
  return formatPercent(totalHalves, SUBJECT_MAX * 2, 1);
}

export interface GrandTotal {
  /** sum of every subject's total, in half-marks */
  totalHalves: Halves;
  /** subjects whose total is above zero: the ones the grand percent counts */
  countedSubjects: number;
  /** 100 × counted subjects */
  maxMarks: number;
  /** two decimals, "78.45" */
  percent: string;
  grade: Grade | null;
}

/**
 * Grand total and percent (§9): the sum of totals over subjects whose total is above zero,
 * divided by 100 times their count. A subject a student has no marks in does not pull the
 * percent down. Two decimals, since the division rarely comes out even.
 */
export function grandTotal(totals: ReadonlyArray<Halves | null | undefined>): GrandTotal {
  let sum = 0;
  let counted = 0;
  for (const t of totals) {
    if (t && t > 0) {
      sum += t;
      counted += 1;
    }
  }
  const maxMarks = SUBJECT_MAX * counted;
  return {
    totalHalves: sum,
    countedSubjects: counted,
    maxMarks,
    percent: formatPercent(sum, maxMarks * 2, 2),
    grade: counted > 0 ? gradeFor(sum, maxMarks) : null,
  };
}

/** The average of some half-mark figures, one decimal ("72.5"); "" when there are none. */
export function averageHalves(values: ReadonlyArray<Halves>): string {
  if (values.length === 0) return '';
  let sum = 0;
  for (const v of values) sum += v;
  // average marks = sum / (2 × n); formatPercent multiplies by 100, so divide by 100 more
  return formatPercent(sum, values.length * 2 * 100, 1);
}

/** A row of the marks grid as typed: every field as text. */
export type MarkTexts = Record<MarkField, string>;

export const emptyMarkTexts = (): MarkTexts => ({ f1: '', f2: '', f3: '', f4: '', f5: '', f6: '', ca: '', sa: '' });

/** Two typed marks are the same mark ("4.50" and "4.5"), or the same text when not marks. */
function sameMark(field: MarkField, a: string, b: string): boolean {
  const pa = parseMark(field, a);
  const pb = parseMark(field, b);
  if (pa.ok && pb.ok) return pa.value === pb.value;
  return a.trim() === b.trim();
}

/**
 * Operations §4: an entry counts as changed when a typed field differs from the last loaded
 * value and is not blank. Clearing a field alone is not a change.
 */
export function isEntryChanged(draft: MarkTexts, baseline: MarkTexts): boolean {
  return MARK_FIELDS.some((f) => draft[f].trim() !== '' && !sameMark(f, draft[f], baseline[f]));
}

/** Parses a whole grid row; the first problem per field, by field. */
export function parseMarkTexts(texts: Partial<Record<MarkField, string | number | null | undefined>>): {
  marks: MarkHalves;
  errors: Partial<Record<MarkField, string>>;
} {
  const marks = {} as MarkHalves;
  const errors: Partial<Record<MarkField, string>> = {};
  for (const f of MARK_FIELDS) {
    const parsed = parseMark(f, texts[f]);
    if (parsed.ok) marks[f] = parsed.value;
    else {
      marks[f] = null;
      errors[f] = parsed.message;
    }
  }
  return { marks, errors };
}

/** How a bad entry is named to a person: student, subject and what is wrong with which field. */
export function entryMessage(studentName: string, subject: string, problem: string): string {
  return `${studentName} — ${subject}: ${problem}`;
}

/** A problem with an entry's `loaded` marks (what the page loaded), told apart from the marks sent. */
export const loadedMarkProblem = (problem: string): string => `as loaded, ${problem}`;

/**
 * A mark this save changed that someone else changed too after the page was loaded: the save is
 * refused so neither mark is lost without anyone knowing.
 */
export function changedMeanwhileMessage(studentName: string, subject: string, field: MarkField, now: Halves | null): string {
  const shown = now === null ? 'blank' : formatHalves(now);
  return entryMessage(
    studentName,
    subject,
    `${FIELD_LABEL[field]} was changed by someone else after this page was loaded (now ${shown}). Reload the marks to see it, then enter yours again.`,
  );
}

// ——— Inputs (one schema per input; the routes and the forms use these) ———

export const classParam = z
  .string({ error: 'Select a class' })
  .trim()
  .min(1, 'Select a class')
  .refine((v) => normaliseClass(v) !== null, 'Select a valid class')
  .transform((v) => normaliseClass(v)!);

export const sectionParam = z
  .string()
  .trim()
  .optional()
  .refine((v) => normaliseSection(v) !== null, 'Sections are A to F')
  .transform((v) => normaliseSection(v)!);

export const sessionNameParam = z.string({ error: 'Select an academic session' }).trim().min(1, 'Select an academic session').max(50);

export const subjectNameSchema = z
  .string({ error: 'Subject name is required' })
  .trim()
  .min(1, 'Subject name is required')
  .max(60, 'Subject name is too long (60 characters at most)');

export const addSubjectSchema = z.object({ class: classParam, name: subjectNameSchema });
export const renameSubjectSchema = z.object({ name: subjectNameSchema });
export const reorderSubjectsSchema = z.object({
  class: classParam,
  subjectIds: z.array(z.string()).min(1, 'Give the subjects in their new order').max(100),
});

const markWire = z
  .union([z.string().max(20), z.number(), z.null()])
  .optional()
  .describe('a whole or half mark as text ("4", "4.5"); blank or null when not entered');

/** An entry's marks as the page loaded them: what the save compares the stored marks against. */
export const loadedMarksSchema = z
  .object({ f1: markWire, f2: markWire, f3: markWire, f4: markWire, f5: markWire, f6: markWire, ca: markWire, sa: markWire })
  .describe(
    'the eight marks as the page loaded them (same form as the marks; a field left out is blank). With it, only marks that differ from it are written; the others keep what is stored now',
  );
export type LoadedMarks = z.infer<typeof loadedMarksSchema>;

/** One entry of POST /api/results/bulk (operations §7). fa, totalMarks and grade are ignored. */
export const resultEntrySchema = z.object({
  studentId: z.string().max(64),
  academicSession: sessionNameParam.describe('the session name, e.g. 2025-2026'),
  subject: z.string().trim().min(1, 'Subject is required').max(60),
  f1: markWire,
  f2: markWire,
  f3: markWire,
  f4: markWire,
  f5: markWire,
  f6: markWire,
  ca: markWire,
  sa: markWire,
  fa: z.unknown().optional().describe('ignored: the server computes FA = F1 + … + F6'),
  totalMarks: z.unknown().optional().describe('ignored: the server computes the total'),
  grade: z.unknown().optional().describe('ignored: the server computes the grade'),
  remarks: z.string().max(500, 'Remarks are too long (500 characters at most)').optional(),
  loaded: loadedMarksSchema.optional(),
});
export type ResultEntryInput = z.infer<typeof resultEntrySchema>;

export const BULK_MAX_ENTRIES = 5000;

export const bulkResultsSchema = z.object({
  results: z
    .array(resultEntrySchema)
    .min(1, 'No results to save')
    .max(BULK_MAX_ENTRIES, `Send at most ${BULK_MAX_ENTRIES} entries at a time`),
  class: classParam.optional().describe('when given, every student must sit in this class (and section) in the session'),
  section: sectionParam.describe('with class: the section every student must sit in; A when omitted'),
  validateOnly: z.boolean().optional().describe('check every entry and count what would be saved, store nothing'),
});
export type BulkResultsInput = z.input<typeof bulkResultsSchema>;
