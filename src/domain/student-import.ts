import Papa from 'papaparse';
import { neutraliseCell, restoreCell } from './csv-cell';
import type { CreateStudentInput } from './students';

/**
 * Bulk CSV import of students (operations §5 Bulk CSV). A real CSV parser, so quoted values with
 * commas work; headers are lowercased with non-alphanumerics turned into underscores, then the
 * aliases below are applied. Used by the server (and available to the browser for previews).
 */

export const TEMPLATE_FILE_NAME = 'bulk-student-import-template.csv';

export const TEMPLATE_COLUMNS = [
  'name', 'class', 'section', 'father_name', 'mother_name', 'mobile_number', 'aadhar_number',
  'residence', 'monthly_bus_fee', 'parent_name', 'parent_phone', 'parent_email', 'parent_whatsapp',
] as const;

/** Optional columns beyond the template that the importer also reads. */
export const EXTRA_COLUMNS = ['admission_number', 'date_of_birth', 'enrollment_date'] as const;

export const MAX_IMPORT_ROWS = 10_000;
/** A student row is a few hundred characters; anything this long is not a student row. */
export const MAX_ROW_CHARS = 10_000;

export const IMPORT_MESSAGES = {
  empty: 'Please enter CSV data',
  headerOnly: 'CSV must have header and at least one data row...',
  noValid: 'No valid student data found...',
  tooMany: 'A single import can hold at most 10,000 students',
} as const;

/** The template file offered for download: the header and one example row. */
export function templateCsv(): string {
  const example = [
    'Aarav Sharma', 'Class 1', 'A', 'Rakesh Sharma', 'Sunita Sharma', '9876543210', '', 'Rajbagh, Srinagar',
    '500', 'Rakesh Sharma', '9876543210', 'rakesh@example.com', '9876543210',
  ];
  return Papa.unparse({ fields: [...TEMPLATE_COLUMNS], data: [example] }) + '\r\n';
}

const ALIASES: Record<string, string> = {
  student_name: 'name',
  full_name: 'name',
  class_name: 'class',
  grade: 'class',
  standard: 'class',
  sec: 'section',
  father: 'father_name',
  fathers_name: 'father_name',
  mother: 'mother_name',
  mothers_name: 'mother_name',
  mobile: 'mobile_number',
  phone: 'mobile_number',
  phone_number: 'mobile_number',
  aadhar: 'aadhar_number',
  aadhaar: 'aadhar_number',
  aadhaar_number: 'aadhar_number',
  aadhar_no: 'aadhar_number',
  aadhaar_no: 'aadhar_number',
  address: 'residence',
  bus_fee: 'monthly_bus_fee',
  email: 'parent_email',
  whatsapp: 'parent_whatsapp',
  parent_whats_app: 'parent_whatsapp',
  dob: 'date_of_birth',
  birth_date: 'date_of_birth',
  admission_no: 'admission_number',
  admission: 'admission_number',
  adm_no: 'admission_number',
  enrolment_date: 'enrollment_date',
  admission_date: 'enrollment_date',
};

/** `Father Name` → `father_name`; `fatherName` → `father_name`; then the aliases. */
export function normaliseHeader(header: string): string {
  const snake = header
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return ALIASES[snake] ?? snake;
}

/** One data row: its row number as a spreadsheet shows it (the header is row 1). */
export interface ImportRow {
  row: number;
  values: Record<string, string>;
  /** set when the row cannot be read as a student row at all */
  problem?: string;
}

export type CsvParseResult = { ok: true; rows: ImportRow[] } | { ok: false; error: string };

const isBlank = (values: string[]) => values.every((v) => v.trim() === '');

function rowLength(values: Iterable<string>): number {
  let n = 0;
  for (const v of values) n += v.length + 1;
  return n;
}

function tooLong(row: number): string {
  return `Row ${row} is longer than 10,000 characters, which no student row needs. Check that this is the student CSV; nothing was imported.`;
}

/**
 * Reads CSV text into rows keyed by normalised header. Whole-file problems (nothing there, only a
 * header, broken quoting that swallows the rest of the file, too many rows) come back as one
 * message, so nothing is imported from a file that was not read as the person meant.
 */
