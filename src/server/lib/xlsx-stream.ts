import type { Readable } from 'node:stream';
import { toRupeeString, type Paise } from '../../domain/money';
import { asciiBytes, ByteText, putBytes, putDigits, putRupees } from './byte-text';
import { ZipStream, type ZipPart } from './zip-stream';

/**
 * An Excel workbook written as a stream: each sheet's XML is written as text straight into a zip
 * (`ZipStream`), a sheet at a time, with the stream's back-pressure respected, so a sheet of any
 * length costs the same memory. ExcelJS's streaming writer built an object per row and per cell, a
 * style per cell and a SAX-like writer per row: 35 s for a year of a 60,000-student school's
 * financial report, where writing the same rows as text takes a fraction of that (decision 0011).
 *
 * What it writes is plain SpreadsheetML that Excel, LibreOffice and ExcelJS's reader open: text in
 * the workbook's shared strings as Excel itself writes it (never formulas, so a name starting with `=`
 * stays text), numbers as numbers, money (integer paise) as a decimal number of rupees with the
 * Indian money format, dates (YYYY-MM-DD) as date serials with a date format, column widths, and
 * bold rows.
 *
 * Shared strings (decision 0074): a year of a 60,000-student school's monthly fees repeats each
 * student's name, class and section a dozen times and the month's name 53,000 times; as inline
 * strings each cell carried its text and 30 bytes of markup, 463 bytes a row, which the server
 * built, checksummed and compressed. A cell now names its string's number, and each string is
 * escaped and written once, in `xl/sharedStrings.xml` after the sheets. The table holds the distinct
 * strings only, up to `SHARED_STRINGS_MAX_CHARS` of them; text past that is written inline, so the
 * memory stays bounded whatever the rows hold.
 */

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * A column's kind says how its cells are written:
 * - `text`: strings as text, numbers as numbers;
 * - `money`: numbers are integer paise, written as rupees (`1234.50`) with the money format; strings as text;
 * - `date`: `YYYY-MM-DD` strings as dates with the date format; other strings as text.
 */
export interface XlsxColumn {
  width: number;
  kind?: 'text' | 'money' | 'date';
}

export type XlsxCell = string | number | null | undefined;

/** `bold` for header and total rows, `title` for a sheet's heading (bold, larger). */
export type XlsxRowStyle = 'plain' | 'bold' | 'title';

export const MONEY_FORMAT = '#,##,##0.00';
export const DATE_FORMAT = 'dd-mm-yyyy';

// cellXfs of styles.xml, by column kind and row style
const STYLE = {
  text: { plain: 0, bold: 1, title: 2 },
  money: { plain: 3, bold: 5, title: 5 },
  date: { plain: 4, bold: 6, title: 6 },
} as const;

/**
 * A column's cells as bytes, for one row style: the start of a cell's reference (`<c r="A`), and
 * what follows the reference: the reference closed, the style (none for the default), the cell's
 * type, and the start of its value, a number (or a date's serial), a shared string's number, or an
 * inline string.
 */
interface ColumnBytes {
  open: Uint8Array;
  value: Uint8Array;
  shared: Uint8Array;
  inline: Uint8Array;
  money: boolean;
  date: boolean;
}

function columnBytes(index: number, kind: 'text' | 'money' | 'date', style: XlsxRowStyle): ColumnBytes {
  const s = STYLE[kind][style];
  const attribute = s === 0 ? '"' : `" s="${s}"`;
  return {
    open: asciiBytes(`<c r="${columnLetters(index + 1)}`),
    value: asciiBytes(`${attribute}><v>`),
    shared: asciiBytes(`${attribute} t="s"><v>`),
    inline: asciiBytes(`${attribute} t="inlineStr"><is>`),
    money: kind === 'money',
    date: kind === 'date',
  };
}

