import Papa from 'papaparse';
import { z } from 'zod';
import { normaliseClass, normaliseSection } from './classes';
import { neutraliseCell, restoreCell } from './csv-cell';
import { checkLineAmount, clientIdInput, lineAmount, MONTH_KEY_PATTERN, parseMonthInput } from './ledger';
import { paise, ZERO, type Paise } from './money';
import type { SessionMonth } from './sessions';

/**
 * Opening balances (decision 0027): what a school that starts mid-year brings from its old register.
 *
 * - **Arrears** (money owed before go-live), per head or as one lump sum: rows of `opening_balances`,
 *   owed like a balance carried from an earlier session and paid by `opening_balance` lines.
 * - **Months already paid** in the running session before go-live: receipts of source `opening`
 *   (prefix OPN) whose lines settle those months, so the grid and fee status show them paid; they are
 *   never income of a day.
 */

export const OPENING_HEADS = ['tuition', 'bus', 'admission', 'exam', 'books', 'uniform', 'misc', 'other', 'lump_sum'] as const;
export type OpeningHead = (typeof OPENING_HEADS)[number];

export const OPENING_HEAD_LABELS: Record<OpeningHead, string> = {
  tuition: 'Tuition',
  bus: 'Bus',
  admission: 'Admission / Yearly',
  exam: 'Exam',
  books: 'Books',
  uniform: 'Uniform',
  misc: 'Misc',
  other: 'Other',
  lump_sum: 'Lump sum',
};

/** Arrears of these heads are the monthly part of the balance (paid first, like a carried balance). */
export const isMonthlyOpeningHead = (head: OpeningHead) => head === 'tuition' || head === 'bus';

export const OPENING_MESSAGES = {
  nothing: 'Enter an opening balance amount or tick a month already paid',
  already: (name: string) => `${name} already has opening entries. Cancel them first to enter them again.`,
  monthNotInSession: (label: string, session: string) => `${label} is not a month of the ${session} session`,
  monthNotBeforeToday: (label: string) => `${label} has not begun yet: only months up to this month can be entered as paid before go-live`,
  monthNothingDue: (label: string) => `${label}: nothing is still due for tuition or bus, so it cannot be entered as paid`,
  cancelPaid: (paid: string, left: string) =>
    `${paid} was already collected against this student's opening arrears; cancelling this entry would leave only ${left} owed. Cancel those receipts first.`,
  alreadyCancelled: 'This opening entry was already cancelled',
  notFound: 'Opening entry not found',
  noStudent: 'No student matches this row: give the admission number, or the name and class as in the student list',
  ambiguous: (n: number) => `${n} students match this name and class: give the admission number`,
  duplicateInFile: (row: number) => `The same student is already on row ${row} of this file`,
  empty: 'The file has no rows to import. Download the template, fill one row per student and import it again.',
  tooMany: 'An opening balance import can hold at most 5,000 rows',
  unreadable: 'The file could not be read. Save it as CSV (UTF-8) or Excel (.xlsx) from the template and import it again.',
} as const;

const optionalNote = z
  .string()
  .nullish()
  .transform((v) => (v ?? '').trim())
  .pipe(z.string().max(200, 'The note is too long (at most 200 characters)'));

const monthKeyInput = z
  .string()
  .transform((v, ctx) => {
    const key = parseMonthInput(v);
    if (!key) {
      ctx.addIssue({ code: 'custom', message: `"${v.slice(0, 20)}" is not a month (use 2026-06 or June 2026)` });
      return z.NEVER;
    }
    return key;
  });

const amountsShape = Object.fromEntries(OPENING_HEADS.map((h) => [h, lineAmount(`${OPENING_HEAD_LABELS[h]} arrears`)])) as Record<
  OpeningHead,
  ReturnType<typeof lineAmount>
>;

/** One student's opening entry, from the dialog on the student's fee screen. */
export const openingEntrySchema = z
  .object({
    studentId: z.string({ error: 'Please select a student first' }).trim().min(1, 'Please select a student first').max(100),
    /** arrears per head in rupees; blank or absent is none */
    amounts: z.object(amountsShape).partial().nullish().transform((v) => v ?? {}),
    /** months of the student's running session already paid before go-live (`2026-04` or "April 2026") */
    paidMonths: z.array(monthKeyInput).max(24, 'At most 24 months').nullish().transform((v) => [...new Set(v ?? [])].sort()),
    note: optionalNote,
    clientId: clientIdInput,
  })
  .superRefine((v, ctx) => {
    if (v.paidMonths.length === 0 && !Object.values(v.amounts).some((a) => a !== null && a !== undefined && a > 0)) {
      ctx.addIssue({ code: 'custom', message: OPENING_MESSAGES.nothing, path: ['amounts'] });
    }
  });
