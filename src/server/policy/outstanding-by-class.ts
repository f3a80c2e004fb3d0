import { formatDateIN } from '../../domain/dates';
import type { ReportDocument } from '../../domain/report-document';
import { addPage, contentBox, drawTable, mm, renderPdf, rupeeText, writeText } from '../lib/pdf';

/**
 * Year-end (issue 16 item 5): the outstanding-by-class summary the principal signs. The figures are
 * the class-wise report's own (`classWiseReport`: the running balances, Due − Concession − Received
 * = Outstanding on every row), so the signed page agrees with the Reports tab to the paisa; this
 * only lays them out on one A4 page with a signature line.
 */
export function outstandingByClassPdf(report: ReportDocument, { sessionName, today }: { sessionName: string; today: string }): Promise<Buffer> {
  const table = report.tables[0];
  const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  return renderPdf({ title: `Outstanding by class ${sessionName}` }, (doc) => {
    addPage(doc);
    const box = contentBox(doc);
    writeText(doc, report.schoolName, box.left, box.top, { style: 'bold', size: 15, width: box.width, align: 'center' });
    writeText(doc, `Outstanding fees by class, ${sessionName} session`, box.left, doc.y + 6, { style: 'bold', size: 12, width: box.width, align: 'center' });
    writeText(doc, `${report.subtitle} · as on ${formatDateIN(today)}`, box.left, doc.y + 4, { size: 9, width: box.width, align: 'center' });
    const w = box.width;
    const money = (v: unknown) => rupeeText(text(v));
    const cells = (r: Record<string, unknown>) => [text(r.className), text(r.section), text(r.students), money(r.due), money(r.concession), money(r.received), money(r.outstanding)];
    let y = drawTable(doc, {
      x: box.left,
      y: doc.y + 12,
      columns: [
        { header: 'Class', width: w * 0.16 },
        { header: 'Section', width: w * 0.1 },
        { header: 'Students', width: w * 0.1, align: 'right' },
        { header: 'Due till date', width: w * 0.16, align: 'right' },
        { header: 'Concession', width: w * 0.16, align: 'right' },
        { header: 'Received', width: w * 0.16, align: 'right' },
        { header: 'Outstanding', width: w * 0.16, align: 'right' },
      ],
      rows: [
        ...(table?.rows ?? []).map((r) => ({ cells: cells(r as Record<string, unknown>) })),
        ...(table?.totals ? [{ cells: cells(table.totals as Record<string, unknown>), style: { bold: true } }] : []),
      ],
    });
    y += 10;
    if (!table || table.rows.length === 0) writeText(doc, 'No students in this session.', box.left, y, { size: 10, width: box.width });
    const sigY = box.bottom - mm(20);
    doc.save().moveTo(box.left, sigY).lineTo(box.left + mm(55), sigY).lineWidth(0.5).strokeColor('#555555').stroke().restore();
    writeText(doc, 'Accountant', box.left, sigY + 3, { size: 8.5, width: mm(55), align: 'center' });
    doc.save().moveTo(box.right - mm(55), sigY).lineTo(box.right, sigY).lineWidth(0.5).strokeColor('#555555').stroke().restore();
    writeText(doc, 'Principal (signature and date)', box.right - mm(55), sigY + 3, { size: 8.5, width: mm(55), align: 'center' });
  });
}
