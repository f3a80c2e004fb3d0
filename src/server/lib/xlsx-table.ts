import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { csvDocument, type CsvCell } from './csv';

export interface Column {
  header: string;
  width: number;
  /** an amount: a decimal rupee string written as a spreadsheet number */
  money?: boolean;
}

const MONEY_FORMAT = '#,##,##0.00';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * One sheet of a register (cheques, cancellations, the audit log): a title line, a header row and
 * the rows. Registers are bounded by a date range, so they are built in memory.
 */
export async function tableXlsx(title: string, columns: Column[], rows: CsvCell[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(title.slice(0, 31));
  sheet.columns = columns.map((c) => ({ width: c.width, ...(c.money ? { style: { numFmt: MONEY_FORMAT } } : {}) }));
  sheet.addRow([title]).font = { bold: true, size: 14 };
  sheet.addRow(columns.map((c) => c.header)).font = { bold: true };
  for (const row of rows) sheet.addRow(row.map((cell, i) => (columns[i]?.money && typeof cell === 'string' && cell !== '' ? Number(cell) : (cell ?? ''))));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export async function sendTable(reply: FastifyReply, kind: 'xlsx' | 'csv', file: string, title: string, columns: Column[], rows: CsvCell[][]) {
  reply.header('content-disposition', `attachment; filename="${file}.${kind}"`);
  if (kind === 'csv') return reply.type('text/csv; charset=utf-8').send(csvDocument([columns.map((c) => c.header), ...rows]));
  return reply.type(XLSX_TYPE).send(await tableXlsx(title, columns, rows));
}
