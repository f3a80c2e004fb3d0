import { useQuery } from '@tanstack/react-query';
import { DownloadIcon, PrinterIcon } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { formatDateIN } from '@/domain/dates';
import { groupReceiptLines, RECEIPT_TEXTS as T } from '@/domain/receipt';
import { downloadReceiptPdf } from '@/web/components/fees/receipt-actions';
import { Button } from '@/web/components/ui/button';
import { FullPageSpinner } from '@/web/components/ui/spinner';
import { rupees } from '@/web/lib/format';
import { paymentModeLabel, receiptDate, receiptQuery, type ReceiptDocument } from '@/web/lib/ledger-api';
import { schoolLogoQuery } from '@/web/lib/school-logo';

// one A4 sheet: the office copy above, the parent copy below the cut line, as the server's PDF
const PAGE_CSS = `
@page { size: A4 portrait; margin: 10mm; }
@media print {
  html, body { background: #ffffff !important; }
  body { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .receipt-copy { height: 133mm; overflow: hidden; break-inside: avoid; }
}
`;

/**
 * The printable receipt a parent keeps (operations §5 Receipts, item 9 of "The school year as a
 * school lives it"): the same content and layout as the PDF, from the same words and line
 * grouping. "Received by" is the name stored with the receipt, on every reprint. It prints itself
 * once loaded; `?autoprint=0` only shows it.
 */
export function ReceiptPrintPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const receipt = useQuery(receiptQuery(id));
  const logo = useQuery({ ...schoolLogoQuery(), enabled: receipt.data?.school.hasLogo === true });
  const printed = useRef(false);
  const logoSettled = receipt.data ? !receipt.data.school.hasLogo || !logo.isPending : false;

  useEffect(() => {
    if (!receipt.data || !logoSettled || printed.current || params.get('autoprint') === '0') return;
    printed.current = true;
    document.title = `Receipt ${receipt.data.receipt.receiptNumber}`;
    // let the fonts and layout settle before the print dialog takes over the page
    const timer = setTimeout(() => window.print(), 300);
    return () => clearTimeout(timer);
  }, [receipt.data, logoSettled, params]);

  if (receipt.isPending) return <FullPageSpinner text="Loading receipt..." />;
  if (receipt.isError) {
    return (
      <main className="mx-auto grid max-w-md gap-3 p-8 text-center">
        <h1 className="text-xl font-semibold">Receipt not available</h1>
        <p className="text-sm text-muted-foreground">{receipt.error.message}</p>
      </main>
    );
  }
  const printable = receipt.data;
  const logoUrl = logo.data ?? null;
  return (
    <main className="min-h-dvh bg-muted/40 px-3 py-6 print:bg-white print:p-0">
      <style>{PAGE_CSS}</style>
      <div className="mx-auto mb-4 flex max-w-[210mm] flex-wrap justify-end gap-2 print:hidden">
        <Button variant="outline" onClick={() => downloadReceiptPdf(printable.receipt)}>
          <DownloadIcon />
          Download PDF
        </Button>
        <Button onClick={() => window.print()}>
          <PrinterIcon />
          Print
        </Button>
      </div>
      <div className="mx-auto grid max-w-[210mm] gap-4 print:max-w-none print:gap-0">
        <ReceiptCopy document={printable} logoUrl={logoUrl} copy={T.officeCopy} />
        <div role="separator" aria-label={T.cutHere} className="flex items-center gap-2 text-[10px] text-slate-500 print:h-[10mm]">
          <span className="h-0 flex-1 border-t border-dashed border-slate-400" />
          {T.cutHere}
          <span className="h-0 flex-1 border-t border-dashed border-slate-400" />
        </div>
        <ReceiptCopy document={printable} logoUrl={logoUrl} copy={T.parentCopy} />
      </div>
    </main>
  );
}