export function parseStudentCsv(text: string): CsvParseResult {
  if (text.trim() === '') return { ok: false, error: IMPORT_MESSAGES.empty };
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    skipEmptyLines: false,
    delimitersToGuess: [',', '\t', ';'],
  });
  const quoteError = parsed.errors.find((e) => e.type === 'Quotes');
  if (quoteError) {
    const row = (quoteError.row ?? 0) + 1;
    return {
      ok: false,
      error: `Row ${row} has broken quoting: a value starts with a quote (") that is not closed properly. Put quotes around the whole value and double any quote inside it, then import again; nothing was imported.`,
    };
  }
  const records = parsed.data;
  const headerIndex = records.findIndex((r) => !isBlank(r));
  if (headerIndex < 0) return { ok: false, error: IMPORT_MESSAGES.empty };
  const header = records[headerIndex]!.map(normaliseHeader);
  if (rowLength(records[headerIndex]!) > MAX_ROW_CHARS) return { ok: false, error: tooLong(headerIndex + 1) };
  const rows: ImportRow[] = [];
  for (let i = headerIndex + 1; i < records.length; i++) {
    const record = records[i]!;
    if (isBlank(record)) continue;
    if (rows.length >= MAX_IMPORT_ROWS) return { ok: false, error: IMPORT_MESSAGES.tooMany };
    if (rowLength(record) > MAX_ROW_CHARS) return { ok: false, error: tooLong(i + 1) };
    const values: Record<string, string> = {};
    header.forEach((key, col) => {
      if (key && values[key] === undefined) values[key] = restoreCell((record[col] ?? '').trim());
    });
    const extra = record.slice(header.length).some((v) => v.trim() !== '');
    rows.push({
      row: i + 1,
      values,
      ...(extra
        ? {
            problem: `This row has ${record.length} values but the header has ${header.length} columns; put quotes around values that contain commas`,
          }
        : {}),
    });
  }
  if (rows.length === 0) return { ok: false, error: IMPORT_MESSAGES.headerOnly };
  return { ok: true, rows };
}

/**
 * Rows the browser already parsed (`{ students: [...] }`), keyed by template column or by the
 * camelCase field names; numbered as they would be in the file (the first student is row 2).
 */
export function rowsFromObjects(list: ReadonlyArray<Record<string, unknown>>): CsvParseResult {
  if (list.length > MAX_IMPORT_ROWS) return { ok: false, error: IMPORT_MESSAGES.tooMany };
  const rows: ImportRow[] = [];
  for (const [index, object] of list.entries()) {
    const values: Record<string, string> = {};
    for (const [key, value] of Object.entries(object ?? {})) {
      const name = normaliseHeader(key);
      if (!name || values[name] !== undefined) continue;
      values[name] = value === null || value === undefined || typeof value === 'object' ? '' : String(value).trim();
    }
    if (Object.values(values).every((v) => v === '')) continue;
    if (rowLength(Object.values(values)) > MAX_ROW_CHARS) return { ok: false, error: tooLong(index + 2) };
    rows.push({ row: index + 2, values });
  }
  if (rows.length === 0) return { ok: false, error: IMPORT_MESSAGES.noValid };
  return { ok: true, rows };
}

/** A row counts as a student row when it has a name and a class (operations §5). */
export function hasNameAndClass(row: ImportRow): boolean {
  return Boolean(row.values.name) && Boolean(row.values.class);
}

/**
 * The form-shaped input for one row. Section defaults to A; a file without a mobile number column
 * uses the parent's phone as the mobile number (the documents' "parent_phone as mobile").
 */
export function rowToStudentInput(values: Record<string, string>): CreateStudentInput {
  const v = (key: string) => values[key] ?? '';
  return {
    name: v('name'),
    class: v('class'),
    section: v('section') || 'A',
    admissionNumber: v('admission_number'),
    fatherName: v('father_name'),
    motherName: v('mother_name'),
    dateOfBirth: v('date_of_birth'),
    mobileNumber: v('mobile_number') || v('parent_phone'),
    aadharNumber: v('aadhar_number'),
    residence: v('residence'),
    parentName: v('parent_name'),
    parentPhone: v('parent_phone'),
    parentEmail: v('parent_email'),
    parentWhatsApp: v('parent_whatsapp'),
    monthlyBusFee: v('monthly_bus_fee'),
    enrollmentDate: v('enrollment_date'),
  };
}

