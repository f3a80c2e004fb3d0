import { paise, paiseFromRupees, toRupeeString } from '../../domain/money';
import { csvDocument } from '../lib/csv';
import { addPage, contentBox, drawTable, renderPdf, rupeeText, writeText, type TableColumn } from '../lib/pdf';
import { formatReceiptDate } from '../fees/receipt-text';
import type { PassoutDto } from './queries';

/** A passout's amount as the list sends it ("1234.50"), in paise. */
const paiseOf = paiseFromRupees;
const rupeesOf = (p: number) => toRupeeString(paise(p));

const enIn = (iso: string) => {
  const [y, m, d] = iso.split('-');
  return `${d}/${m}/${y}`;
};

/** The passout balance report as CSV: one row per passout, amounts as decimal rupees, a total row last. */
export function passoutBalanceCsv(rows: PassoutDto[]): string {
  const total = rows.reduce(
    (t, r) => ({
      monthly: t.monthly + paiseOf(r.outstandingMonthlyFees),
      yearly: t.yearly + paiseOf(r.outstandingYearlyFees),
      all: t.all + paiseOf(r.totalOutstanding),
    }),
    { monthly: 0, yearly: 0, all: 0 },
  );
  return csvDocument([
    ['Graduation Year', 'Name', 'Roll Number', 'Last Class', 'Section', 'Monthly Outstanding', 'Yearly Outstanding', 'Total Outstanding', 'Passout Date', 'Kind', 'Reason'],
    ...rows.map((r) => [
      r.graduationYear,
      r.name,
      r.rollNumber,
      r.lastClass,
      r.section,
      r.outstandingMonthlyFees,
      r.outstandingYearlyFees,
      r.totalOutstanding,
      r.passoutDate,
      r.kind,
      r.reason,
    ]),
    ['Total', '', '', '', '', rupeesOf(total.monthly), rupeesOf(total.yearly), rupeesOf(total.all), '', '', ''],
  ]);
}

/**
 * The same report as a PDF: per graduation year, newest first, a table of names with their dues,
 * the year's total, and the grand total. Tables continue on new pages as needed.
 */
export function passoutBalancePdf(rows: PassoutDto[], school: { name: string }, generatedAt: Date): Promise<Buffer> {
  return renderPdf({ size: 'A4', marginMm: 12, title: 'Passout Balance Report', author: school.name }, (doc) => {
    addPage(doc);
    let box = contentBox(doc);
    let y = box.top;
    writeText(doc, school.name, box.left, y, { style: 'bold', size: 15, color: '#111111', width: box.width, align: 'center' });
    y = doc.y + 2;
    writeText(doc, 'Passout Balance Report', box.left, y, { style: 'bold', size: 12, width: box.width, align: 'center' });
    y = doc.y + 2;
    writeText(doc, `Generated on ${formatReceiptDate(generatedAt.toISOString())}`, box.left, y, { size: 8.5, color: '#444444', width: box.width, align: 'center' });
    y = doc.y + 10;

    const columns: TableColumn[] = [
      { header: 'Name', width: box.width * 0.24 },
      { header: 'Roll', width: box.width * 0.06, align: 'right' },
      { header: 'Last Class', width: box.width * 0.1 },
      { header: 'Monthly', width: box.width * 0.16, align: 'right' },
      { header: 'Yearly', width: box.width * 0.15, align: 'right' },
      { header: 'Total', width: box.width * 0.17, align: 'right' },
      { header: 'Passout Date', width: box.width * 0.12 },
    ];
    const rowHeight = 16;
    const headerHeight = 18;
    const years = [...new Set(rows.map((r) => r.graduationYear))].sort((a, b) => b - a);
    let grand = 0;
    if (rows.length === 0) {
      writeText(doc, 'No passouts yet.', box.left, y, { size: 10, color: '#111111' });
      return;
    }
    for (const year of years) {
      const group = rows.filter((r) => r.graduationYear === year);
      const yearTotal = group.reduce((s, r) => s + paiseOf(r.totalOutstanding), 0);
      const yearMonthly = group.reduce((s, r) => s + paiseOf(r.outstandingMonthlyFees), 0);
      const yearYearly = group.reduce((s, r) => s + paiseOf(r.outstandingYearlyFees), 0);
      grand += yearTotal;
      const tableRows = [
        ...group.map((r) => ({
          cells: [r.name, String(r.rollNumber), r.lastClass, rupeeText(r.outstandingMonthlyFees), rupeeText(r.outstandingYearlyFees), paiseOf(r.totalOutstanding) === 0 ? 'Paid' : rupeeText(r.totalOutstanding), enIn(r.passoutDate)],
        })),
        {
          cells: [`Total ${year}`, '', '', rupeeText(rupeesOf(yearMonthly)), rupeeText(rupeesOf(yearYearly)), rupeeText(rupeesOf(yearTotal)), ''],
          style: { bold: true, fill: '#f3f4f6' },
        },
      ];
      let start = 0;
      let first = true;
      while (start < tableRows.length) {
        if (y + 16 + headerHeight + rowHeight > box.bottom) {
          addPage(doc);
          box = contentBox(doc);
          y = box.top;
        }
        writeText(doc, `Graduation Year ${year}${first ? ` (${group.length})` : ' (continued)'}`, box.left, y, { style: 'bold', size: 11, color: '#111111', width: box.width, lineBreak: false });
        y += 16;
        const fit = Math.max(1, Math.floor((box.bottom - y - headerHeight) / rowHeight));
        const chunk = tableRows.slice(start, start + fit);
        y = drawTable(doc, { x: box.left, y, columns, rows: chunk, rowHeight, headerHeight }) + 14;
        start += chunk.length;
        first = false;
      }
    }
    if (y + 20 > box.bottom) {
      addPage(doc);
      box = contentBox(doc);
      y = box.top;
    }
    writeText(doc, `Total Outstanding Balance: ${rupeeText(rupeesOf(grand))}`, box.left, y, { style: 'bold', size: 11, color: '#111111', width: box.width, align: 'right', lineBreak: false });
  });
}
