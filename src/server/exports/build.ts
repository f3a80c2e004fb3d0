import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import type { Archiver, ArchiverOptions } from 'archiver';
import ExcelJS from 'exceljs';
import { toRupeeString, type Paise } from '../../domain/money';
import type { Db } from '../db/client';
import { CSV_BOM, csvLine, type CsvCell } from '../lib/csv';
import { continuedSheetName, EXCEL_MAX_ROWS } from '../lib/xlsx-stream';
import { countRows, ENTITIES, readPage, type Column, type Cursor, type Entity, type ExportRow } from './entities';
import { readmeText } from './readme';

/**
 * archiver 5 (what exceljs already uses) is `archiver(format, options)`; the installed @types/archiver
 * describe version 8's classes, so the factory is typed here by hand.
 */
const archiver = createRequire(import.meta.url)('archiver') as (format: 'zip', options?: ArchiverOptions) => Archiver;

/** Rows per query: small enough to keep memory flat, large enough that a big school needs few queries. */
export const PAGE_ROWS = 2000;

const MONEY_FORMAT = '#,##,##0.00';
const DATE_FORMAT = 'dd-mm-yyyy';
const DATETIME_FORMAT = 'dd-mm-yyyy hh:mm:ss';

export interface BuildInput {
  db: Db;
  schoolId: string;
  schoolName: string;
  /** India time, as the README states it */
  generatedAt: string;
  /** the finished zip */
  target: string;
  /** called with 0–100 as rows are written; awaited, so it may write to the database */
  onProgress: (percent: number) => Promise<void>;
  pageRows?: number;
  /** rows of a sheet, its header included, before the kind's rows go on in "Receipt Lines (2)", …; Excel's most by default */
  maxSheetRows?: number;
}

export interface BuildResult {
  sizeBytes: number;
  counts: Record<string, number>;
}

/** Halves of a mark as text: 9 → "4.5", 10 → "5". */
const marksText = (halves: number) => (halves % 2 === 0 ? String(halves / 2) : `${(halves - 1) / 2}.5`);

/** A value as the CSV shows it: amounts as decimal rupee strings, the rest as read. */
function csvValue(column: Column, value: ExportRow[string]): CsvCell {
  if (value === null || value === undefined) return null;
  switch (column.kind) {
    case 'money':
      return toRupeeString(Number(value) as Paise);
    case 'marks':
      return marksText(Number(value));
    case 'boolean':
      return value ? 'yes' : 'no';
    default:
      return typeof value === 'boolean' ? String(value) : value;
  }
}

/** A value as an Excel cell: amounts and marks as numbers (en-IN grouping by format), dates as dates. */
function excelValue(column: Column, value: ExportRow[string]): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  switch (column.kind) {
    case 'money':
      // exact: the rupee string of whole paise has at most two decimals
      return Number(toRupeeString(Number(value) as Paise));
    case 'marks':
      return Number(value) / 2;
    case 'date':
      return new Date(`${String(value)}T00:00:00.000Z`);
    case 'datetime':
      // India wall time written as if UTC: Excel has no time zones and shows what it is given
      return new Date(`${String(value).replace(' ', 'T')}.000Z`);
    case 'boolean':
      return value ? 'yes' : 'no';
    case 'number':
      return Number(value);
    default:
      return String(value);
  }
}

const columnFormat = (column: Column) =>
  column.kind === 'money' ? MONEY_FORMAT : column.kind === 'date' ? DATE_FORMAT : column.kind === 'datetime' ? DATETIME_FORMAT : undefined;

async function write(stream: WriteStream, chunk: string): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

async function closeStream(stream: WriteStream): Promise<void> {
  stream.end();
  await once(stream, 'close');
}

/**
 * Writes the export: a CSV per entity and one workbook with a sheet per entity (both filled in one
 * pass over the rows, a page at a time), then zips them with the README. Work files sit beside
 * the target and are removed whatever happens.
 */
