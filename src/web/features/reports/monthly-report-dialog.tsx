import { ExternalLinkIcon, FileDownIcon, FileSpreadsheetIcon } from 'lucide-react';
import { useState } from 'react';
import { indiaDate } from '@/domain/sessions';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { refusalMessage } from '@/web/lib/form-errors';
import { downloadFile, printUrl, reportPath } from './api';

/** The Monthly Report card opens this dialog (operations §2): pick a month, then view or download. */
export function MonthlyReportDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [month, setMonth] = useState(() => indiaDate(new Date()).slice(0, 7));
  const valid = /^\d{4}-(0[1-9]|1[0-2])$/.test(month);
  const download = (ext: '.xlsx' | '.csv') =>
    void downloadFile(reportPath('monthly', { month }, ext), `monthly-report${ext}`).catch((error: unknown) =>
      toast.error({ title: 'Error', description: refusalMessage(error, 'Failed to generate report') }),
    );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Monthly Report</DialogTitle>
          <DialogDescription>Fees due and collected for the month by class, with the month's income and expenses.</DialogDescription>
        </DialogHeader>
        <Field label="Month" htmlFor="monthly-report-month">
          <Input id="monthly-report-month" type="month" value={month} onChange={(e) => setMonth(e.target.value)} />
        </Field>
        <DialogFooter className="flex-wrap gap-2">
          <Button variant="outline" disabled={!valid} onClick={() => download('.csv')}>
            <FileDownIcon />
            CSV
          </Button>
          <Button variant="outline" disabled={!valid} onClick={() => download('.xlsx')}>
            <FileSpreadsheetIcon />
            Excel
          </Button>
          <Button
            disabled={!valid}
            onClick={() => {
              window.open(printUrl({ report: 'monthly', month }), '_blank');
              onOpenChange(false);
            }}
          >
            <ExternalLinkIcon />
            View Report
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
