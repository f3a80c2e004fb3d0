import { formatINR, parseRupees } from '../../domain/money';
import { formatReceiptDate, paymentModeLabel } from './receipt-text';
import type { ReceiptDto } from './dto';
import { addPage, cellText, contentBox, drawTable, FONT, mm, pdfText, renderPdf } from '../lib/pdf';

export interface ReceiptSchool {
  name: string;
  address: string;
  phone: string;
  schoolCode: string | null;
}

/** "Rs. 1,23,456.00": en-IN like the screens, but the standard PDF fonts have no rupee sign. */
export function pdfRupees(amount: string): string {
  const value = parseRupees(amount);
  return value === null ? amount : formatINR(value).replace('₹', 'Rs. ');
}

/**
 * The receipt a parent keeps (issue 4 §6): school name, address and code, receipt number and
 * date, the student with class, section and roll, each head and period, the total in figures and
 * in words, the payment mode and who received it. A cancelled receipt says so across the page.
 */
export function receiptPdf(receipt: ReceiptDto, school: ReceiptSchool, issuedBy: string): Promise<Buffer> {
  return renderPdf({ size: 'A5', marginMm: 10, title: `Receipt ${receipt.receiptNumber}`, author: school.name }, (doc) => {
    addPage(doc);
    const box = contentBox(doc);
    let y = box.top;

    doc.font(FONT.bold).fontSize(15).fillColor('#111111');
    doc.text(pdfText(school.name), box.left, y, { width: box.width, align: 'center' });
    y = doc.y + 2;
    doc.font(FONT.regular).fontSize(8.5).fillColor('#333333');
    const contact = [school.address, school.phone ? `Phone: ${school.phone}` : '', school.schoolCode ? `School Code: ${school.schoolCode}` : '']
      .filter(Boolean)
      .join('  |  ');
    if (contact) {
      doc.text(pdfText(contact), box.left, y, { width: box.width, align: 'center' });
      y = doc.y + 4;
    }
    doc.moveTo(box.left, y).lineTo(box.right, y).lineWidth(0.8).strokeColor('#333333').stroke();
    y += 6;

    doc.font(FONT.bold).fontSize(12).fillColor('#111111').text('FEE RECEIPT', box.left, y, { width: box.width, align: 'center' });
    y = doc.y + 6;

    const half = box.width / 2;
    const row = (label: string, value: string, x: number, width: number) =>
      cellText(doc, `${label}: ${value}`, { x, y, width, height: 14 }, { size: 9, padding: 0 });
    row('Receipt No', receipt.receiptNumber, box.left, half);
    row('Date', formatReceiptDate(receipt.receivedAt), box.left + half, half);
    y += 14;
    row('Student', receipt.studentName, box.left, half);
    row('Academic Year', receipt.academicYear, box.left + half, half);
    y += 14;
    row('Class', `${receipt.className}  Section ${receipt.section}`, box.left, half);
    row('Roll No', String(receipt.rollNumber), box.left + half, half);
    y += 20;

    const amountWidth = mm(30);
    const periodWidth = mm(32);
    y = drawTable(doc, {
      x: box.left,
      y,
      columns: [
        { header: 'Fee', width: box.width - amountWidth - periodWidth },
        { header: 'Period', width: periodWidth },
        { header: 'Amount', width: amountWidth, align: 'right' },
      ],
      rows: [
        ...receipt.lines.map((l) => ({
          cells: [l.head === 'previous_balance' ? `Previous Balance (${l.academicYear})` : l.headLabel, l.periodLabel ?? l.academicYear, pdfRupees(l.amount)],
        })),
        { cells: ['Total', '', pdfRupees(receipt.total)], style: { bold: true, fill: '#f3f4f6' } },
      ],
    });
    y += 8;

    doc.font(FONT.italic).fontSize(9).fillColor('#111111').text(pdfText(receipt.totalInWords), box.left, y, { width: box.width });
    y = doc.y + 8;
    doc.font(FONT.regular).fontSize(9);
    doc.text(pdfText(`Payment mode: ${paymentModeLabel(receipt)}`), box.left, y, { width: box.width });
    y = doc.y + 18;

    doc.text(pdfText(`Received by: ${issuedBy}`), box.left, y, { width: half - 6 });
    const afterName = doc.y;
    doc.text('Signature: ____________________', box.left + half, y, { width: half, align: 'right' });
    y = Math.max(afterName, doc.y) + 16;
    doc.fontSize(7.5).fillColor('#666666').text('This is a computer-generated receipt. Please keep it for your records.', box.left, y, {
      width: box.width,
      align: 'center',
    });

    if (receipt.status === 'cancelled') {
      doc.save();
      doc.rotate(-30, { origin: [box.left + box.width / 2, box.top + box.height / 2] });
      doc.font(FONT.bold).fontSize(48).fillColor('#b91c1c').opacity(0.25);
      doc.text('CANCELLED', box.left, box.top + box.height / 2 - 24, { width: box.width, align: 'center', lineBreak: false });
      doc.restore();
      doc.font(FONT.bold).fontSize(9).fillColor('#b91c1c').opacity(1);
      doc.text(pdfText(`Cancelled: ${receipt.cancelReason ?? ''}`), box.left, box.bottom - 14, { width: box.width, lineBreak: false });
    }
  });
}