export async function buildExport(input: BuildInput): Promise<BuildResult> {
  const { db, schoolId, target } = input;
  const pageRows = input.pageRows ?? PAGE_ROWS;
  const work = `${target}.work`;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  try {
    const counts: Record<string, number> = {};
    for (const entity of ENTITIES) counts[entity.file] = await countRows(db, entity, schoolId);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    let written = 0;
    let reported = -1;
    const report = async () => {
      // the zip itself is the last step: rows take the progress to 95
      const percent = total === 0 ? 95 : Math.min(95, Math.floor((written / total) * 95));
      if (percent !== reported) {
        reported = percent;
        await input.onProgress(percent);
      }
    };
    await report();

    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path.join(work, 'school-data.xlsx'), useStyles: true, useSharedStrings: false });
    workbook.creator = 'School Ledger';
    const finalCounts: Record<string, number> = {};
    for (const entity of ENTITIES) {
      finalCounts[entity.file] = await writeEntity(db, schoolId, entity, work, workbook, { pageRows, maxSheetRows: input.maxSheetRows ?? EXCEL_MAX_ROWS }, async (n) => {
        written += n;
        await report();
      });
    }
    await workbook.commit();
    await writeFileText(path.join(work, 'README.txt'), readmeText({ schoolName: input.schoolName, generatedAt: input.generatedAt, counts: finalCounts }));

    const partial = `${target}.partial`;
    const out = createWriteStream(partial);
    const zip = archiver('zip', { zlib: { level: 6 } });
    const closed = once(out, 'close');
    zip.pipe(out);
    zip.file(path.join(work, 'README.txt'), { name: 'README.txt' });
    for (const entity of ENTITIES) zip.file(path.join(work, `${entity.file}.csv`), { name: `csv/${entity.file}.csv` });
    zip.file(path.join(work, 'school-data.xlsx'), { name: 'school-data.xlsx' });
    await zip.finalize();
    await closed;
    await rename(partial, target);
    await input.onProgress(100);
    return { sizeBytes: (await stat(target)).size, counts: finalCounts };
  } finally {
    await rm(work, { recursive: true, force: true });
    await rm(`${target}.partial`, { force: true });
  }
}

async function writeFileText(file: string, content: string): Promise<void> {
  const stream = createWriteStream(file);
  await write(stream, content);
  await closeStream(stream);
}

async function writeEntity(
  db: Db,
  schoolId: string,
  entity: Entity,
  work: string,
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  { pageRows, maxSheetRows }: { pageRows: number; maxSheetRows: number },
  onRows: (n: number) => Promise<void>,
): Promise<number> {
  const csv = createWriteStream(path.join(work, `${entity.file}.csv`));
  // a kind longer than a sheet holds (a large school's receipt lines: 3.6 million at 60,000 students)
  // goes on in "Receipt Lines (2)", …, each under the header; Excel would open the rest cut off
  const addSheet = (page: number) => {
    const added = workbook.addWorksheet(continuedSheetName(entity.sheet, page), { views: [{ state: 'frozen', ySplit: 1 }] });
    added.columns = entity.columns.map((c) => ({
      header: c.header,
      key: c.key,
      width: Math.min(40, Math.max(10, c.header.length + 4)),
      ...(columnFormat(c) ? { style: { numFmt: columnFormat(c) } } : {}),
    }));
    added.getRow(1).font = { bold: true };
    return added;
  };
  let page = 1;
  let sheet = addSheet(page);
  let sheetRows = 1;
  let count = 0;
  try {
    await write(csv, CSV_BOM + csvLine(entity.columns.map((c) => c.header)));
    let after: Cursor | null = null;
    do {
      const rows = await readPage(db, entity, schoolId, after, pageRows);
      let chunk = '';
      for (const row of rows.rows) {
        chunk += csvLine(entity.columns.map((c) => csvValue(c, row[c.key] ?? null)));
        if (sheetRows >= maxSheetRows) {
          sheet.commit();
          sheet = addSheet(++page);
          sheetRows = 1;
        }
        sheet.addRow(entity.columns.map((c) => excelValue(c, row[c.key] ?? null))).commit();
        sheetRows += 1;
      }
      await write(csv, chunk);
      count += rows.rows.length;
      await onRows(rows.rows.length);
      after = rows.next;
    } while (after);
    sheet.commit();
  } finally {
    await closeStream(csv);
  }
  return count;
}