const ROW_OPEN = asciiBytes('<row r="');
const TAG_END = asciiBytes('">');
const VALUE_END = asciiBytes('</v></c>');
const INLINE_END = asciiBytes('</is></c>');
const ROW_END = asciiBytes('</row>');
/** The most bytes a row's own markup takes, and a cell's but for inline text (written with its own room). */
const ROW_BYTES = 64;
const CELL_BYTES = 160;

/** Characters of distinct text the shared strings hold at most; later new text is written inline. */
export const SHARED_STRINGS_MAX_CHARS = 4_000_000;

/** The workbook's shared strings: each distinct text's number, in the order first written. */
class SharedStrings {
  private readonly numbers = new Map<string, number>();
  private chars = 0;

  /** The text's number, or -1 when the table is full and the text new to it. */
  numberOf(text: string): number {
    const known = this.numbers.get(text);
    if (known !== undefined) return known;
    if (this.chars + text.length > SHARED_STRINGS_MAX_CHARS) return -1;
    const n = this.numbers.size;
    this.numbers.set(text, n);
    this.chars += text.length;
    return n;
  }

  /** `xl/sharedStrings.xml`, a chunk at a time. */
  *xml(): Generator<string> {
    let text = `${XML_HEAD}<sst xmlns="${MAIN_NS}" uniqueCount="${this.numbers.size}">`;
    for (const value of this.numbers.keys()) {
      text += `<si>${textElement(value)}</si>`;
      if (text.length >= CHUNK_CHARS) {
        yield text;
        text = '';
      }
    }
    yield `${text}</sst>`;
  }
}

/** Written to the zip when this much text has gathered. */
const CHUNK_CHARS = 64 * 1024;
/** A sheet's bytes are handed to the zip when this many have gathered. */
const CHUNK_BYTES = 64 * 1024;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

// eslint-disable-next-line no-control-regex -- the control characters are what is removed
const NEEDS_ESCAPE = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
// eslint-disable-next-line no-control-regex -- as above
const ESCAPED = /[&<>"]|[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text for XML: the five characters escaped, and the control characters XML 1.0 cannot hold dropped. */
export function xmlText(text: string): string {
  return NEEDS_ESCAPE.test(text) ? text.replace(ESCAPED, (c) => ENTITY[c] ?? '') : text;
}

/** A (1-based) column number as its letters: 1 is A, 27 is AA. */
function columnLetters(n: number): string {
  let out = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) out = String.fromCharCode(65 + ((k - 1) % 26)) + out;
  return out;
}

/** A `<t>` element of the text, keeping its outer spaces. */
function textElement(value: string): string {
  return `<t${value.trim() !== value ? ' xml:space="preserve"' : ''}>${xmlText(value)}</t>`;
}

const DAY_MS = 86_400_000;
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An ISO date as Excel's serial day number (1900 date system), or null when it is not one. */
export function excelDate(iso: string): number | null {
  const m = ISO_DATE.exec(iso);
  if (!m) return null;
  return (Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - EXCEL_EPOCH) / DAY_MS;
}

/** Serials of the dates a sheet has written: a year of payments holds a few hundred distinct dates. */
const SERIALS_KEPT = 4096;

/** The most rows a sheet of Excel holds: a longer table goes on in a sheet after it, "Monthly Fees (2)". */
export const EXCEL_MAX_ROWS = 1_048_576;

/** The name of a sheet's `page`-th sheet (1 is the sheet itself): "Monthly Fees (2)", cut to Excel's 31 characters. */
export function continuedSheetName(name: string, page: number): string {
  if (page === 1) return name;
  const suffix = ` (${page})`;
  return `${name.slice(0, 31 - suffix.length)}${suffix}`;
}

const SHEET_TAIL = '</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>';

/** Where a sheet's pages go: `start(0)` is the sheet's own part, `start(1)` its first continuation's, … */
interface SheetPages {
  start(page: number): Promise<ZipPart>;
  maxRows: number;
}

/** A row waiting for the next page of a full sheet; null for a blank row. */
type WaitingRow = { cells: readonly XlsxCell[]; style: XlsxRowStyle } | null;

