import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { normaliseClass } from '../../domain/classes';
import {
  OPENING_MESSAGES,
  OPENING_TEMPLATE_COLUMNS,
  OPENING_TEMPLATE_EXAMPLE,
  OPENING_TEMPLATE_HELP,
  openingRowsFromObjects,
  parseOpeningCsv,
  readOpeningRow,
  type OpeningImportRow,
  type ParsedOpeningRow,
} from '../../domain/opening';
import type { Db } from '../db/client';
import { students } from '../db/schema';
import type { StudentRow } from '../fees/queries';

export const MAX_OPENING_ROWS = 5000;

/** The template as an Excel workbook: the columns with an example row, and a sheet explaining them. */
export async function openingTemplateXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Opening balances');
  sheet.addRow([...OPENING_TEMPLATE_COLUMNS]);
  sheet.addRow(OPENING_TEMPLATE_COLUMNS.map((c) => OPENING_TEMPLATE_EXAMPLE[c]));
  sheet.getRow(1).font = { bold: true };
  sheet.columns.forEach((column) => (column.width = 16));
  const help = workbook.addWorksheet('How to fill');
  help.addRow(['Column', 'What to enter']);
  help.getRow(1).font = { bold: true };
  for (const c of OPENING_TEMPLATE_COLUMNS) help.addRow([c, OPENING_TEMPLATE_HELP[c]]);
  help.getColumn(1).width = 18;
  help.getColumn(2).width = 90;
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Rows of an uploaded file (CSV text or an .xlsx workbook's first sheet), or why it cannot be read. */
export async function readOpeningFile(file: { csv?: string | null; xlsxBase64?: string | null }): Promise<{ ok: true; rows: OpeningImportRow[] } | { ok: false; error: string }> {
  let rows: OpeningImportRow[];
  try {
    if (file.xlsxBase64) {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.from(file.xlsxBase64, 'base64') as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0];
      if (!sheet) return { ok: false, error: OPENING_MESSAGES.empty };
      const header: string[] = [];
      sheet.getRow(1).eachCell({ includeEmpty: true }, (cell, col) => (header[col] = cell.text));
      const objects: Array<Record<string, unknown>> = [];
      for (let r = 2; r <= sheet.rowCount; r += 1) {
        const row = sheet.getRow(r);
        const object: Record<string, unknown> = {};
        header.forEach((name, col) => {
          if (name) object[name] = row.getCell(col).text;
        });
        objects.push(object);
      }
      rows = openingRowsFromObjects(objects);
    } else {
      rows = parseOpeningCsv(file.csv ?? '');
    }
  } catch {
    return { ok: false, error: OPENING_MESSAGES.unreadable };
  }
  if (rows.length === 0) return { ok: false, error: OPENING_MESSAGES.empty };
  if (rows.length > MAX_OPENING_ROWS) return { ok: false, error: OPENING_MESSAGES.tooMany };
  return { ok: true, rows };
}

const key = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');

export interface MatchedRow extends ParsedOpeningRow {
  student: StudentRow | null;
}

/**
 * Reads every row and finds its student: by admission number, else by name and class (and section
 * when given). Every problem of a row is collected; a student named on two rows is an error.
 */
export async function matchOpeningRows(db: Db, { schoolId, rows }: { schoolId: string; rows: OpeningImportRow[] }): Promise<MatchedRow[]> {
  const all = await db.select().from(students).where(eq(students.schoolId, schoolId));
  const byAdmission = new Map<string, StudentRow>();
  const byNameClass = new Map<string, StudentRow[]>();
  for (const s of all) {
    if (s.admissionNumber) byAdmission.set(key(s.admissionNumber), s);
    const k = `${key(s.name)}|${normaliseClass(s.className) ?? key(s.className)}`;
    byNameClass.set(k, [...(byNameClass.get(k) ?? []), s]);
  }
  const seen = new Map<string, number>();
  return rows.map((raw) => {
    const parsed = readOpeningRow(raw);
    let student: StudentRow | null = null;
    if (parsed.admissionNumber) {
      student = byAdmission.get(key(parsed.admissionNumber)) ?? null;
      if (!student) parsed.errors.push(`No student has admission number "${parsed.admissionNumber.slice(0, 30)}"`);
    } else if (parsed.name && parsed.className) {
      const found = (byNameClass.get(`${key(parsed.name)}|${parsed.className}`) ?? []).filter(
        (s) => !parsed.section || s.section === parsed.section,
      );
      const active = found.filter((s) => s.status === 'active');
      const pick = active.length > 0 ? active : found;
      if (pick.length === 1) student = pick[0]!;
      else if (pick.length === 0) parsed.errors.push(OPENING_MESSAGES.noStudent);
      else parsed.errors.push(OPENING_MESSAGES.ambiguous(pick.length));
    }
    if (student) {
      const first = seen.get(student.id);
      if (first !== undefined) parsed.errors.push(OPENING_MESSAGES.duplicateInFile(first));
      else seen.set(student.id, parsed.row);
    }
    return { ...parsed, name: parsed.name || student?.name || '', student };
  });
}