/**
 * Possible duplicates (issue "The school year as a school lives it", item 5): the same student
 * twice, in the file or already in the school. Two rules: the same name, father's name and class
 * (compared without case or extra spaces), or the same Aadhaar number. Admission numbers are unique
 * in a school, so a repeated one is an error of the row, not a choice.
 */
export type DuplicateRule = 'name-father-class' | 'aadhaar';

export interface DuplicateMatch {
  rule: DuplicateRule;
  /** a row earlier in the same file … */
  row?: number;
  /** … or a student already in the school */
  studentId?: string;
  name: string;
  class: string;
  section: string;
  fatherName: string;
}

export interface DuplicateRow {
  row: number;
  name: string;
  matches: DuplicateMatch[];
}

/** `  Aarav   SHARMA ` → `aarav sharma` */
export function personKey(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

export function nameFatherClassKey(name: string, fatherName: string, className: string): string {
  return `${personKey(name)}|${personKey(fatherName)}|${className}`;
}

/** How a duplicate is described to the clerk: "Same name, father's name and class as row 4 (Aarav Sharma, Class 5-A)". */
export function describeMatch(m: DuplicateMatch): string {
  const what = m.rule === 'aadhaar' ? 'Same Aadhaar number as' : "Same name, father's name and class as";
  const who = `${m.name}, ${m.class}-${m.section}`;
  return m.row !== undefined ? `${what} row ${m.row} of this file (${who})` : `${what} ${who}, already in the school`;
}

/** Rows whose student appears earlier in the same file; the first of a group is not a duplicate. */
export function fileDuplicates(
  rows: ReadonlyArray<{ row: number; name: string; fatherName: string; class: string; section: string; aadhaar: string | null }>,
): Map<number, DuplicateMatch[]> {
  const firstByKey = new Map<string, (typeof rows)[number]>();
  const firstByAadhaar = new Map<string, (typeof rows)[number]>();
  const out = new Map<number, DuplicateMatch[]>();
  for (const r of rows) {
    const found: DuplicateMatch[] = [];
    const key = nameFatherClassKey(r.name, r.fatherName, r.class);
    const sameName = firstByKey.get(key);
    if (sameName) found.push({ rule: 'name-father-class', row: sameName.row, name: sameName.name, class: sameName.class, section: sameName.section, fatherName: sameName.fatherName });
    else firstByKey.set(key, r);
    if (r.aadhaar) {
      const sameAadhaar = firstByAadhaar.get(r.aadhaar);
      if (sameAadhaar) found.push({ rule: 'aadhaar', row: sameAadhaar.row, name: sameAadhaar.name, class: sameAadhaar.class, section: sameAadhaar.section, fatherName: sameAadhaar.fatherName });
      else firstByAadhaar.set(r.aadhaar, r);
    }
    if (found.length > 0) out.set(r.row, found);
  }
  return out;
}

/** The column that the rejected-rows file adds to the original ones. */
export const ERRORS_COLUMN = 'Errors';

/**
 * The rows that were not imported, as a CSV to fix and import again: the file's own header and
 * values, unchanged, plus an Errors column with every problem of the row. Row numbers are those
 * `parseStudentCsv` gives (the header is row 1). Cells are neutralised against formula injection;
 * the importer undoes that when the file comes back.
 */
export function rejectedRowsCsv(text: string, rejected: ReadonlyArray<{ row: number; reasons: readonly string[] }>): string {
  const records = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: false, delimitersToGuess: [',', '\t', ';'] }).data;
  const headerIndex = records.findIndex((r) => !isBlank(r));
  const header = headerIndex >= 0 ? records[headerIndex]! : [];
  const data = [...rejected]
    .sort((a, b) => a.row - b.row)
    .map((r) => {
      const record = records[r.row - 1] ?? [];
      const cells = header.map((_, col) => record[col] ?? '');
      return [...cells, r.reasons.join('; ')].map(neutraliseCell);
    });
  return Papa.unparse({ fields: [...header, ERRORS_COLUMN].map(neutraliseCell), data }) + '\r\n';
}
