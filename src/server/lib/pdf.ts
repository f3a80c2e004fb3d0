import type { FastifyReply } from 'fastify';
import PDFDocument from 'pdfkit';

/**
 * Shared PDF helpers (marksheets, receipts): documents are drawn with pdfkit using the standard
 * PDF fonts, so the text stays real text that can be searched, copied and read back in tests.
 * The standard fonts cover Windows-1252 only; `pdfText` swaps anything else for "?" rather than
 * printing wrong glyphs (embed a TrueType font with `doc.registerFont` to print other scripts or ₹).
 */

export type Pdf = PDFKit.PDFDocument;

export const FONT = { regular: 'Helvetica', bold: 'Helvetica-Bold', italic: 'Helvetica-Oblique' } as const;

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
    info: { Title: options.title ?? 'Document', Author: options.author ?? 'School Ledger', Producer: 'School Ledger' },
  });
  doc.font(FONT.regular);
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

// Windows-1252 beyond Latin-1: the characters the standard fonts can also print
const CP1252_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text the standard fonts can print: characters outside Windows-1252 become "?". */
export function pdfText(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    out += (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || CP1252_EXTRA.has(ch) ? ch : ch === '\n' ? '\n' : '?';
  }
  return out;
}

/** Shortens text with "…" until it fits `width` at the current font and size. */
export function fitText(doc: Pdf, value: string, width: number): string {
  let text = pdfText(value);
  if (doc.widthOfString(text) <= width) return text;
  while (text.length > 1 && doc.widthOfString(`${text}…`) > width) text = text.slice(0, -1);
  return `${text}…`;
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
  doc.font(options.bold ? FONT.bold : FONT.regular).fontSize(size).fillColor(options.color ?? '#111111');
  const text = fitText(doc, value, box.width - padding * 2);
  const y = box.y + (box.height - size) / 2 + size * 0.1;
  doc.text(text, box.x + padding, y, { width: box.width - padding * 2, align: options.align ?? 'left', lineBreak: false, height: box.height });
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
