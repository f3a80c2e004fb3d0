import { MARK_MAX } from '../../domain/results';
import { addPage, cellText, contentBox, drawImage, drawTable, mm, pdfText, renderPdf, textWidth, type Pdf, type TableColumn } from '../lib/pdf';
import type { Marksheet } from './marksheet';

/**
 * The Student Report Card as a PDF (operations §2, §9): A4 landscape with 10 mm margins, one
 * student per page, laid out like the printed card on screen.
 */

const INK = '#111111';
const MUTED = '#4b5563';
const ACCENT = '#1e3a8a';

export function marksheetsPdf(sheets: Marksheet[], { generatedOn, logo }: { generatedOn: string; logo?: Buffer }): Promise<Buffer> {
  const first = sheets[0];
  const title = sheets.length === 1 && first ? `Report Card - ${first.student.name}` : `Report Cards - ${first?.student.class ?? ''} ${first?.student.section ?? ''}`;
  return renderPdf({ size: 'A4', layout: 'landscape', marginMm: 10, title, author: first?.school.name ?? 'School Ledger' }, (doc) => {
    for (const sheet of sheets) {
      addPage(doc);
      drawMarksheet(doc, sheet, generatedOn, logo);
    }
  });
}

function centred(doc: Pdf, text: string, y: number, options: { size: number; bold?: boolean; color?: string }): void {
  const box = contentBox(doc);
  cellText(doc, text, { x: box.left, y, width: box.width, height: options.size + 4 }, { align: 'center', size: options.size, bold: options.bold, color: options.color ?? INK, padding: 0 });
}