export class XlsxSheet {
  /** the page's XML not yet handed to the zip, written as bytes (decision 0103) */
  private readonly out = new ByteText(CHUNK_BYTES + 8 * 1024);
  private rowNumber = 0;
  private page = 0;
  private ended = false;
  private readonly head: string;
  /** each column's bytes (`ColumnBytes`), by row style */
  private readonly columnBytes: Record<XlsxRowStyle, ColumnBytes[]>;
  private readonly serials = new Map<string, number | null>();
  private readonly waiting: WaitingRow[] = [];
  private part: ZipPart | null = null;

  constructor(
    private readonly pages: SheetPages,
    columns: readonly XlsxColumn[],
    private readonly strings: SharedStrings,
    private readonly header: readonly XlsxCell[] | undefined,
    private readonly onEnd: () => void,
  ) {
    const kinds = columns.map((c) => c.kind ?? 'text');
    this.columnBytes = { plain: kinds.map((k, i) => columnBytes(i, k, 'plain')), bold: kinds.map((k, i) => columnBytes(i, k, 'bold')), title: kinds.map((k, i) => columnBytes(i, k, 'title')) };
    const cols = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`).join('');
    this.head =
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetViews><sheetView workbookViewId="0"/></sheetViews>` +
      `<sheetFormatPr defaultRowHeight="15"/>${cols ? `<cols>${cols}</cols>` : ''}<sheetData>`;
    this.out.utf8(this.head);
    if (header) this.put(header, 'bold');
  }

  /**
   * Appends a row; empty cells (null, undefined, '') are left out. True when enough text has gathered
   * for `flush` to hand it on: `if (sheet.row(cells)) await sheet.flush()` waits only then, not once
   * a row (634,000 awaits in a year of a 60,000-student school's monthly fees). A row past the most
   * Excel holds waits for `flush` to start the sheet's next page, under the sheet's header again.
   */
  row(cells: readonly XlsxCell[], style: XlsxRowStyle = 'plain'): boolean {
    if (this.full) {
      this.waiting.push({ cells, style });
      return true;
    }
    this.put(cells, style);
    return this.out.pos >= CHUNK_BYTES;
  }

  /** This page holds its most rows, or rows already wait for the next: a new row waits too. */
  private get full(): boolean {
    return this.rowNumber >= this.pages.maxRows || this.waiting.length > 0;
  }

  /**
   * `<row r="7"><c r="A7" t="s"><v>12</v></c>…</row>`, written as bytes: a cell's reference, its
   * style (`s`), and a number, a date's serial, a shared string's number or an inline string.
   */
  private put(cells: readonly XlsxCell[], style: XlsxRowStyle): void {
    const out = this.out;
    const r = ++this.rowNumber;
    const columns = this.columnBytes[style];
    out.reserve(ROW_BYTES + cells.length * CELL_BYTES);
    let buf = out.buf;
    let pos = putBytes(buf, out.pos, ROW_OPEN);
    // the row's number, copied into each cell's reference from here
    const digitsAt = pos;
    pos = putDigits(buf, pos, r);
    const digitsEnd = pos;
    pos = putBytes(buf, pos, TAG_END);
    for (let i = 0; i < cells.length; i++) {
      const value = cells[i];
      if (value === null || value === undefined || value === '') continue;
      const column = columns[i] ?? columnBytes(i, 'text', style);
      pos = putBytes(buf, pos, column.open);
      for (let k = digitsAt; k < digitsEnd; k++) buf[pos++] = buf[k]!;
      if (typeof value === 'number') {
        pos = putBytes(buf, pos, column.value);
        if (!column.money) pos = putDigits(buf, pos, value);
        else if (Number.isSafeInteger(value)) pos = putRupees(buf, pos, value);
        else pos = putBytes(buf, pos, asciiBytes(toRupeeString(value as Paise)));
        pos = putBytes(buf, pos, VALUE_END);
        continue;
      }
      const serial = column.date ? this.serialOf(value) : null;
      if (serial !== null) {
        pos = putBytes(buf, pos, column.value);
        pos = putDigits(buf, pos, serial);
        pos = putBytes(buf, pos, VALUE_END);
        continue;
      }
      const n = this.strings.numberOf(value);
      if (n >= 0) {
        pos = putBytes(buf, pos, column.shared);
        pos = putDigits(buf, pos, n);
        pos = putBytes(buf, pos, VALUE_END);
        continue;
      }
      pos = putBytes(buf, pos, column.inline);
      out.pos = pos;
      out.utf8(textElement(value));
      out.reserve((cells.length - i) * CELL_BYTES + ROW_BYTES);
      buf = out.buf;
      pos = putBytes(buf, out.pos, INLINE_END);
    }
    out.pos = putBytes(buf, pos, ROW_END);
  }