function ReceiptCopy({ document: d, logoUrl, copy }: { document: ReceiptDocument; logoUrl: string | null; copy: string }) {
  const { receipt: r, school, student, balance } = d;
  const cancelled = r.status === 'cancelled';
  const groups = groupReceiptLines(r.lines);
  const contact = [school.address, school.phone ? `${T.phone}: ${school.phone}` : null, school.schoolCode ? `${T.schoolCode}: ${school.schoolCode}` : null]
    .filter(Boolean)
    .join(' | ');
  return (
    <article
      aria-label={`Fee receipt ${r.receiptNumber}, ${copy}`}
      className="receipt-copy relative grid content-start gap-2 rounded-md border border-slate-300 bg-white p-5 text-[12px] leading-snug text-slate-900 shadow-sm print:rounded-none print:border-0 print:p-0 print:shadow-none"
    >
      {cancelled ? (
        <div aria-hidden className="pointer-events-none absolute inset-0 flex items-center justify-center">
          <span className="-rotate-12 rounded border-4 border-red-600/60 px-4 py-1 text-4xl font-black tracking-widest text-red-600/60">{T.cancelled}</span>
        </div>
      ) : null}
      <header className="flex items-start gap-3 border-b-2 border-slate-800 pb-2">
        {logoUrl ? <img src={logoUrl} alt={`${school.name} logo`} className="size-[16mm] shrink-0 object-contain" /> : null}
        <div className="grid min-w-0 flex-1 gap-0.5 text-center">
          <h1 className="text-lg font-bold">{school.name}</h1>
          {contact ? <p className="text-[11px] text-slate-700">{contact}</p> : null}
        </div>
        <span className="shrink-0 text-[10px] font-bold uppercase tracking-wide text-slate-600">{copy}</span>
      </header>
      <h2 className="text-center text-[13px] font-bold uppercase tracking-[0.15em]">{T.title}</h2>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-0.5 sm:grid-cols-2 print:grid-cols-2">
        <Meta label={T.receiptNo} value={<span className="whitespace-nowrap font-semibold">{r.receiptNumber}</span>} />
        <Meta label={T.date} value={receiptDate(r.receivedAt)} />
        <Meta label={T.student} value={<span className="font-semibold">{r.studentName}</span>} />
        <Meta label={T.fatherName} value={student.fatherName || T.notRecorded} />
        <Meta label={T.admissionNo} value={student.admissionNumber ?? T.notRecorded} />
        <Meta label={T.academicYear} value={r.academicYear} />
        <Meta label={T.classSection} value={`${r.className} / ${r.section}`} />
        <Meta label={T.rollNo} value={String(r.rollNumber)} />
      </dl>
      <table className="w-full table-fixed border-collapse border border-slate-500">
        <colgroup>
          <col />
          <col className="w-[40mm] max-sm:w-[32%]" />
          <col className="w-[32mm] max-sm:w-[30%]" />
        </colgroup>
        <thead>
          <tr className="bg-slate-100 text-left">
            <th className="border border-slate-500 px-1.5 py-1 font-semibold">{T.fee}</th>
            <th className="border border-slate-500 px-1.5 py-1 font-semibold">{T.period}</th>
            <th className="border border-slate-500 px-1.5 py-1 text-right font-semibold">{T.amount}</th>
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <tr key={`${g.label}|${g.period}`}>
              <td className="border border-slate-400 px-1.5 py-0.5">{g.label}</td>
              <td className="border border-slate-400 px-1.5 py-0.5">{g.period}</td>
              <td className="border border-slate-400 px-1.5 py-0.5 text-right tabular-nums">{rupees(g.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="bg-slate-100 font-bold">
            <td colSpan={2} className="border border-slate-500 px-1.5 py-1">
              {T.total}
            </td>
            <td className="border border-slate-500 px-1.5 py-1 text-right tabular-nums" data-testid="receipt-total">
              {rupees(r.total)}
            </td>
          </tr>
        </tfoot>
      </table>
      <p className="italic">
        {T.amountInWords}: <span data-testid="receipt-words">{r.totalInWords}</span>
      </p>
      <p>
        {T.paymentMode}: {paymentModeLabel(r)}
      </p>
      {balance ? (
        <p className="font-semibold" data-testid="receipt-balance">
          {T.balanceDue(formatDateIN(balance.asOn))}: {rupees(balance.amount)}
        </p>
      ) : null}
      {cancelled ? (
        <p className="rounded border border-red-300 bg-red-50 px-3 py-1 text-red-800">
          {T.cancelledBecause(r.cancelReason ?? '')}
          {r.cancelledAt ? ` (${receiptDate(r.cancelledAt)})` : ''}
        </p>
      ) : null}
      <div className="mt-3 flex items-end justify-between gap-4">
        <p data-testid="receipt-received-by">
          {T.receivedBy}: {r.receivedBy}
        </p>
        <span className="grid justify-items-center gap-1 text-[11px] text-slate-600">
          <span className="block h-6 w-40 border-b border-slate-500" />
          {T.signature}
        </span>
      </div>
      <p className="text-center text-[10px] text-slate-500">{T.computerGenerated}</p>
    </article>
  );
}

function Meta({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="flex gap-2">
      <dt className="min-w-28 text-slate-600">{label}:</dt>
      <dd className="min-w-0 break-words">{value}</dd>
    </div>
  );
}
