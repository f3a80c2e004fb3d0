import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyReply } from 'fastify';
import { create, type Font } from 'fontkit';
import PDFDocument from 'pdfkit';
import { formatINR, parseRupees } from '../../domain/money';

/**
 * Shared PDF helpers for every document the app prints (receipts, marksheets, reports). Text is
 * drawn in embedded Noto fonts (docs/decisions/0030): Noto Sans for Latin, ₹ and the rest of
 * the Indian-English page, Noto Sans Devanagari for Hindi and Marathi names, Noto Naskh Arabic for
 * Urdu names. Text stays real text that can be searched, copied and read back in tests.
 * Draw text through `writeText`/`cellText`, which split it into runs of one script and give each
 * run the font that has its glyphs; fontkit shapes Devanagari (conjuncts, matras) and Arabic.
 */

export type Pdf = PDFKit.PDFDocument;

/** The three styles every document uses; the names are registered on each document. */
export const FONT = { regular: 'Sans', bold: 'Sans-Bold', italic: 'Sans-Italic' } as const;
export type FontStyle = keyof typeof FONT;

type Script = 'latin' | 'devanagari' | 'arabic';

const requireFont = createRequire(import.meta.url);
const FONT_FILES: Record<Script, Record<FontStyle, string>> = {
  latin: {
    regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
    italic: '@expo-google-fonts/noto-sans/400Regular_Italic/NotoSans_400Regular_Italic.ttf',
  },
  // Devanagari and Arabic have no italic: the upright face is used
  devanagari: {
    regular: '@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans-devanagari/700Bold/NotoSansDevanagari_700Bold.ttf',
    italic: '@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf',
  },
  arabic: {
    regular: '@expo-google-fonts/noto-naskh-arabic/400Regular/NotoNaskhArabic_400Regular.ttf',
    bold: '@expo-google-fonts/noto-naskh-arabic/700Bold/NotoNaskhArabic_700Bold.ttf',
    italic: '@expo-google-fonts/noto-naskh-arabic/400Regular/NotoNaskhArabic_400Regular.ttf',
  },
};

/**
 * Each font is opened ONCE per process, as a fontkit font, and that same object is registered on
 * every document (pdfkit takes a fontkit font as well as bytes). Registered as bytes, every document
 * opened its own copy, and fontkit decoded the font's shaping tables (GSUB, GPOS) again on each one's
 * first line: that was most of the ~400 ms of CPU a receipt PDF cost (profiled), on the one thread that
 * serves every request. Each document still embeds only the glyphs it uses (pdfkit subsets per document).
 */
const fonts = new Map<string, Font>();
function fontFile(file: string): Font {
  let font = fonts.get(file);
  if (!font) {
    const opened = create(readFileSync(requireFont.resolve(file)));
    if (!('layout' in opened)) throw new Error(`${file} is a font collection, not one font`);
    font = opened;
    fonts.set(file, font);
  }
  return font;
}

/**
 * Shaped words kept from one document to the next, per registered font (decision 0069). pdfkit
 * shapes text a word at a time through fontkit (GSUB and GPOS lookups, the larger part of a
 * receipt's CPU once the fonts were opened once) and keeps each word's glyphs and positions for its
 * document only (`layoutCache`), so every receipt shaped "Receipt", "Fee", "₹" and its digits anew.
 * A word's shape depends only on the font, not on the document, so every document's fonts read and
 * fill one store per font. A store is emptied when it holds `WORDS_KEPT` words (names, numbers and
 * amounts keep coming), which bounds it at a few megabytes.
 */
const WORDS_KEPT = 5000;
const shapedWords = new Map<string, Record<string, unknown>>();

/** A dictionary that forgets everything when a new word would make it hold more than `limit`. */
export function boundedWords(limit: number): Record<string, unknown> {
  let words = new Map<string, unknown>();
  return new Proxy(Object.create(null) as Record<string, unknown>, {
    get: (_target, key) => (typeof key === 'string' ? words.get(key) : undefined),
    set: (_target, key, value) => {
      if (typeof key !== 'string') return false;
      if (!words.has(key) && words.size >= limit) words = new Map();
      words.set(key, value);
      return true;
    },
  });
}

/**
 * Makes `name` the current font, shaping through the process's store of words for it. The store is
 * pdfkit's own per-font `layoutCache`, swapped on the font object the document made; should a pdfkit
 * version drop that field, documents shape every word again (slower, never wrong), and
 * `pdf.test.ts` says so.
 */
