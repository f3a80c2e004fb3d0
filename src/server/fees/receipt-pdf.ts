import { formatDateIN } from '../../domain/dates';
import { groupReceiptLines, RECEIPT_TEXTS as T } from '../../domain/receipt';
import { addPage, cellText, contentBox, drawImage, drawTable, mm, renderPdf, rupeeText, writeText, type Pdf } from '../lib/pdf';
import type { SchoolLogo } from '../schools/queries';
import type { ReceiptDocument } from './receipt-document';
import { formatReceiptDate, paymentModeLabel } from './receipt-text';

/** Lines on one line: "Address | Phone: … | School Code: …" */
export function schoolContactLine(school: ReceiptDocument['school']): string {
  return [school.address, school.phone ? `${T.phone}: ${school.phone}` : '', school.schoolCode ? `${T.schoolCode}: ${school.schoolCode}` : '']
    .filter(Boolean)
    .join('  |  ');
}

interface Area {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** One copy of the receipt inside `area`: header, student, grouped lines, totals, who received it. */
function drawCopy(doc: Pdf, d: ReceiptDocument, logo: SchoolLogo | undefined, copyLabel: string, area: Area): void {
  const { receipt: r, school, student, balance } = d;
  const left = area.left;
  const right = area.left + area.width;
  let y = area.top;

  // header: logo at the left, school in the middle, which copy at the right
  const logoSize = mm(16);
  const hasLogo = drawImage(doc, logo?.image, left, y, logoSize);
  const textLeft = hasLogo ? left + logoSize + 6 : left;
  const labelWidth = mm(28);
  const headerWidth = right - labelWidth - textLeft;
  cellText(doc, copyLabel.toUpperCase(), { x: right - labelWidth, y, width: labelWidth, height: 14 }, { align: 'right', bold: true, size: 8, color: '#555555', padding: 0 });
  writeText(doc, school.name, textLeft, y, { style: 'bold', size: 14, width: headerWidth, align: 'center', color: '#111111' });
  y = doc.y + 1;
  const contact = schoolContactLine(school);
  if (contact) {
    writeText(doc, contact, textLeft, y, { size: 8, width: headerWidth, align: 'center', color: '#333333' });
    y = doc.y;
  }
  y = Math.max(y, area.top + (hasLogo ? logoSize : 0)) + 4;
  doc.save().moveTo(left, y).lineTo(right, y).lineWidth(0.8).strokeColor('#333333').stroke().restore();
  y += 4;
  writeText(doc, T.title.toUpperCase(), left, y, { style: 'bold', size: 11, width: area.width, align: 'center', color: '#111111' });
  y = doc.y + 3;

  // who and when: two columns of label and value
  const half = area.width / 2;
  const rowHeight = 13;
  const pairs: Array<[string, string]> = [
    [T.receiptNo, r.receiptNumber],
    [T.date, formatReceiptDate(r.receivedAt)],
    [T.student, r.studentName],
    [T.fatherName, student.fatherName || T.notRecorded],
    [T.admissionNo, student.admissionNumber ?? T.notRecorded],
    [T.academicYear, r.academicYear],
    [T.classSection, `${r.className} / ${r.section}`],
    [T.rollNo, String(r.rollNumber)],
  ];
  pairs.forEach(([label, value], i) => {
    const x = i % 2 === 0 ? left : left + half;
    const rowY = y + Math.floor(i / 2) * rowHeight;
    cellText(doc, `${label}:`, { x, y: rowY, width: mm(26), height: rowHeight }, { size: 8.5, color: '#555555', padding: 0 });
    cellText(doc, value, { x: x + mm(26), y: rowY, width: half - mm(26) - 4, height: rowHeight }, { size: 8.5, bold: i === 0 || i === 2, padding: 0 });
  });
  y += Math.ceil(pairs.length / 2) * rowHeight + 5;

  // the lines, months grouped per head; rows shrink so a long receipt still fits its half page
  const groups = groupReceiptLines(r.lines);
  const reserved = 96; // words, mode, received by and balance, footer
  const room = area.top + area.height - reserved - y - 16;
  const lineHeight = Math.max(9, Math.min(14, room / (groups.length + 1)));
  const amountWidth = mm(32);
  const periodWidth = mm(40);
  y = drawTable(doc, {
    x: left,
    y,
    rowHeight: lineHeight,
    headerHeight: 15,
    fontSize: lineHeight < 12 ? 7.5 : 8.5,
    columns: [
      { header: T.fee, width: area.width - amountWidth - periodWidth },
      { header: T.period, width: periodWidth },
      { header: T.amount, width: amountWidth, align: 'right' },
    ],
    rows: [
      ...groups.map((g) => ({ cells: [g.label, g.period, rupeeText(g.amount)] })),
      { cells: [T.total, '', rupeeText(r.total)], style: { bold: true, fill: '#f3f4f6' } },
    ],
  });
  y += 5;

  writeText(doc, `${T.amountInWords}: ${r.totalInWords}`, left, y, { style: 'italic', size: 8.5, width: area.width, color: '#111111' });
  y = doc.y + 3;
  writeText(doc, `${T.paymentMode}: ${paymentModeLabel(r)}`, left, y, { size: 8.5, width: area.width });
  y = doc.y + 3;
  if (balance) {
    writeText(doc, `${T.balanceDue(formatDateIN(balance.asOn))}: ${rupeeText(balance.amount)}`, left, y, { style: 'bold', size: 8.5, width: area.width });
    y = doc.y + 3;
  }
  if (d.creditKept) {
    writeText(doc, `${T.creditKept}: ${rupeeText(d.creditKept)}`, left, y, { size: 8.5, width: area.width });
    y = doc.y + 3;
  }
  for (const text of d.concessions) {
    writeText(doc, text, left, y, { size: 8.5, width: area.width });
    y = doc.y + 3;
  }
  y += 10;
  writeText(doc, `${T.receivedBy}: ${r.receivedBy}`, left, y, { size: 8.5, width: half - 6, lineBreak: false });
  doc.save().moveTo(right - mm(45), y + 8).lineTo(right, y + 8).lineWidth(0.5).strokeColor('#555555').stroke().restore();
  cellText(doc, T.signature, { x: right - mm(45), y: y + 9, width: mm(45), height: 11 }, { align: 'center', size: 7.5, color: '#555555', padding: 0 });
  y += 24;
  cellText(doc, T.computerGenerated, { x: left, y, width: area.width, height: 10 }, { align: 'center', size: 7, color: '#666666', padding: 0 });

  if (r.status === 'cancelled') {
    const cx = left + area.width / 2;
    const cy = area.top + area.height / 2;
    doc.save();
    doc.rotate(-25, { origin: [cx, cy] });
    doc.opacity(0.22);
    writeText(doc, T.cancelled, left, cy - 24, { style: 'bold', size: 44, width: area.width, align: 'center', color: '#b91c1c', lineBreak: false });
    doc.restore();
    doc.opacity(1);
    cellText(doc, T.cancelledBecause(r.cancelReason ?? ''), { x: left, y: area.top + area.height - 12, width: area.width, height: 12 }, { bold: true, size: 8, color: '#b91c1c', padding: 0 });
  }
}

/**
 * The receipt a parent keeps: one A4 page with the office copy above and the parent copy below a
 * cut line, each with the school's logo, name, address and code, the student with father's name
 * and admission number, the months grouped per head, the total in figures and words, the payment,
 * the stored "Received by" and the balance still due as on the day it is printed.
 */
export function receiptPdf(d: ReceiptDocument, logo: SchoolLogo | undefined): Promise<Buffer> {
  return renderPdf({ size: 'A4', marginMm: 10, title: `Receipt ${d.receipt.receiptNumber}`, author: d.school.name }, (doc) => {
    addPage(doc);
    const box = contentBox(doc);
    const gap = mm(10);
    const half = (box.height - gap) / 2;
    drawCopy(doc, d, logo, T.officeCopy, { left: box.left, top: box.top, width: box.width, height: half });
    const cutY = box.top + half + gap / 2;
    doc.save().moveTo(box.left, cutY).lineTo(box.right, cutY).dash(4, { space: 3 }).lineWidth(0.6).strokeColor('#888888').stroke().undash().restore();
    doc.save().rect(box.left + box.width / 2 - mm(10), cutY - 5, mm(20), 10).fill('#ffffff').restore();
    cellText(doc, T.cutHere, { x: box.left + box.width / 2 - mm(10), y: cutY - 5, width: mm(20), height: 10 }, { align: 'center', size: 7, color: '#888888', padding: 0 });
    drawCopy(doc, d, logo, T.parentCopy, { left: box.left, top: box.top + half + gap, width: box.width, height: half });
  });
}
