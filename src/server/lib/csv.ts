/**
 * The one CSV writer of every download (reports, the financial report, passout balances).
 *
 * - Quoting (RFC 4180): a cell holding a comma, a quote, a line break or leading/trailing spaces is
 *   quoted, with its quotes doubled.
 * - Formula injection: a spreadsheet runs a cell starting with `=`, `+`, `-` or `@` (and, in some
 *   programs, a tab or carriage return) as a formula, so a student named `=HYPERLINK("http://x","y")`
 *   would become a link in the accountant's Excel. Such a text cell gets a leading `'`, which shows
 *   the text as typed.
 * - Numbers stay numbers: a cell that is a number (`-150`, or the text `-150.00` of an amount) is
 *   not text a person typed and is written as it is, so a negative balance still sums.
 * - Every file starts with a byte order mark, so spreadsheet programs read names in any script as
 *   UTF-8, and every line ends with CRLF.
 */

export type CsvCell = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

export const CSV_BOM = '\uFEFF';

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'number' ? String(value) : value;
  if (typeof value === 'string' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line, CRLF included. */
export const csvLine = (cells: readonly CsvCell[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** A whole file: the byte order mark, then one line per row (an empty row is an empty line). */
export const csvDocument = (rows: ReadonlyArray<readonly CsvCell[]>): string => CSV_BOM + rows.map(csvLine).join('');