function drawMarksheet(doc: Pdf, sheet: Marksheet, generatedOn: string, logo: Buffer | undefined): void {
  const box = contentBox(doc);
  let y = box.top;

  // school header: phone, name, address and school code (operations §2)
  doc.save().lineWidth(1.2).strokeColor(ACCENT).rect(box.left, y, box.width, box.height).stroke().restore();
  // the school's logo (Settings) at the top left, inside the border
  drawImage(doc, logo, box.left + 10, y + 4, mm(18));
  y += 6;
  const contact = [sheet.school.phone ? `Phone: ${sheet.school.phone}` : '', sheet.school.schoolCode ? `School Code: ${sheet.school.schoolCode}` : '']
    .filter(Boolean)
    .join('     ');
  centred(doc, sheet.school.name, y, { size: 18, bold: true, color: ACCENT });
  y += 22;
  if (sheet.school.address) {
    centred(doc, sheet.school.address, y, { size: 9.5, color: MUTED });
    y += 13;
  }
  if (contact) {
    centred(doc, contact, y, { size: 9.5, color: MUTED });
    y += 13;
  }
  y += 3;
  doc.save().lineWidth(0.8).strokeColor(ACCENT).moveTo(box.left + 8, y).lineTo(box.right - 8, y).stroke().restore();
  y += 6;
  centred(doc, 'Student Report Card', y, { size: 14, bold: true });
  y += 18;
  centred(doc, `Academic Session ${sheet.academicSession}`, y, { size: 9.5, color: MUTED });
  y += 16;

  // student info
  const s = sheet.student;
  const inner = { left: box.left + 10, width: box.width - 20 };
  const info: Array<[string, string]> = [
    ['Admission No', s.admissionNumber ?? '—'],
    ['Name', s.name],
    ["Father's Name", s.fatherName || '—'],
    ["Mother's Name", s.motherName || '—'],
    ['Class', `${s.class} ${s.section}`],
    ['Roll No', String(s.rollNumber)],
    ['Date of Birth', s.dateOfBirth ? formatDob(s.dateOfBirth) : '—'],
    ['Residence', s.residence || '—'],
  ];
  const cellWidth = inner.width / 4;
  info.forEach(([label, value], i) => {
    const cx = inner.left + (i % 4) * cellWidth;
    const cy = y + Math.floor(i / 4) * 17;
    const labelText = `${label}: `;
    const labelWidth = textWidth(doc, labelText, 'bold', 8.5);
    cellText(doc, labelText, { x: cx, y: cy, width: labelWidth + 4, height: 15 }, { bold: true, size: 8.5, color: MUTED, padding: 0 });
    cellText(doc, value, { x: cx + labelWidth, y: cy, width: cellWidth - labelWidth - 6, height: 15 }, { size: 9.5, padding: 0 });
  });
  y += 2 * 17 + 6;

  // subjects: F1–F6, FA, CA, SA, Total, percent and grade, then the Grand Total row
  const narrow = (inner.width - 200) / 12.2;
  const columns: TableColumn[] = [
    { header: 'Subject', width: 200 },
    ...(['f1', 'f2', 'f3', 'f4', 'f5', 'f6'] as const).map((f) => ({ header: `${f.toUpperCase()} (${MARK_MAX[f]})`, width: narrow, align: 'center' as const })),
    { header: 'FA (30)', width: narrow, align: 'center' },
    { header: `CA (${MARK_MAX.ca})`, width: narrow, align: 'center' },
    { header: `SA (${MARK_MAX.sa})`, width: narrow, align: 'center' },
    { header: 'Total (100)', width: narrow * 1.3, align: 'center' },
    { header: 'Percent', width: narrow * 1.1, align: 'center' },
    { header: 'Grade', width: narrow * 0.8, align: 'center' },
  ];
  const rows = sheet.subjects.map((name) => {
    const r = sheet.resultsBySubject[name];
    if (!r) return { cells: [name, '', '', '', '', '', '', '', '', '', '', '', ''] };
    return { cells: [name, r.f1 ?? '', r.f2 ?? '', r.f3 ?? '', r.f4 ?? '', r.f5 ?? '', r.f6 ?? '', r.fa, r.ca ?? '', r.sa ?? '', r.total, `${r.percent}%`, r.grade] };
  });
  const g = sheet.grandTotal;
  rows.push({
    cells: ['Grand Total', '', '', '', '', '', '', g.fa, g.ca, g.sa, `${g.total} / ${g.maxMarks}`, `${g.percent}%`, g.grade ?? '—'],
    style: { bold: true, fill: '#f1f5f9' },
  } as (typeof rows)[number]);

  // the rest of the page (remarks, signatures, footer) needs about 120 pt; rows shrink to fit many subjects
  const available = box.bottom - y - 18 - 125;
  const rowHeight = Math.max(11, Math.min(19, available / rows.length));
  y = drawTable(doc, { x: inner.left, y, columns, rows, rowHeight, headerHeight: 18, fontSize: rowHeight < 14 ? 8 : 9.5 });
  y += 10;

  // remarks box: what was entered with the marks, or room to write by hand
  const remarksHeight = 46;
  doc.save().lineWidth(0.6).strokeColor('#7a8699').rect(inner.left, y, inner.width, remarksHeight).stroke().restore();
  cellText(doc, 'Remarks:', { x: inner.left + 4, y: y + 2, width: 60, height: 13 }, { bold: true, size: 9, padding: 0 });
  const remarkLines = sheet.remarks.split('\n').filter(Boolean).slice(0, 2);
  remarkLines.forEach((line, i) => {
    cellText(doc, line, { x: inner.left + 4, y: y + 15 + i * 13, width: inner.width - 8, height: 13 }, { size: 9, padding: 0 });
  });
  y += remarksHeight + 34;

  // signatures
  const sigWidth = inner.width / 3;
  ['Exam Incharge', 'Checker', 'Principal'].forEach((label, i) => {
    const cx = inner.left + i * sigWidth + 30;
    const w = sigWidth - 60;
    doc.save().lineWidth(0.6).strokeColor(INK).moveTo(cx, y).lineTo(cx + w, y).stroke().restore();
    cellText(doc, label, { x: cx, y: y + 3, width: w, height: 13 }, { align: 'center', bold: true, size: 9.5, padding: 0 });
  });

  // branding footer, inside the border
  const footerY = box.bottom - 16;
  cellText(doc, pdfText(`Generated by School Ledger on ${generatedOn}`), { x: box.left, y: footerY, width: box.width, height: 12 }, { align: 'center', size: 7.5, color: MUTED, padding: 0 });
}

function formatDob(iso: string): string {
  const [y, m, d] = iso.split('-');
  return y && m && d ? `${d}/${m}/${y}` : iso;
}
