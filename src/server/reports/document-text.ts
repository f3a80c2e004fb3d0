import { randomUUID } from 'node:crypto';
import type { ReportDocument, ReportTable } from '../../domain/report-document';

/**
 * A report's JSON as its builder wrote it. A large table (a 60,000-student school's defaulters) has
 * its rows written as JSON by PostgreSQL, and the document holds that text instead of 58,000 row
 * objects: the route sends it as it is, and the rows are parsed only when something reads them (the
 * Excel and CSV downloads). Every other document is written with `JSON.stringify`.
 */
const texts = new WeakMap<ReportDocument, string>();

export function documentText(doc: ReportDocument): string {
  return texts.get(doc) ?? JSON.stringify(doc);
}

/**
 * `doc` with the rows of its table `at` given as a JSON array's text: the document's text is
 * written around it, and the table's `rows` parse it the first time they are read.
 */
export function withRowsText(doc: ReportDocument, at: number, rowsText: string): ReportDocument {
  // a mark no title or figure can hold, replaced by the rows' text once the rest is written
  const mark = `rows-${randomUUID()}`;
  const shell = { ...doc, tables: doc.tables.map((t, k) => (k === at ? { ...t, rows: mark } : t)) };
  const text = JSON.stringify(shell).replace(`"${mark}"`, () => rowsText);
  let rows: ReportTable['rows'] | undefined;
  const table = doc.tables[at]!;
  const lazy = Object.defineProperty({ ...table }, 'rows', { enumerable: true, get: () => (rows ??= JSON.parse(rowsText) as ReportTable['rows']) });
  const out: ReportDocument = { ...doc, tables: doc.tables.map((t, k) => (k === at ? lazy : t)) };
  texts.set(out, text);
  return out;
}
