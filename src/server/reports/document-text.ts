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
 *
 * A cached document keeps one copy of its rows' text: the rows are parsed from the document's text,
 * and the text is spliced in by a function of its own (`spliced`), because a closure here would keep
 * `rowsText` alive beside it (V8 keeps a function's variables for all its closures together). At
 * 60,000 students that was 23 MB more per cached list (decision 0063).
 */
export function withRowsText(doc: ReportDocument, at: number, rowsText: string): ReportDocument {
  const text = spliced(doc, at, rowsText);
  let rows: ReportTable['rows'] | undefined;
  const table = doc.tables[at]!;
  const parse = () => (JSON.parse(text) as ReportDocument).tables[at]!.rows;
  const lazy = Object.defineProperty({ ...table }, 'rows', { enumerable: true, get: () => (rows ??= parse()) });
  const out: ReportDocument = { ...doc, tables: doc.tables.map((t, k) => (k === at ? lazy : t)) };
  texts.set(out, text);
  return out;
}

/** The document's JSON with `rowsText` as the rows of its table `at`. */
function spliced(doc: ReportDocument, at: number, rowsText: string): string {
  // a mark no title or figure can hold, replaced by the rows' text once the rest is written
  const mark = `rows-${randomUUID()}`;
  const shell = { ...doc, tables: doc.tables.map((t, k) => (k === at ? { ...t, rows: mark } : t)) };
  return JSON.stringify(shell).replace(`"${mark}"`, () => rowsText);
}

/**
 * `JSON.stringify(value)` with every character above U+00FF written as a `\u` escape: the same JSON
 * to any reader, but text V8 can hold in one byte a character. One en dash in a month range ("Oct–Nov
 * 2026") made a 60,000-student defaulters list (12 million characters) take two bytes a character:
 * 23 MB for each copy instead of 12 (decision 0063).
 */
export function latin1Json(value: string): string {
  return JSON.stringify(value).replace(/[\u0100-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