export type OpeningEntryInput = z.input<typeof openingEntrySchema>;
export type OpeningEntry = z.output<typeof openingEntrySchema>;

export const cancelOpeningSchema = z.object({
  reason: z
    .string({ error: 'Please enter a reason for cancelling this entry' })
    .nullish()
    .transform((v) => (v ?? '').trim())
    .pipe(z.string().min(1, 'Please enter a reason for cancelling this entry').max(500, 'The reason is too long (at most 500 characters)')),
});

/** The arrear amounts of an entry that are above zero, in the heads' order. */
export function arrearLines(amounts: Partial<Record<OpeningHead, Paise | null>>): Array<{ head: OpeningHead; amount: Paise }> {
  return OPENING_HEADS.flatMap((head) => {
    const amount = amounts[head];
    return amount ? [{ head, amount }] : [];
  });
}

/** Opening arrears split like a carried balance: tuition and bus are the monthly part, the rest yearly. */
export function splitArrears(rows: ReadonlyArray<{ head: OpeningHead; amount: Paise }>): { monthly: Paise; yearly: Paise } {
  let monthly = 0;
  let yearly = 0;
  for (const r of rows) {
    if (isMonthlyOpeningHead(r.head)) monthly += r.amount;
    else yearly += r.amount;
  }
  return { monthly: paise(monthly), yearly: paise(yearly) };
}

/** The session's months from its first up to `through` (`YYYY-MM`), for "paid through June 2026". */
export function monthsThrough(months: readonly SessionMonth[], through: string): string[] {
  return months.filter((m) => m.key <= through).map((m) => m.key);
}

/**
 * Why months cannot be entered as paid before go-live: each must be a month of the session that
 * has begun (not after `currentMonth`). Null when all are fine.
 */
