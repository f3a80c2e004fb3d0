/**
 * Spreadsheet formula injection (CWE-1236): a cell that starts with = + - @ tab or CR is run as a
 * formula by Excel and LibreOffice when the file is opened. Every CSV the product builds in the
 * browser passes its cells through `neutraliseCell`, which puts an apostrophe in front (the
 * spreadsheets' own "this is text" mark). The bulk importer reads such a cell back through
 * `restoreCell`, so a rejected-rows file can be fixed and imported again as it is.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

export function restoreCell(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}