function setFont(doc: Pdf, name: string): Pdf {
  doc.font(name);
  const font = (doc as unknown as { _font?: { layoutCache?: Record<string, unknown> } })._font;
  if (font?.layoutCache) {
    let words = shapedWords.get(name);
    if (!words) shapedWords.set(name, (words = boundedWords(WORDS_KEPT)));
    font.layoutCache = words;
  }
  return doc;
}

/** Noto Sans's ascent in ems: where pdfkit puts the baseline below a line's top. */
const LATIN_ASCENT = 1.069;

const fontName = (script: Script, style: FontStyle) => (script === 'latin' ? FONT[style] : `${script}-${style}`);

function registerFonts(doc: Pdf): void {
  for (const script of Object.keys(FONT_FILES) as Script[]) {
    // pdfkit's types name only bytes and paths; its font factory takes a fontkit font as it is
    for (const style of Object.keys(FONT) as FontStyle[]) doc.registerFont(fontName(script, style), fontFile(FONT_FILES[script][style]) as unknown as Buffer);
  }
}

/** The script a character needs a font for; null for characters that join whatever run they are in. */
function scriptOf(code: number): Script | null {
  if ((code >= 0x0900 && code <= 0x097f) || (code >= 0xa8e0 && code <= 0xa8ff) || (code >= 0x1cd0 && code <= 0x1cff)) return 'devanagari';
  if (
    (code >= 0x0600 && code <= 0x06ff && !(code >= 0x06f0 && code <= 0x06f9) && !(code >= 0x0660 && code <= 0x0669)) ||
    (code >= 0x0750 && code <= 0x077f) ||
    (code >= 0x08a0 && code <= 0x08ff) ||
    (code >= 0xfb50 && code <= 0xfdff) ||
    (code >= 0xfe70 && code <= 0xfeff)
  ) {
    return 'arabic';
  }
  // spaces and joiners stay with the run they are in, so "राहुल शर्मा" is shaped as one run
  if (code === 0x20 || code === 0x200c || code === 0x200d || code === 0x0964 || code === 0x0965) return null;
  return 'latin';
}

export interface TextRun {
  text: string;
  script: Script;
}

/** Splits text into runs of one script each: "Student: राहुल शर्मा (5)" → Latin, Devanagari, Latin. */
export function textRuns(value: string): TextRun[] {
  const runs: TextRun[] = [];
  let pending = '';
  for (const ch of value) {
    const script = scriptOf(ch.codePointAt(0)!);
    const last = runs.at(-1);
    if (script === null) {
      if (last) last.text += ch;
      else pending += ch;
    } else if (last && last.script === script) {
      last.text += ch;
    } else {
      // a space between two scripts belongs to the Latin side, which always has its glyph
      if (last && last.script !== 'latin') {
        const trailing = /\s+$/.exec(last.text)?.[0] ?? '';
        if (trailing && script === 'latin') {
          last.text = last.text.slice(0, -trailing.length);
          runs.push({ text: trailing + ch, script });
          continue;
        }
      }
      runs.push({ text: pending + ch, script });
      pending = '';
    }
  }
  if (pending) runs.push({ text: pending, script: 'latin' });
  return runs;
}

/** Millimetres to PDF points (1/72 inch). */
export const mm = (value: number) => (value * 72) / 25.4;

export interface PdfOptions {
  size?: 'A4' | 'A5';
  layout?: 'portrait' | 'landscape';
  /** page margin on every side, in millimetres */
  marginMm?: number;
  title?: string;
  author?: string;
}

/** A new document with no page yet: callers add one page per printed sheet with `addPage(doc)`. */
export function createPdf(options: PdfOptions = {}): Pdf {
  const margin = mm(options.marginMm ?? 10);
  const doc = new PDFDocument({
    size: options.size ?? 'A4',
    layout: options.layout ?? 'portrait',
    margin,
    autoFirstPage: false,
    compress: true,
    // no Helvetica: pdfkit's default font would be read from its metrics on every document (about
    // half a millisecond each), and every text here is drawn in the registered Noto fonts
    font: null as unknown as string,
    info: { Title: options.title ?? 'Document', Author: options.author ?? 'School Ledger', Producer: 'School Ledger' },
  });
  registerFonts(doc);
  setFont(doc, FONT.regular);
  return doc;
}

export function addPage(doc: Pdf): void {
  doc.addPage();
}

