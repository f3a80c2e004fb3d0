import { useQuery } from '@tanstack/react-query';
import { DownloadIcon, FileStackIcon, PrinterIcon } from 'lucide-react';
import { useRef, useState } from 'react';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { NativeSelect } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { Spinner } from '@/web/components/ui/spinner';
import { classPdfPath, classResultsQuery, downloadPdf, isComplete, marksheetPdfPath, marksheetQuery } from './api';
import { openPrintWindow } from './print';
import { ReportCard } from './report-card';
import { SelectionBar } from './selection-bar';
import type { ResultsSelection } from './use-selection';

/** Marksheet (operations §2): pick a student by roll, see the card, print it or download PDFs. */
export function MarksheetTab({ state }: { state: ResultsSelection }) {
  const { selection, rollNumber } = state;
  const roster = useQuery(classResultsQuery(selection));
  const sheet = useQuery(marksheetQuery(selection, rollNumber));
  const cardRef = useRef<HTMLElement>(null);
  const [downloading, setDownloading] = useState<'one' | 'class' | null>(null);
  const students = roster.data?.students ?? [];

  const print = () => {
    if (!sheet.data || !cardRef.current) return;
    const win = openPrintWindow({ title: `Report Card - ${sheet.data.student.name}`, html: cardRef.current.outerHTML });
    if (!win) toast.error({ title: 'Error', description: 'Allow pop-ups for this site to print the marksheet.' });
  };

  const download = async (which: 'one' | 'class') => {
    setDownloading(which);
    try {
      if (which === 'one' && rollNumber !== null) await downloadPdf(marksheetPdfPath(selection, rollNumber), 'marksheet.pdf');
      else await downloadPdf(classPdfPath(selection), 'marksheets.pdf');
    } catch (error) {
      toast.error({ title: 'Error', description: error instanceof Error ? error.message : 'Failed to fetch marksheet data' });
    } finally {
      setDownloading(null);
    }
  };

  return (
    <Card>
      <CardHeader className="gap-3">
        <div>
          <CardTitle level={2}>Marksheet</CardTitle>
          <CardDescription>The Student Report Card, printed on A4 landscape. The class PDF has every student of the section, one per page.</CardDescription>
        </div>
        <SelectionBar state={state} idPrefix="sheet">
          <div className="grid gap-1.5">
            <Label htmlFor="sheet-roll">Roll Number</Label>
            <NativeSelect
              id="sheet-roll"
              value={rollNumber === null ? '' : String(rollNumber)}
              disabled={!selection.className || students.length === 0}
              onChange={(e) => state.setRoll(e.target.value ? Number(e.target.value) : null)}
            >
              <option value="">{selection.className ? (roster.isPending && isComplete(selection) ? 'Loading...' : 'Select roll number') : 'Select a class first'}</option>
              {students.map((s) => (
                <option key={s.id} value={s.rollNumber}>{s.rollNumber} - {s.name}</option>
              ))}
            </NativeSelect>
          </div>
        </SelectionBar>
        <div className="flex flex-wrap gap-2">
          <Button onClick={print} disabled={!sheet.data}>
            <PrinterIcon />
            Print Marksheet (Landscape)
          </Button>
          <Button variant="outline" onClick={() => download('one')} disabled={!sheet.data || downloading !== null}>
            {downloading === 'one' ? <Spinner className="size-4" label="Downloading" /> : <DownloadIcon />}
            Download PDF
          </Button>
          <Button variant="outline" onClick={() => download('class')} disabled={!isComplete(selection) || students.length === 0 || downloading !== null}>
            {downloading === 'class' ? <Spinner className="size-4" label="Downloading" /> : <FileStackIcon />}
            Download Class PDF
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {!isComplete(selection) ? (
          <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">Select class, section, and session to view results</p>
        ) : roster.isSuccess && students.length === 0 ? (
          <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">No students found for the selected class and section</p>
        ) : rollNumber === null ? (
          <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">Select a roll number to see the marksheet</p>
        ) : sheet.isPending ? (
          <div className="flex justify-center p-8"><Spinner label="Loading marksheet" /></div>
        ) : sheet.isError ? (
          <Alert variant="destructive"><AlertDescription>{sheet.error.message || 'Failed to fetch marksheet data'}</AlertDescription></Alert>
        ) : (
          <ReportCard ref={cardRef} sheet={sheet.data} />
        )}
      </CardContent>
    </Card>
  );
}
