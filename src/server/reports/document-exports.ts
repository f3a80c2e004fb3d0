import ExcelJS from 'exceljs';
import type { ReportDocument, ReportTable } from '../../domain/report-document';
import { formatIndiaDateTime } from '../../domain/reports';
import { csvDocument, type CsvCell } from '../lib/csv';

/**
 * A report document as an Excel workbook (a Summary sheet, then a sheet per table with its total
 * row) or as CSV. Money cells become numbers with two decimals; everything else is as shown.
 */

const MONEY_FORMAT = '#,##,##0.00';

const cellValue = (kind: string, value: string | number | undefined) => {
  if (value === undefined || value === '') return '';
  if (kind === 'money' && typeof value === 'string' && /^-?\d+\.\d{2}$/.test(value)) return Number(value);
  if (kind === 'percent' && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
};

/** Sheet names: at most 31 characters, none of []:*?/\ and unique. */
function sheetName(title: string, used: Set<string>): string {
  const base = title.replace(/[[\]:*?/\\]/g, ' ').slice(0, 28).trim() || 'Sheet';
  let name = base;
  for (let i = 2; used.has(name); i++) name = `${base.slice(0, 26)} ${i}`;
  used.add(name);
  return name;
}

export async function documentXlsx(doc: ReportDocument): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = doc.schoolName;
  const used = new Set<string>();
  const summary = workbook.addWorksheet(sheetName('Summary', used));
  summary.columns = [{ width: 40 }, { width: 24 }];
  summary.addRow([`${doc.schoolName}: ${doc.title}`]).font = { bold: true, size: 14 };
  summary.addRow([doc.subtitle]);
  summary.addRow(['Generated', formatIndiaDateTime(doc.generatedAt)]);
  summary.addRow([]);
  for (const s of doc.summary) {
    const row = summary.addRow([s.label, cellValue(s.kind, s.value)]);
    if (s.kind === 'money') row.getCell(2).numFmt = MONEY_FORMAT;
  }
  for (const table of doc.tables) addTableSheet(workbook, table, sheetName(table.title, used));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function addTableSheet(workbook: ExcelJS.Workbook, table: ReportTable, name: string) {
  const sheet = workbook.addWorksheet(name);
  sheet.columns = table.columns.map((c) => ({
    header: c.label,
    width: Math.max(10, Math.min(40, c.label.length + 4, ...table.rows.slice(0, 200).map((r) => String(r[c.key] ?? '').length + 2))),
    ...(c.kind === 'money' ? { style: { numFmt: MONEY_FORMAT } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  for (const row of table.rows) sheet.addRow(table.columns.map((c) => cellValue(c.kind, row[c.key])));
  if (table.totals) sheet.addRow(table.columns.map((c) => cellValue(c.kind, table.totals![c.key]))).font = { bold: true };
}

export function documentCsv(doc: ReportDocument): string {
  const rows: CsvCell[][] = [[`${doc.schoolName}: ${doc.title}`], [doc.subtitle], ['Generated', formatIndiaDateTime(doc.generatedAt)], []];
  for (const s of doc.summary) rows.push([s.label, s.value]);
  for (const table of doc.tables) {
    rows.push([], [table.title], table.columns.map((c) => c.label));
    for (const row of table.rows) rows.push(table.columns.map((c) => row[c.key]));
    if (table.totals) rows.push(table.columns.map((c) => table.totals![c.key]));
  }
  return csvDocument(rows);
}