/** The drawable box of the current page: inside its margins. */
export function contentBox(doc: Pdf) {
  const { margins, width, height } = doc.page;
  return { left: margins.left, top: margins.top, right: width - margins.right, bottom: height - margins.bottom, width: width - margins.left - margins.right, height: height - margins.top - margins.bottom };
}

/** Ends the document and collects it into one buffer. */
export function pdfBuffer(doc: Pdf): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/** Creates a document, lets `draw` fill it, and returns the bytes. */
export async function renderPdf(options: PdfOptions, draw: (doc: Pdf) => void | Promise<void>): Promise<Buffer> {
  const doc = createPdf(options);
  await draw(doc);
  return pdfBuffer(doc);
}

/** A wire amount ("4500.00") as every PDF prints it: ₹4,500.00, through the one en-IN formatter. */
export function rupeeText(amount: string): string {
  const value = parseRupees(amount);
  return value === null ? amount : formatINR(value);
}

/** Text for a PDF: null and undefined print as nothing, control characters (but newlines) are dropped. */
export function pdfText(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '');
}

export interface TextOptions {
  style?: FontStyle;
  size?: number;
  color?: string;
  width?: number;
  align?: 'left' | 'center' | 'right';
  /** false: one line, shortened with "…" to fit `width` */
  lineBreak?: boolean;
}

/** The width of text at a style and size, each run measured in its own font. */
export function textWidth(doc: Pdf, value: string, style: FontStyle, size: number): number {
  let width = 0;
  for (const run of textRuns(value)) width += setFont(doc, fontName(run.script, style)).fontSize(size).widthOfString(run.text);
  return width;
}

/** Shortens text with "…" until it fits `width` at a style and size. */
export function fitText(doc: Pdf, value: string, width: number, style: FontStyle = 'regular', size = 9): string {
  const text = pdfText(value);
  if (textWidth(doc, text, style, size) <= width) return text;
  const chars = [...text];
  while (chars.length > 1 && textWidth(doc, `${chars.join('')}…`, style, size) > width) chars.pop();
  return `${chars.join('')}…`;
}

/**
 * Writes text at (x, y) in the fonts its scripts need and leaves `doc.y` below it. Text in one
 * Latin run wraps within `width` as pdfkit does; text that mixes scripts is laid out run by run on
 * one line (names, labels, amounts), shortened with "…" when it would not fit.
 */
export function writeText(doc: Pdf, value: string | number | null | undefined, x: number, y: number, options: TextOptions = {}): void {
  const style = options.style ?? 'regular';
  const size = options.size ?? 9;
  const width = options.width ?? contentBox(doc).right - x;
  const align = options.align ?? 'left';
  if (options.color) doc.fillColor(options.color);
  const text = pdfText(value);
  const runs = textRuns(text);
  if (runs.length <= 1 && (runs[0]?.script ?? 'latin') === 'latin' && options.lineBreak !== false) {
    setFont(doc, FONT[style]).fontSize(size).text(text, x, y, { width, align });
    return;
  }
  const line = options.lineBreak === false || textWidth(doc, text, style, size) > width ? fitText(doc, text, width, style, size) : text;
  const total = textWidth(doc, line, style, size);
  let left = align === 'center' ? x + (width - total) / 2 : align === 'right' ? x + width - total : x;
  const lineHeight = setFont(doc, FONT[style]).fontSize(size).currentLineHeight(true);
  // the scripts' fonts have different ascents: every run sits on the Latin font's baseline
  const baseline = y + LATIN_ASCENT * size;
  for (const run of textRuns(line)) {
    setFont(doc, fontName(run.script, style)).fontSize(size);
    const runWidth = doc.widthOfString(run.text);
    // shaping reorders glyphs (a reph, a left matra, right-to-left letters): ActualText keeps
    // the run's text in reading order for search, copy and screen readers
    const shaped = run.script !== 'latin';
    if (shaped) doc.markContent('Span', { actual: run.text });
    // a height keeps pdfkit from starting a new page when a line sits near the bottom margin
    const draw = (text: string, x: number) =>
      doc.text(text, x, baseline, { lineBreak: false, width: doc.widthOfString(text) + 1, height: size * 3, baseline: 'alphabetic' });
    if (run.script === 'arabic') {
      // right to left: fontkit shapes and orders the letters of a word, the words are placed here,
      // the first at the right end of the run
      let right = left + runWidth;
      for (const token of run.text.split(/(\s+)/)) {
        if (!token) continue;
        right -= doc.widthOfString(token);
        if (token.trim()) draw(token, right);
      }
    } else {
      draw(run.text, left);
    }
    if (shaped) doc.endMarkedContent();
    left += runWidth;
  }
  setFont(doc, FONT[style]).fontSize(size);
  doc.x = x;
  doc.y = y + lineHeight;
}

