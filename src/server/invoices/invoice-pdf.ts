import { eq } from 'drizzle-orm';
import { formatDateIN } from '../../domain/dates';
import { stateCode, totalInWords } from '../../domain/invoices';
import { formatINR, paise } from '../../domain/money';
import { indiaDate } from '../billing/mails';
import { contentBox, drawTable, renderPdf, writeText, addPage, type Pdf } from '../lib/pdf';
import type { Db } from '../db/client';
import { invoices, type MailAttachmentRef } from '../db/schema';
import type { MailAttachment } from '../mail/mailer';
import type { InvoiceRow } from './issue';

const inr = (p: number) => formatINR(paise(p));

function party(doc: Pdf, title: string, p: { name: string; address: string; state: string | null; gstin: string | null }, x: number, y: number, width: number): number {
  writeText(doc, title, x, y, { style: 'bold', size: 8, color: '#555555', width });
  writeText(doc, p.name, x, y + 12, { style: 'bold', size: 10.5, width });
  let line = y + 27;
  if (p.address) {
    writeText(doc, p.address, x, line, { size: 9, width });
    line = doc.y + 2;
  }
  const code = p.state ? stateCode(p.state) : null;
  writeText(doc, `State: ${p.state ?? 'Not given'}${code ? ` (code ${code})` : ''}`, x, line, { size: 9, width });
  writeText(doc, `GSTIN: ${p.gstin ?? 'Unregistered'}`, x, line + 13, { size: 9, width });
  return line + 26;
}

/** The GST tax invoice of one subscription payment (ruling 33), from what was copied into it when issued. */
export function invoicePdf(invoice: InvoiceRow): Promise<Buffer> {
  return renderPdf({ size: 'A4', marginMm: 15, title: `Tax Invoice ${invoice.number}` }, (doc) => {
    addPage(doc);
    const box = contentBox(doc);
    writeText(doc, 'TAX INVOICE', box.left, box.top, { style: 'bold', size: 18, width: box.width, align: 'center' });
    writeText(doc, 'Original for recipient', box.left, box.top + 24, { size: 8, color: '#555555', width: box.width, align: 'center' });
    let y = box.top + 46;
    writeText(doc, `Invoice number: ${invoice.number}`, box.left, y, { style: 'bold', size: 10 });
    writeText(doc, `Invoice date: ${formatDateIN(indiaDate(invoice.issuedAt))}`, box.left, y, { size: 10, width: box.width, align: 'right' });
    y += 22;
    const half = box.width / 2 - 10;
    const below = Math.max(
      party(doc, 'SUPPLIER', invoice.supplier, box.left, y, half),
      party(doc, 'BILLED TO (RECIPIENT)', invoice.buyer, box.left + box.width / 2 + 10, y, half),
    );
    y = below + 8;
    const place = invoice.buyer.state ?? invoice.supplier.state ?? '';
    writeText(doc, `Place of supply: ${place}${stateCode(place) ? ` (${stateCode(place)})` : ''}   ·   Reverse charge: No`, box.left, y, { size: 9 });
    y += 20;
    const intra = invoice.igstPaise === 0 && invoice.buyer.state === invoice.supplier.state;
    const rows = [
      { cells: ['1', invoice.description, invoice.supplier.sac, inr(invoice.taxablePaise)] },
    ];
    y = drawTable(doc, {
      x: box.left,
      y,
      columns: [
        { header: '#', width: 24, align: 'center' },
        { header: 'Description', width: box.width - 24 - 60 - 110 },
        { header: 'SAC', width: 60, align: 'center' },
        { header: 'Taxable value', width: 110, align: 'right' },
      ],
      rows,
      rowHeight: 34,
    });
    y += 10;
    const taxRows = intra
      ? [
          ['CGST @ 9%', inr(invoice.cgstPaise)],
          ['SGST @ 9%', inr(invoice.sgstPaise)],
        ]
      : [['IGST @ 18%', inr(invoice.igstPaise)]];
    const totals = [['Taxable value', inr(invoice.taxablePaise)], ...taxRows];
    y = drawTable(doc, {
      x: box.right - 250,
      y,
      columns: [
        { header: 'Tax summary', width: 140 },
        { header: 'Amount', width: 110, align: 'right' },
      ],
      rows: [...totals.map((cells) => ({ cells })), { cells: ['Total', inr(invoice.totalPaise)], style: { bold: true } }],
    });
    y += 12;
    writeText(doc, `Amount in words: ${totalInWords(paise(invoice.totalPaise))}`, box.left, y, { style: 'bold', size: 9.5, width: box.width });
    y = doc.y + 24;
    writeText(doc, `For ${invoice.supplier.name}`, box.left, y, { size: 9, width: box.width, align: 'right' });
    writeText(doc, 'This is a computer-generated invoice and needs no signature.', box.left, y + 30, { size: 8, color: '#555555', width: box.width, align: 'right' });
  });
}

/**
 * The invoice attached to its "payment received" mail, rendered when the mail worker sends it: an
 * issued invoice never changes (a trigger refuses it), so rendering later gives the same document.
 */
export async function invoiceAttachment(db: Db, ref: MailAttachmentRef): Promise<MailAttachment> {
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, ref.id));
  if (!invoice) throw new Error(`invoice ${ref.id} not found for its mail`);
  return { filename: `invoice-${invoice.number.replace(/[^\w-]+/g, '-')}.pdf`, content: await invoicePdf(invoice), contentType: 'application/pdf' };
}
