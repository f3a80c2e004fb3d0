import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DownloadIcon, FileDownIcon, FileSpreadsheetIcon, FileTextIcon } from 'lucide-react';
import { useState } from 'react';
import { dateRangeSchema } from '@/domain/reports';
import { indiaDate } from '@/domain/sessions';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { refusalMessage } from '@/web/lib/form-errors';
import { rupees } from '@/web/lib/format';
import { activeSessionQuery } from '@/web/lib/school-data';
import { cn } from '@/web/lib/utils';
import { downloadFile, financialPath, financialReportQuery, printUrl, type FinancialReport } from './api';

/**
 * The Financial report dialog (operations §2): From and To dates, Generate Report, a summary card
 * with net profit in green or red, and Download to the printable report, Excel or CSV.
 */
export function FinancialReportDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const session = useQuery(activeSessionQuery());
  const today = indiaDate(new Date());
  const [fromDate, setFromDate] = useState<string | null>(null);
  const [toDate, setToDate] = useState<string | null>(null);
  const [report, setReport] = useState<FinancialReport | null>(null);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const from = fromDate ?? session.data?.startDate ?? `${today.slice(0, 4)}-04-01`;
  const to = toDate ?? today;

  const generate = async () => {
    const range = dateRangeSchema.safeParse({ fromDate: from, toDate: to });
    if (!range.success) {
      toast.error({ title: 'Validation Error', description: range.error.issues[0]!.message });
      return;
    }
    setBusy(true);
    try {
      setReport(await queryClient.fetchQuery(financialReportQuery(range.data.fromDate, range.data.toDate)));
    } catch (error) {
      toast.error({ title: 'Error', description: refusalMessage(error, 'Failed to generate financial report') });
    } finally {
      setBusy(false);
    }
  };

  const save = async (ext: '.xlsx' | '.csv') => {
    if (!report) return;
    try {
      await downloadFile(financialPath(report.fromDate, report.toDate, ext), `financial-report${ext}`);
    } catch (error) {
      toast.error({ title: 'Error', description: refusalMessage(error, 'Failed to generate report') });
    }
  };

  const print = () => {
    if (!report) return;
    window.open(printUrl({ report: 'financial', fromDate: report.fromDate, toDate: report.toDate, print: '1' }), '_blank');
  };

  const net = report ? report.summary.netProfit : null;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Financial Report</DialogTitle>
          <DialogDescription>Fees received and expenses between two dates, by payment and expense date.</DialogDescription>
        </DialogHeader>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="From Date" htmlFor="financial-from">
            <Input id="financial-from" type="date" value={from} max={to} onChange={(e) => { setFromDate(e.target.value); setReport(null); }} />
          </Field>
          <Field label="To Date" htmlFor="financial-to">
            <Input id="financial-to" type="date" value={to} onChange={(e) => { setToDate(e.target.value); setReport(null); }} />
          </Field>
        </div>
        <Button onClick={generate} disabled={busy}>
          <FileTextIcon />
          {busy ? 'Generating...' : 'Generate Report'}
        </Button>

        {report ? (
          <section aria-label="Report summary" className="grid gap-3 rounded-lg border bg-muted/40 p-4">
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <Figure label="Monthly Income" value={rupees(report.summary.totalMonthlyIncome)} />
              <Figure label="Yearly Income" value={rupees(report.summary.totalYearlyIncome)} />
              <Figure label="Other Fees" value={rupees(report.summary.totalOtherIncome)} />
              <Figure label="Arrears Collected" value={rupees(report.summary.totalArrearsCollected)} />
              <Figure label="Total Expenses" value={rupees(report.summary.totalExpenses)} />
              <Figure
                label="Net Profit"
                value={rupees(report.summary.netProfit)}
                className={cn('font-semibold', net && net.startsWith('-') ? 'text-destructive' : 'text-success')}
              />
            </dl>
            <p className="text-xs text-muted-foreground">
              {report.counts.monthlyFees ?? `More than ${report.monthlyFees.length}`} monthly fee rows, {report.counts.yearlyFees} yearly fee rows and {report.counts.expenses} expenses.
            </p>
            <div className="flex flex-wrap gap-2">
              <Button onClick={print}>
                <DownloadIcon />
                Download
              </Button>
              <Button variant="outline" onClick={() => void save('.xlsx')}>
                <FileSpreadsheetIcon />
                Excel
              </Button>
              <Button variant="outline" onClick={() => void save('.csv')}>
                <FileDownIcon />
                CSV
              </Button>
            </div>
          </section>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function Figure({ label, value, className }: { label: string; value: string; className?: string }) {
  return (
    <div>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className={cn('text-base tabular-nums', className)} data-testid={`financial-${label.toLowerCase().replace(/\s+/g, '-')}`}>
        {value}
      </dd>
    </div>
  );
}
