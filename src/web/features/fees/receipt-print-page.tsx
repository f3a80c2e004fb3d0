import { useQuery } from '@tanstack/react-query';
import { DownloadIcon, PrinterIcon } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { amountInWords, parseRupees } from '@/domain/money';
import { downloadReceiptPdf } from '@/web/components/fees/receipt-actions';
import { Button } from '@/web/components/ui/button';
import { FullPageSpinner } from '@/web/components/ui/spinner';
import { rupees } from '@/web/lib/format';
import { paymentModeLabel, receiptDate, receiptQuery, type Receipt, type ReceiptSchool } from '@/web/lib/ledger-api';

const PAGE_CSS = `
@page { size: A5 portrait; margin: 8mm; }
@media print {
  html, body { background: #ffffff !important; }
  body { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`;

/**
 * The printable receipt a parent keeps (operations §5 Receipts, issue 4): school name, address and
 * code, receipt number and date, the student's class, section and roll, each fee head and period,
 * the total in figures and in words (Indian system), the payment mode and who received it. It
 * prints itself once loaded; `?autoprint=0` only shows it.
 */
export function ReceiptPrintPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const issuedBy = params.get('issuedBy')?.trim() ?? '';
  const receipt = useQuery(receiptQuery(id));
  const printed = useRef(false);

  useEffect(() => {
    if (!receipt.data || printed.current || params.get('autoprint') === '0') return;
    printed.current = true;
    document.title = `Receipt ${receipt.data.receipt.receiptNumber}`;
    // let the fonts and layout settle before the print dialog takes over the page
    const timer = setTimeout(() => window.print(), 300);
    return () => clearTimeout(timer);
  }, [receipt.data, params]);

  if (receipt.isPending) return <FullPageSpinner text="Loading receipt..." />;
  if (receipt.isError) {
    return (
      <main className="mx-auto grid max-w-md gap-3 p-8 text-center">
        <h1 className="text-xl font-semibold">Receipt not available</h1>
        <p className="text-sm text-muted-foreground">{receipt.error.message}</p>
      </main>
    );
  }
  const { receipt: r, school } = receipt.data;
  return (
    <main className="min-h-dvh bg-muted/40 px-3 py-6 print:bg-white print:p-0">
      <style>{PAGE_CSS}</style>
      <div className="mx-auto mb-4 flex max-w-[148mm] flex-wrap justify-end gap-2 print:hidden">
        <Button variant="outline" onClick={() => downloadReceiptPdf(r)}>
          <DownloadIcon />
          Download PDF
        </Button>
        <Button onClick={() => window.print()}>
          <PrinterIcon />
          Print
        </Button>
      </div>
      <ReceiptSheet receipt={r} school={school} issuedBy={issuedBy || r.receivedBy} />
    </main>
  );
}

function ReceiptSheet({ receipt: r, school, issuedBy }: { receipt: Receipt; school: ReceiptSchool; issuedBy: string }) {
  const cancelled = r.status === 'cancelled';
  const total = parseRupees(r.total);
  const words = total === null ? r.totalInWords : amountInWords(total);
  return (
    <article
      aria-label={`Fee receipt ${r.receiptNumber}`}
      className="relative mx-auto grid max-w-[148mm] gap-4 rounded-md border border-slate-300 bg-white p-6 text-[13px] leading-snug text-slate-900 shadow-sm print:max-w-none print:rounded-none print:border-0 print:p-0 print:shadow-none"
    >
      {cancelled ? (
        <div aria-hidden className="pointer-events-none absolute inset-0 flex items-center justify-center">
          <span className="-rotate-12 rounded border-4 border-red-600/60 px-4 py-1 text-4xl font-black tracking-widest text-red-600/60">CANCELLED</span>
        </div>
      ) : null}
      <header className="grid gap-0.5 border-b-2 border-slate-800 pb-3 text-center">
        <h1 className="text-xl font-bold uppercase tracking-wide">{school.name}</h1>
        {school.address ? <p>{school.address}</p> : null}
        <p className="text-xs text-slate-600">
          {[school.phone ? `Phone: ${school.phone}` : null, school.schoolCode ? `School Code: ${school.schoolCode}` : null, school.email || null]
            .filter(Boolean)
            .join(' · ')}
        </p>
      </header>
      <h2 className="text-center text-sm font-semibold uppercase tracking-[0.2em]">Fee Receipt</h2>
      <dl className="grid gap-x-6 gap-y-1.5 sm:grid-cols-2 print:grid-cols-2">
        <Meta label="Receipt No." value={<span className="whitespace-nowrap font-mono font-semibold">{r.receiptNumber}</span>} />
        <Meta label="Date" value={receiptDate(r.receivedAt)} />
        <Meta label="Student" value={<span className="font-semibold">{r.studentName}</span>} />
        <Meta label="Academic Year" value={r.academicYear} />
        <Meta label="Class" value={r.className} />
        <Meta label="Section" value={r.section} />
        <Meta label="Roll No." value={String(r.rollNumber)} />
      </dl>
      <table className="w-full border-collapse">
        <thead>
          <tr className="border-y border-slate-800 text-left">
            <th className="py-1.5 pr-2 font-semibold">#</th>
            <th className="py-1.5 pr-2 font-semibold">Fee Head</th>
            <th className="py-1.5 pr-2 font-semibold">Period</th>
            <th className="py-1.5 text-right font-semibold">Amount</th>
          </tr>
        </thead>
        <tbody>
          {r.lines.map((l, i) => (
            <tr key={l.id} className="border-b border-slate-200">
              <td className="py-1.5 pr-2 align-top">{i + 1}</td>
              <td className="py-1.5 pr-2 align-top">{l.headLabel}</td>
              <td className="py-1.5 pr-2 align-top">{l.periodLabel ?? (l.head === 'previous_balance' ? `Session ${l.academicYear}` : l.academicYear)}</td>
              <td className="py-1.5 text-right align-top tabular-nums">{rupees(l.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="border-y-2 border-slate-800">
            <td colSpan={3} className="py-2 font-bold">
              Total
            </td>
            <td className="py-2 text-right font-bold tabular-nums" data-testid="receipt-total">
              {rupees(r.total)}
            </td>
          </tr>
        </tfoot>
      </table>
      <p>
        <span className="text-slate-600">Amount in words: </span>
        <strong data-testid="receipt-words">{words}</strong>
      </p>
      <dl className="grid gap-x-6 gap-y-1.5 sm:grid-cols-2 print:grid-cols-2">
        <Meta label="Payment Mode" value={paymentModeLabel(r)} />
        <Meta label="Received By" value={issuedBy} />
      </dl>
      {cancelled ? (
        <p className="rounded border border-red-300 bg-red-50 px-3 py-2 text-red-800">
          Cancelled{r.cancelledAt ? ` on ${receiptDate(r.cancelledAt)}` : ''}: {r.cancelReason}
        </p>
      ) : null}
      <footer className="mt-6 flex items-end justify-between gap-4 text-xs text-slate-600">
        <span>This is a computer-generated receipt.</span>
        <span className="grid justify-items-center gap-1">
          <span className="block h-8 w-40 border-b border-slate-500" />
          Authorised Signature
        </span>
      </footer>
    </article>
  );
}

function Meta({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="flex gap-2">
      <dt className="min-w-24 text-slate-600">{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
