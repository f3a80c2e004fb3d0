import { useQuery } from '@tanstack/react-query';
import { ArrowDownUpIcon, FileDownIcon, FileSpreadsheetIcon, PrinterIcon, XIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { REPORT_KINDS, REPORT_TITLES, type ReportDocument, type ReportKind } from '@/domain/report-document';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { FullPageSpinner } from '@/web/components/ui/spinner';
import { refusalMessage } from '@/web/lib/form-errors';
import { formatGeneratedAt, formatLongDate, rupees } from '@/web/lib/format';
import { downloadFile, financialPath, financialReportQuery, reportPath, reportQuery, type FinancialReport } from './api';
import { PrintFooter, PrintHeader, PrintTable, SummaryGrid } from './print-parts';

const PARAMS = ['month', 'academicYear', 'sort', 'class', 'date'] as const;

/**
 * The printable report (operations §2): a page of its own, opened in a new window from the Reports
 * tab or the Financial report dialog. With `print=1` it prints as soon as the report is there and
 * closes after printing (the dialog's Download).
 */
export function ReportPrintPage() {
  const [params, setParams] = useSearchParams();
  const kind = params.get('report') ?? '';
  const autoPrint = params.get('print') === '1';
  if (kind === 'financial') return <FinancialPrint fromDate={params.get('fromDate') ?? ''} toDate={params.get('toDate') ?? ''} autoPrint={autoPrint} />;
  if (!(REPORT_KINDS as readonly string[]).includes(kind)) {
    return (
      <main className="mx-auto max-w-xl p-6">
        <Alert variant="destructive">
          <AlertDescription>This report does not exist. Open reports from the Reports tab.</AlertDescription>
        </Alert>
      </main>
    );
  }
  const query = Object.fromEntries(PARAMS.map((p) => [p, params.get(p) ?? undefined]));
  const setSort = (sort: string) => {
    const next = new URLSearchParams(params);
    next.set('sort', sort);
    setParams(next, { replace: true });
  };
  return <DocumentPrint kind={kind as ReportKind} query={query} autoPrint={autoPrint} onSort={setSort} />;
}

function useAutoPrint(ready: boolean, enabled: boolean, closeAfter: boolean) {
  const done = useRef(false);
  useEffect(() => {
    if (!ready || !enabled || done.current) return;
    done.current = true;
    if (closeAfter) window.addEventListener('afterprint', () => window.close(), { once: true });
    // let the tables lay out before the print dialog takes its snapshot
    const timer = setTimeout(() => window.print(), 300);
    return () => clearTimeout(timer);
  }, [ready, enabled, closeAfter]);
}

function Toolbar({ onExcel, onCsv, extra }: { onExcel: () => Promise<void>; onCsv: () => Promise<void>; extra?: React.ReactNode }) {
  const run = (fn: () => Promise<void>) => () =>
    void fn().catch((error: unknown) => toast.error({ title: 'Error', description: refusalMessage(error, 'Failed to generate report') }));
  return (
    <div className="mb-4 flex flex-wrap items-center gap-2 print:hidden">
      <Button onClick={() => window.print()}>
        <PrinterIcon />
        Print
      </Button>
      <Button variant="outline" onClick={run(onExcel)}>
        <FileSpreadsheetIcon />
        Excel
      </Button>
      <Button variant="outline" onClick={run(onCsv)}>
        <FileDownIcon />
        CSV
      </Button>
      {extra}
      <Button variant="ghost" className="ml-auto" onClick={() => window.close()}>
        <XIcon />
        Close
      </Button>
    </div>
  );
}

const page = 'mx-auto max-w-5xl bg-white p-4 text-black sm:p-8 print:max-w-none print:p-0 dark:bg-card dark:text-card-foreground print:dark:bg-white print:dark:text-black';

function DocumentPrint({ kind, query, autoPrint, onSort }: { kind: ReportKind; query: Record<string, string | undefined>; autoPrint: boolean; onSort: (sort: string) => void }) {
  const report = useQuery(reportQuery(kind, query));
  useAutoPrint(report.isSuccess, autoPrint, false);
  useEffect(() => {
    if (report.data) document.title = `${report.data.title} - ${report.data.schoolName}`;
  }, [report.data]);
  if (report.isPending) return <FullPageSpinner text={`Preparing the ${REPORT_TITLES[kind]}...`} />;
  if (report.isError) {
    return (
      <main className="mx-auto max-w-xl p-6">
        <Alert variant="destructive">
          <AlertDescription>{refusalMessage(report.error, 'Failed to generate report')}</AlertDescription>
        </Alert>
      </main>
    );
  }
  const doc: ReportDocument = report.data;
  const name = `${kind}-report`;
  return (
    <main className={page}>
      {/* A4 with narrow margins: 64 defaulters fit on two pages (issue item 11) */}
      <style>{'@page { size: A4; margin: 10mm 8mm; } @media print { html, body { background: white; } }'}</style>
      <Toolbar
        onExcel={() => downloadFile(reportPath(kind, query, '.xlsx'), `${name}.xlsx`)}
        onCsv={() => downloadFile(reportPath(kind, query, '.csv'), `${name}.csv`)}
        extra={
          kind === 'pending-fees' ? (
            <Button variant="outline" onClick={() => onSort(query.sort === 'amount' ? 'class' : 'amount')}>
              <ArrowDownUpIcon />
              {query.sort === 'amount' ? 'Sort by class' : 'Sort by amount due'}
            </Button>
          ) : null
        }
      />
      <PrintHeader schoolName={doc.schoolName} title={doc.title} lines={[doc.subtitle, `Generated on ${formatGeneratedAt(doc.generatedAt)}`]} />
      <SummaryGrid items={doc.summary.map((s) => ({ label: s.label, value: s.kind === 'money' ? rupees(String(s.value)) : String(s.value), tone: s.tone }))} />
      {doc.tables.map((t) => (
        <PrintTable
          key={t.title}
          title={t.title}
          columns={t.columns.map((c) => ({ key: c.key, label: c.label, numeric: c.kind !== 'text' && c.kind !== 'date' }))}
          rows={t.rows.map((r) => Object.fromEntries(t.columns.map((c) => [c.key, show(c.kind, r[c.key])])))}
          totals={t.totals ? Object.fromEntries(t.columns.map((c) => [c.key, show(c.kind, t.totals![c.key])])) : null}
          empty={t.empty}
          dense
        />
      ))}
      <PrintFooter />
    </main>
  );
}

function show(kind: string, value: string | number | undefined): string {
  if (value === undefined || value === '') return '';
  if (kind === 'money' && typeof value === 'string' && /^-?\d+\.\d{2}$/.test(value)) return rupees(value);
  if (kind === 'percent' && /^-?\d+(\.\d+)?$/.test(String(value))) return `${value}%`;
  if (kind === 'date' && typeof value === 'string') return formatLongDate(value);
  return String(value);
}

function FinancialPrint({ fromDate, toDate, autoPrint }: { fromDate: string; toDate: string; autoPrint: boolean }) {
  const report = useQuery(financialReportQuery(fromDate, toDate));
  useAutoPrint(report.isSuccess, autoPrint, true);
  useEffect(() => {
    if (report.data) document.title = `Financial Report - ${report.data.schoolName}`;
  }, [report.data]);
  if (report.isPending) return <FullPageSpinner text="Preparing the financial report..." />;
  if (report.isError) {
    return (
      <main className="mx-auto max-w-xl p-6">
        <Alert variant="destructive">
          <AlertDescription>{refusalMessage(report.error, 'Failed to generate financial report')}</AlertDescription>
        </Alert>
      </main>
    );
  }
  const r: FinancialReport = report.data;
  const net = r.summary.netProfit;
  const cut = (count: number | null, shown: number) =>
    count === null || count > shown
      ? `Showing the first ${shown} of ${count ?? 'more'} rows; download Excel or CSV for all of them. The total row covers every row.`
      : undefined;
  return (
    <main className={page}>
      <Toolbar
        onExcel={() => downloadFile(financialPath(fromDate, toDate, '.xlsx'), 'financial-report.xlsx')}
        onCsv={() => downloadFile(financialPath(fromDate, toDate, '.csv'), 'financial-report.csv')}
      />
      <PrintHeader
        schoolName={r.schoolName}
        title="Financial Report"
        lines={[`Period: ${formatLongDate(r.fromDate)} to ${formatLongDate(r.toDate)}`, `Generated on ${formatGeneratedAt(r.generatedAt)}`]}
      />
      <SummaryGrid
        items={[
          { label: 'Monthly Income', value: rupees(r.summary.totalMonthlyIncome) },
          { label: 'Yearly Income', value: rupees(r.summary.totalYearlyIncome) },
          { label: 'Other Fees', value: rupees(r.summary.totalOtherIncome) },
          { label: 'Arrears Collected', value: rupees(r.summary.totalArrearsCollected) },
          { label: 'Total Expenses', value: rupees(r.summary.totalExpenses) },
          { label: 'Net Profit', value: rupees(net), tone: net.startsWith('-') ? 'bad' : 'good' },
        ]}
      />
      <PrintTable
        title="Monthly Fee Collections"
        note={cut(r.counts.monthlyFees, r.monthlyFees.length)}
        columns={[
          { key: 'studentName', label: 'Student Name' },
          { key: 'studentClass', label: 'Class' },
          { key: 'rollNumber', label: 'Roll No.', numeric: true },
          { key: 'month', label: 'Month' },
          { key: 'tuitionFee', label: 'Tuition Fee', numeric: true },
          { key: 'busFee', label: 'Bus Fee', numeric: true },
          { key: 'date', label: 'Payment Date' },
          { key: 'total', label: 'Total', numeric: true },
        ]}
        rows={r.monthlyFees.map((m) => ({
          studentName: m.studentName,
          studentClass: `${m.studentClass} ${m.section}`,
          rollNumber: m.rollNumber,
          month: `${m.month} ${m.year}`,
          tuitionFee: rupees(m.tuitionFee),
          busFee: rupees(m.busFee),
          date: formatLongDate(m.tuitionDate),
          total: rupees(m.total),
        }))}
        totals={{ studentName: 'Total', tuitionFee: rupees(r.totals.monthlyFees.tuitionFee), busFee: rupees(r.totals.monthlyFees.busFee), total: rupees(r.totals.monthlyFees.total) }}
        empty="No monthly fees received in this period"
      />
      <PrintTable
        title="Yearly Fee Collections"
        note={cut(r.counts.yearlyFees, r.yearlyFees.length)}
        columns={[
          { key: 'studentName', label: 'Student Name' },
          { key: 'studentClass', label: 'Class' },
          { key: 'year', label: 'Session' },
          { key: 'admissionFee', label: 'Admission', numeric: true },
          { key: 'examFee', label: 'Exam', numeric: true },
          { key: 'booksFee', label: 'Books', numeric: true },
          { key: 'uniformFee', label: 'Uniform', numeric: true },
          { key: 'miscFee', label: 'Misc', numeric: true },
          { key: 'otherFee', label: 'Other', numeric: true },
          { key: 'total', label: 'Total', numeric: true },
        ]}
        rows={r.yearlyFees.map((y) => ({
          studentName: y.studentName,
          studentClass: `${y.studentClass} ${y.section}`,
          year: y.year,
          admissionFee: rupees(y.admissionFee),
          examFee: rupees(y.examFee),
          booksFee: rupees(y.booksFee),
          uniformFee: rupees(y.uniformFee),
          miscFee: rupees(y.miscFee),
          otherFee: rupees(y.otherFee),
          total: rupees(y.total),
        }))}
        totals={{
          studentName: 'Total',
          admissionFee: rupees(r.totals.yearlyFees.admissionFee),
          examFee: rupees(r.totals.yearlyFees.examFee),
          booksFee: rupees(r.totals.yearlyFees.booksFee),
          uniformFee: rupees(r.totals.yearlyFees.uniformFee),
          miscFee: rupees(r.totals.yearlyFees.miscFee),
          otherFee: rupees(r.totals.yearlyFees.otherFee),
          total: rupees(r.totals.yearlyFees.total),
        }}
        empty="No yearly fees received in this period"
      />
      <PrintTable
        title="Expenses"
        note={cut(r.counts.expenses, r.expenses.length)}
        columns={[
          { key: 'date', label: 'Date' },
          { key: 'description', label: 'Description' },
          { key: 'category', label: 'Category' },
          { key: 'amount', label: 'Amount', numeric: true },
        ]}
        rows={r.expenses.map((e) => ({ date: formatLongDate(e.date), description: e.description, category: e.category, amount: rupees(e.amount) }))}
        totals={{ date: 'Total', amount: rupees(r.totals.expenses) }}
        empty="No expenses in this period"
      />
      <PrintFooter />
    </main>
  );
}