  private serialOf(value: string): number | null {
    let serial = this.serials.get(value);
    if (serial === undefined) {
      serial = excelDate(value);
      if (this.serials.size >= SERIALS_KEPT) this.serials.clear();
      this.serials.set(value, serial);
    }
    return serial;
  }

  /** An empty row. */
  blank(): void {
    if (this.full) this.waiting.push(null);
    else this.rowNumber += 1;
  }

  /** Hands the gathered text to the zip once there is enough of it, waiting while the zip is behind. */
  async flush(force = false): Promise<void> {
    if (this.waiting.length > 0) await this.nextPages();
    if (!force && this.out.pos < CHUNK_BYTES) return;
    await this.send();
  }

  private async send(): Promise<void> {
    const chunk = this.out.take();
    this.part ??= await this.pages.start(this.page);
    await this.part.write(chunk);
  }

  /** Ends the full page and writes the waiting rows on the pages after it, each under the header. */
  private async nextPages(): Promise<void> {
    let k = 0;
    while (k < this.waiting.length) {
      this.out.utf8(SHEET_TAIL);
      await this.send();
      await this.part!.end();
      this.part = null;
      this.page += 1;
      this.rowNumber = 0;
      this.out.utf8(this.head);
      if (this.header) this.put(this.header, 'bold');
      for (; k < this.waiting.length && this.rowNumber < this.pages.maxRows; k++) {
        const row = this.waiting[k];
        if (row) this.put(row.cells, row.style);
        else this.rowNumber += 1;
        if (this.out.pos >= CHUNK_BYTES) await this.send();
      }
    }
    this.waiting.length = 0;
  }

  /** Closes the sheet's XML; the next sheet may start. */
  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    if (this.waiting.length > 0) await this.nextPages();
    this.out.utf8(SHEET_TAIL);
    await this.send();
    await this.part!.end();
    this.onEnd();
  }
}

/**
 * `const book = new XlsxWriter({ creator })`, pipe `book.output` to the response, then for each sheet
 * `book.sheet(name, columns, header)`, its rows, `await sheet.end()`; finally `await book.end()`. On
 * a failure or when the reader has gone, `book.abort(error)` stops the writing.
 */
export class XlsxWriter {
  readonly output: Readable;
  private readonly zip: ZipStream;
  private readonly names: string[] = [];
  private readonly controller = new AbortController();
  private current: XlsxSheet | null = null;
  private readonly strings = new SharedStrings();
  private finished = false;
  /** the output was closed before the workbook was finished (the client went away) */
  gone = false;