export interface CellStyle {
  bold?: boolean;
  size?: number;
  fill?: string;
  color?: string;
}

/**
 * Writes one line of text in a box, vertically centred, never wrapping and never running past
 * the page (pdfkit would otherwise add a page when text reaches the bottom margin).
 */
export function cellText(
  doc: Pdf,
  value: string,
  box: { x: number; y: number; width: number; height: number },
  options: { align?: 'left' | 'center' | 'right'; bold?: boolean; size?: number; color?: string; padding?: number } = {},
): void {
  const size = options.size ?? 9;
  const padding = options.padding ?? 3;
  // centre the capitals, not the font's full ascent-to-descent box
  const y = box.y + box.height / 2 - size * (LATIN_ASCENT - 0.36);
  writeText(doc, value, box.x + padding, y, {
    style: options.bold ? 'bold' : 'regular',
    size,
    color: options.color ?? '#111111',
    width: box.width - padding * 2,
    align: options.align ?? 'left',
    lineBreak: false,
  });
}

export interface TableColumn {
  header: string;
  width: number;
  align?: 'left' | 'center' | 'right';
}

export interface TableRow {
  cells: string[];
  style?: CellStyle;
}

/** A ruled table; returns the y below it. Rows never break across pages: size them to fit. */
export function drawTable(
  doc: Pdf,
  {
    x,
    y,
    columns,
    rows,
    rowHeight = 16,
    headerHeight = 18,
    fontSize = 9,
    headerFill = '#e8eef7',
    lineColor = '#7a8699',
  }: {
    x: number;
    y: number;
    columns: TableColumn[];
    rows: TableRow[];
    rowHeight?: number;
    headerHeight?: number;
    fontSize?: number;
    headerFill?: string;
    lineColor?: string;
  },
): number {
  const width = columns.reduce((s, c) => s + c.width, 0);
  const drawRow = (cells: string[], top: number, height: number, style: CellStyle) => {
    if (style.fill) doc.save().rect(x, top, width, height).fill(style.fill).restore();
    let left = x;
    columns.forEach((col, i) => {
      cellText(doc, cells[i] ?? '', { x: left, y: top, width: col.width, height }, {
        align: col.align ?? 'left',
        bold: style.bold,
        size: style.size ?? fontSize,
        color: style.color,
      });
      left += col.width;
    });
  };
  drawRow(columns.map((c) => c.header), y, headerHeight, { bold: true, fill: headerFill });
  let top = y + headerHeight;
  for (const row of rows) {
    drawRow(row.cells, top, rowHeight, row.style ?? {});
    top += rowHeight;
  }
  // the rules last, so fills never cover them
  doc.save().lineWidth(0.6).strokeColor(lineColor);
  doc.rect(x, y, width, top - y).stroke();
  doc.moveTo(x, y + headerHeight).lineTo(x + width, y + headerHeight).stroke();
  for (let i = 1; i <= rows.length; i++) {
    const lineY = y + headerHeight + i * rowHeight;
    if (i < rows.length) doc.moveTo(x, lineY).lineTo(x + width, lineY).stroke();
  }
  let left = x;
  for (const col of columns.slice(0, -1)) {
    left += col.width;
    doc.moveTo(left, y).lineTo(left, top).stroke();
  }
  doc.restore();
  return top;
}

/**
 * Draws an image (the school's logo) fitted in a square; false when there is none or it cannot be
 * decoded (a file that passed the upload's type check but is damaged), so the document still prints.
 */
export function drawImage(doc: Pdf, image: Buffer | undefined, x: number, y: number, size: number): boolean {
  if (!image) return false;
  try {
    doc.image(image, x, y, { fit: [size, size], align: 'center', valign: 'center' });
    return true;
  } catch {
    return false;
  }
}

/** A file name safe for Content-Disposition: letters, digits, dot, dash and underscore. */
export function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '') || 'document.pdf';
}

/** Sends a PDF as a download. */
export function sendPdf(reply: FastifyReply, buffer: Buffer, fileName: string): FastifyReply {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${safeFileName(fileName)}"`)
    .header('cache-control', 'no-store')
    .send(buffer);
}