export function paidMonthsProblems(
  keys: readonly string[],
  { months, currentMonth, sessionName, label }: { months: readonly SessionMonth[]; currentMonth: string; sessionName: string; label: (key: string) => string },
): string[] {
  const inSession = new Set(months.map((m) => m.key));
  const problems: string[] = [];
  for (const key of keys) {
    if (!MONTH_KEY_PATTERN.test(key) || !inSession.has(key)) problems.push(OPENING_MESSAGES.monthNotInSession(label(key), sessionName));
    else if (key > currentMonth) problems.push(OPENING_MESSAGES.monthNotBeforeToday(label(key)));
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Import (CSV or Excel, one row per student)
// ---------------------------------------------------------------------------------------------

export const OPENING_TEMPLATE_NAME = 'opening-balances-template';

export const OPENING_TEMPLATE_COLUMNS = [
  'admission_number', 'name', 'class', 'section', ...OPENING_HEADS, 'paid_through', 'note',
] as const;

/** What each template column means, for the template's second sheet and the dialog. */
export const OPENING_TEMPLATE_HELP: Record<(typeof OPENING_TEMPLATE_COLUMNS)[number], string> = {
  admission_number: 'Finds the student (preferred). Leave blank to find them by name and class.',
  name: "The student's name as in the student list",
  class: 'Class as in the student list (Class 5, 5th, V)',
  section: 'Optional: A–F, when two students of a class share a name',
  tuition: 'Tuition arrears from the old register, in rupees',
  bus: 'Bus fee arrears, in rupees',
  admission: 'Admission / yearly fee arrears, in rupees',
  exam: 'Exam fee arrears, in rupees',
  books: 'Books arrears, in rupees',
  uniform: 'Uniform arrears, in rupees',
  misc: 'Misc arrears, in rupees',
  other: 'Any other arrears, in rupees',
  lump_sum: 'One total instead of (or besides) the heads, in rupees',
  paid_through: 'Last month of this session already paid before go-live (June 2026 or 2026-06); blank: none',
  note: 'Optional note (e.g. "old register p. 14")',
};

export const OPENING_TEMPLATE_EXAMPLE: Record<(typeof OPENING_TEMPLATE_COLUMNS)[number], string> = {
  admission_number: 'ADM-101',
  name: 'Aarav Sharma',
  class: 'Class 5',
  section: 'A',
  tuition: '3000',
  bus: '1000',
  admission: '',
  exam: '',
  books: '',
  uniform: '',
  misc: '',
  other: '',
  lump_sum: '',
  paid_through: '2026-08',
  note: 'Old register page 14',
};

export function openingTemplateCsv(): string {
  return (
    Papa.unparse({
      fields: [...OPENING_TEMPLATE_COLUMNS],
      data: [OPENING_TEMPLATE_COLUMNS.map((c) => neutraliseCell(OPENING_TEMPLATE_EXAMPLE[c]))],
    }) + '\r\n'
  );
}

const HEADER_ALIASES: Record<string, string> = {
  admission_no: 'admission_number',
  adm_no: 'admission_number',
  admission_number: 'admission_number',
  student_name: 'name',
  class_name: 'class',
  lump: 'lump_sum',
  lumpsum: 'lump_sum',
  total: 'lump_sum',
  paid_till: 'paid_through',
  paid_upto: 'paid_through',
  paid_up_to: 'paid_through',
  months_paid_through: 'paid_through',
};

export const normaliseOpeningHeader = (key: string): string => {
  const name = key.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return HEADER_ALIASES[name] ?? name;
};

export interface OpeningImportRow {
  /** the row number in the file (the header is row 1) */
  row: number;
  values: Record<string, string>;
}

/** Rows of a file as header → text, blank rows left out. */
export function openingRowsFromObjects(list: ReadonlyArray<Record<string, unknown>>, firstRow = 2): OpeningImportRow[] {
  const rows: OpeningImportRow[] = [];
  for (const [index, object] of list.entries()) {
    const values: Record<string, string> = {};
    for (const [key, value] of Object.entries(object ?? {})) {
      const name = normaliseOpeningHeader(key);
      if (!name || values[name] !== undefined) continue;
      values[name] = value === null || value === undefined || typeof value === 'object' ? '' : restoreCell(String(value).trim());
    }
    if (Object.values(values).every((v) => v === '')) continue;
    rows.push({ row: index + firstRow, values });
  }
  return rows;
}

export function parseOpeningCsv(text: string): OpeningImportRow[] {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy' });
  return openingRowsFromObjects(parsed.data);
}

export interface ParsedOpeningRow {
  row: number;
  admissionNumber: string | null;
  name: string;
  className: string | null;
  section: string | null;
  arrears: Array<{ head: OpeningHead; amount: Paise }>;
  /** `YYYY-MM` or null */
  paidThrough: string | null;
  note: string;
  /** every problem of the row, not only the first */
  errors: string[];
}

/** Reads one row: every amount, the month and the student's identification, collecting all errors. */
export function readOpeningRow(r: OpeningImportRow): ParsedOpeningRow {
  const v = r.values;
  const errors: string[] = [];
  const admissionNumber = (v.admission_number ?? '').trim() || null;
  const name = (v.name ?? '').trim();
  const classText = (v.class ?? '').trim();
  const className = classText ? normaliseClass(classText) : null;
  if (classText && !className) errors.push(`"${classText.slice(0, 30)}" is not a class`);
  const sectionText = (v.section ?? '').trim();
  const section = sectionText ? normaliseSection(sectionText) : null;
  if (sectionText && !section) errors.push(`Section must be A to F, not "${sectionText.slice(0, 10)}"`);
  if (!admissionNumber && (!name || !classText)) errors.push('Give the admission number, or the name and class of the student');
  const arrears: ParsedOpeningRow['arrears'] = [];
  for (const head of OPENING_HEADS) {
    const text = (v[head] ?? '').trim();
    if (!text) continue;
    const result = checkLineAmount(text, `${OPENING_HEAD_LABELS[head]} arrears`);
    if (!result.ok) errors.push(result.message);
    else if (result.value) arrears.push({ head, amount: result.value });
  }
  const throughText = (v.paid_through ?? '').trim();
  const paidThrough = throughText ? parseMonthInput(throughText) : null;
  if (throughText && !paidThrough) errors.push(`Paid through "${throughText.slice(0, 20)}" is not a month (use 2026-06 or June 2026)`);
  const note = (v.note ?? '').trim().slice(0, 200);
  if (errors.length === 0 && arrears.length === 0 && !paidThrough) errors.push('Nothing to enter: no arrears and no paid-through month');
  return { row: r.row, admissionNumber, name, className, section, arrears, paidThrough, note, errors };
}

export const totalArrears = (rows: ReadonlyArray<{ amount: Paise }>): Paise => rows.reduce((s, r) => paise(s + r.amount), ZERO);