  constructor(private readonly options: { creator?: string; now?: Date; level?: number; maxRows?: number } = {}) {
    // a page holds its header row and at least one more
    if (options.maxRows !== undefined && options.maxRows < 2) throw new Error('a sheet holds at least two rows');
    // level 1: a year of a large school is some 220 MB of XML; the fastest level compresses it to
    // a size close to level 6's at a fraction of the time
    this.zip = new ZipStream({ level: options.level ?? 1, now: options.now ?? new Date(), signal: this.controller.signal });
    const output = this.zip.output;
    output.on('end', () => (this.finished = true));
    // the response destroys the stream when its client leaves: stop writing rows nobody reads
    const left = (error?: Error) => {
      if (this.finished || this.controller.signal.aborted) return;
      this.gone = true;
      this.abort(error ?? new Error('the workbook was closed before it was finished'));
    };
    output.on('error', left);
    output.on('close', () => left());
    this.output = output;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * A new sheet; with `header`, its first row, in bold, written again at the top of each page a table
   * longer than Excel's most rows goes on to ("Monthly Fees (2)", …).
   */
  sheet(name: string, columns: readonly XlsxColumn[], header?: readonly XlsxCell[]): XlsxSheet {
    if (this.current) throw new Error('end the previous sheet first');
    this.name(name);
    const pages: SheetPages = {
      maxRows: this.options.maxRows ?? EXCEL_MAX_ROWS,
      start: (page) => {
        if (page > 0) this.name(continuedSheetName(name, page + 1));
        return this.zip.part(`xl/worksheets/sheet${this.names.length}.xml`);
      },
    };
    const sheet = new XlsxSheet(pages, columns, this.strings, header, () => (this.current = null));
    this.current = sheet;
    return sheet;
  }

  /** Takes the next sheet's name, as Excel allows names. */
  private name(name: string): void {
    if (name.length === 0 || name.length > 31 || /[[\]:*?/\\]/.test(name) || this.names.includes(name)) throw new Error(`bad sheet name: ${name}`);
    this.names.push(name);
  }

  /** Writes the workbook's other parts and finishes the zip. */
  async end(): Promise<void> {
    if (this.current) await this.current.end();
    const created = (this.options.now ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const sheets = this.names.map((name, i) => `<sheet name="${xmlText(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
    const parts: Array<[string, string]> = [
      [
        '[Content_Types].xml',
        `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
          this.names.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('') +
          '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
          '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
          '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
          '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>' +
          '</Types>',
      ],
      [
        '_rels/.rels',
        `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
          `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
          '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>' +
          `<Relationship Id="rId3" Type="${REL_NS}/extended-properties" Target="docProps/app.xml"/>` +
          '</Relationships>',
      ],
      [
        'docProps/app.xml',
        `${XML_HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Microsoft Excel</Application></Properties>`,
      ],
      [
        'docProps/core.xml',
        `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" ` +
          'xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
          `<dc:creator>${xmlText(this.options.creator ?? '')}</dc:creator>` +
          `<dcterms:created xsi:type="dcterms:W3CDTF">${created}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${created}</dcterms:modified>` +
          '</cp:coreProperties>',
      ],
      ['xl/workbook.xml', `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews><sheets>${sheets}</sheets></workbook>`],
      [
        'xl/_rels/workbook.xml.rels',
        `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
          this.names.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('') +
          `<Relationship Id="rId${this.names.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/>` +
          `<Relationship Id="rId${this.names.length + 2}" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/>` +
          '</Relationships>',
      ],
      ['xl/styles.xml', STYLES_XML],
    ];
    for (const [name, text] of parts) await this.zip.text(name, [text]);
    await this.zip.text('xl/sharedStrings.xml', this.strings.xml());
    await this.zip.finish();
  }

  /** Stops writing: the output ends with an error and every wait for the zip gives up. */
  abort(error: Error): void {
    if (this.controller.signal.aborted) return;
    this.controller.abort(error);
    this.zip.abandon();
    if (!this.output.destroyed) this.output.destroy(error);
  }
}

const STYLES_XML =
  `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
  `<numFmts count="2"><numFmt numFmtId="164" formatCode="${MONEY_FORMAT}"/><numFmt numFmtId="165" formatCode="${DATE_FORMAT}"/></numFmts>` +
  '<fonts count="3">' +
  '<font><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
  '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
  '<font><b/><sz val="14"/><name val="Calibri"/><family val="2"/></font>' +
  '</fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="7">' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="0" fontId="2" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="164" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/>' +
  '<xf numFmtId="165" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/>' +
  '</cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';
