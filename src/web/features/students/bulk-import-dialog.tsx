import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2Icon, DownloadIcon, FileUpIcon, RotateCcwIcon, UploadIcon } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { NativeSelect, Textarea } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { Progress } from '@/web/components/ui/progress';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { refusalMessage } from '@/web/lib/form-errors';
import { refreshStudents } from './api';
import {
  BulkImportError,
  checkBulkImport,
  downloadRejectedRows,
  downloadTemplate,
  importSummary,
  sectionsText,
  streamBulkImport,
  TEMPLATE_COLUMNS,
  TEMPLATE_FILE_NAME,
  type BulkCheck,
  type BulkProgress,
  type BulkResult,
} from './bulk-import';

type Status = 'idle' | 'parsing' | 'checking' | 'review' | 'importing' | 'completed' | 'error';

/** Operations §9: after a clean import the dialog closes and resets after 2 s. */
const CLOSE_AFTER_MS = 2_000;

const EMPTY_PROGRESS: BulkProgress = { processed: 0, total: 0, imported: 0, errors: 0, currentStudent: '' };

/** Bulk Import Students in 3 steps: download the template, read the instructions, paste or choose a CSV. */
export function BulkImportDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const [csv, setCsv] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>('idle');
  const [progress, setProgress] = useState<BulkProgress>(EMPTY_PROGRESS);
  const [result, setResult] = useState<BulkResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [check, setCheck] = useState<BulkCheck | null>(null);
  /** rows the clerk chose to import although they may be duplicates (default: skip) */
  const [importAnyway, setImportAnyway] = useState<ReadonlySet<number>>(new Set());
  const fileInput = useRef<HTMLInputElement>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const busy = status === 'parsing' || status === 'checking' || status === 'importing';

  const reset = () => {
    setCsv('');
    setFileName(null);
    setStatus('idle');
    setProgress(EMPTY_PROGRESS);
    setResult(null);
    setFailure(null);
    setCheck(null);
    setImportAnyway(new Set());
    if (fileInput.current) fileInput.current.value = '';
  };

  useEffect(
    () => () => {
      if (closeTimer.current) clearTimeout(closeTimer.current);
    },
    [],
  );

  const close = (next: boolean) => {
    if (next) return onOpenChange(true);
    if (busy) return; // the server is writing rows; closing now would hide how it ended
    if (closeTimer.current) clearTimeout(closeTimer.current);
    onOpenChange(false);
    reset();
  };

  const chooseFile = async (file: File | undefined) => {
    if (!file) return;
    setStatus('parsing');
    try {
      setCsv(await file.text());
      setFileName(file.name);
      setStatus('idle');
    } catch {
      setStatus('error');
      setFailure('The file could not be read. Please choose it again.');
    }
  };

  /** First the check (nothing written): errors and possible duplicates are shown before anything is imported. */
  const start = async () => {
    if (!csv.trim()) {
      toast.error({ title: 'Validation Error', description: 'Please enter CSV data' });
      return;
    }
    setFailure(null);
    setResult(null);
    setStatus('checking');
    try {
      const answer = await checkBulkImport(csv);
      if (answer.errors.length === 0 && answer.duplicates.length === 0) return runImport([]);
      setCheck(answer);
      setImportAnyway(new Set());
      setStatus('review');
    } catch (error) {
      const message = refusalMessage(error, 'The file could not be checked. Please try again.');
      setFailure(message);
      setStatus('error');
      toast.error({ title: 'Import Failed', description: message });
    }
  };

  const runImport = async (anyway: number[]) => {
    setFailure(null);
    setResult(null);
    setProgress(EMPTY_PROGRESS);
    setStatus('importing');
    try {
      const outcome = await streamBulkImport(csv, anyway, setProgress);
      setResult(outcome);
      setStatus('completed');
      await refreshStudents(queryClient);
      if (outcome.imported === 0) {
        toast.error({
          title: 'Import Failed',
          description: `No students were imported. ${outcome.errors.length} rows had errors${outcome.skipped.length ? `, ${outcome.skipped.length} possible duplicates were skipped` : ''}.`,
        });
        return;
      }
      toast.success({ title: 'Success', description: importSummary(outcome) });
      // Row errors stay on screen to be fixed; a clean import closes by itself.
      if (outcome.errors.length === 0 && outcome.skipped.length === 0) {
        closeTimer.current = setTimeout(() => {
          onOpenChange(false);
          reset();
        }, CLOSE_AFTER_MS);
      }
    } catch (error) {
      const message = error instanceof BulkImportError ? error.message : 'Unable to read response stream';
      setFailure(message);
      setStatus('error');
      toast.error({ title: 'Import Failed', description: message });
      await refreshStudents(queryClient);
    }
  };

  const percent = progress.total ? (progress.processed / progress.total) * 100 : 0;

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-w-2xl" onInteractOutside={(e) => busy && e.preventDefault()} onEscapeKeyDown={(e) => busy && e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>Bulk Import Students</DialogTitle>
          <DialogDescription>Add a whole class or school at once from a spreadsheet saved as CSV.</DialogDescription>
        </DialogHeader>

        {status === 'importing' || status === 'completed' || status === 'review' ? null : (
          <>
            <Step n={1} title="Download the template">
              <p className="text-sm text-muted-foreground">It has the right columns and two example rows to overwrite.</p>
              <Button variant="outline" size="sm" className="justify-self-start" onClick={downloadTemplate}>
                <DownloadIcon />
                Download Template
              </Button>
            </Step>

            <Step n={2} title="Fill it in">
              <ul className="grid list-disc gap-1 pl-5 text-sm text-muted-foreground">
                <li>One student per row. Name and class are required; rows without them are skipped.</li>
                <li>Class as Nursery, LKG, UKG or Class 1 to Class 12 (1st, I, Grade 1 and 12th work too).</li>
                <li>Section A to F; blank means A. Roll numbers are given automatically in each section.</li>
                <li>Monthly bus fee in rupees, e.g. 500 or 450.50; blank means 0.</li>
                <li>Aadhar numbers have 12 digits; spaces or hyphens as printed (1234 5678 9012) are fine. Keep the header row as it is.</li>
                <li>Before anything is imported, every error of each row and any possible duplicates are shown for you to decide.</li>
              </ul>
              <p className="break-words font-mono text-[11px] text-muted-foreground">{TEMPLATE_COLUMNS.join(', ')}</p>
            </Step>

            <Step n={3} title="Paste the CSV or choose the file">
              <div className="flex flex-wrap items-center gap-2">
                <input
                  ref={fileInput}
                  id="bulk-file"
                  type="file"
                  accept=".csv,text/csv"
                  className="sr-only"
                  onChange={(e) => chooseFile(e.target.files?.[0])}
                  disabled={busy}
                />
                <Button variant="outline" size="sm" onClick={() => fileInput.current?.click()} disabled={busy}>
                  <FileUpIcon />
                  Choose CSV File
                </Button>
                <span className="text-xs text-muted-foreground">{fileName ? `Loaded ${fileName}` : `e.g. ${TEMPLATE_FILE_NAME}`}</span>
              </div>
              <Label htmlFor="bulk-csv" className="sr-only">
                CSV data
              </Label>
              <Textarea
                id="bulk-csv"
                value={csv}
                onChange={(e) => {
                  setCsv(e.target.value);
                  setFileName(null);
                }}
                disabled={busy}
                rows={6}
                spellCheck={false}
                placeholder={`${TEMPLATE_COLUMNS.slice(0, 3).join(',')},...\nAarav Sharma,Class 5,A,...`}
                className="font-mono text-xs md:text-xs"
              />
            </Step>
          </>
        )}

        {status === 'importing' || (status === 'completed' && result) ? (
          <div className="grid gap-2 rounded-lg border p-3" aria-live="polite">
            <div className="flex items-center justify-between text-sm">
              <span className="font-medium">{status === 'importing' ? 'Importing students...' : 'Import complete'}</span>
              <span className="tabular-nums text-muted-foreground">
                {result ? `${result.imported + result.errors.length} / ${result.imported + result.errors.length}` : `${progress.processed} / ${progress.total || '…'}`}
              </span>
            </div>
            <Progress value={status === 'completed' ? 100 : percent} label="Import progress" />
            <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
              <span>
                Imported: <strong className="text-foreground tabular-nums">{result ? result.imported : progress.imported}</strong>
              </span>
              <span>
                Errors: <strong className="text-foreground tabular-nums">{result ? result.errors.length : progress.errors}</strong>
              </span>
              {status === 'importing' && progress.currentStudent ? <span className="truncate">Now: {progress.currentStudent}</span> : null}
            </div>
          </div>
        ) : null}

        {status === 'completed' && result && result.imported > 0 ? (
          <Alert variant="success">
            <CheckCircle2Icon />
            <AlertTitle>
              {result.imported} {result.imported === 1 ? 'student' : 'students'} imported
            </AlertTitle>
            <AlertDescription>{result.sections.length ? `Into ${sectionsText(result.sections)}.` : null}</AlertDescription>
          </Alert>
        ) : null}

        {status === 'error' && failure ? (
          <Alert variant="destructive">
            <AlertTitle>Import Failed</AlertTitle>
            <AlertDescription>{failure}</AlertDescription>
          </Alert>
        ) : null}

        {status === 'review' && check ? (
          <Review
            check={check}
            importAnyway={importAnyway}
            onChoose={(row, anyway) =>
              setImportAnyway((current) => {
                const next = new Set(current);
                if (anyway) next.add(row);
                else next.delete(row);
                return next;
              })
            }
          />
        ) : null}

        {result && result.errors.length > 0 ? <RowErrors errors={result.errors} /> : null}
        {result && result.skipped.length > 0 ? <SkippedRows skipped={result.skipped} /> : null}

        {(status === 'review' && check && check.errors.length > 0) || (status === 'completed' && result && result.errors.length > 0) ? (
          <Button variant="outline" size="sm" className="justify-self-start" onClick={() => downloadRejectedRows(csv, status === 'review' ? check!.errors : result!.errors)}>
            <DownloadIcon />
            Download rejected rows
          </Button>
        ) : null}

        <DialogFooter>
          <Button variant="outline" onClick={() => close(false)} disabled={busy}>
            {status === 'completed' ? 'Close' : 'Cancel'}
          </Button>
          {status === 'completed' ? (
            <Button variant="outline" onClick={reset}>
              Import More
            </Button>
          ) : status === 'review' && check ? (
            <Button onClick={() => runImport([...importAnyway])} disabled={check.ready + importAnyway.size === 0}>
              <UploadIcon />
              {importButtonText(check.ready + importAnyway.size)}
            </Button>
          ) : (
            <Button onClick={start} disabled={busy}>
              {status === 'error' ? <RotateCcwIcon /> : <UploadIcon />}
              {status === 'checking' ? 'Checking...' : busy ? 'Importing...' : status === 'error' ? 'Retry Import' : 'Import Students'}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <section className="grid grid-cols-[2rem_1fr] gap-x-3">
      <span className="flex size-7 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground">{n}</span>
      <div className="grid min-w-0 gap-2">
        <h3 className="pt-1 text-sm font-semibold">{title}</h3>
        {children}
      </div>
    </section>
  );
}

const importButtonText = (n: number) => `Import ${n} ${n === 1 ? 'student' : 'students'}`;

/** The check's findings: rows that will not be imported, and possible duplicates with a choice each. */
function Review({ check, importAnyway, onChoose }: { check: BulkCheck; importAnyway: ReadonlySet<number>; onChoose: (row: number, anyway: boolean) => void }) {
  return (
    <div className="grid gap-3">
      <p className="text-sm">
        {check.total} rows checked: {check.ready} ready to import
        {check.duplicates.length ? `, ${check.duplicates.length} possible ${check.duplicates.length === 1 ? 'duplicate' : 'duplicates'}` : ''}
        {check.errors.length ? `, ${check.errors.length} with errors` : ''}. Nothing has been imported yet.
      </p>
      {check.duplicates.length > 0 ? (
        <div className="grid gap-2">
          <p className="text-sm font-medium">Possible duplicates: skipped unless you choose Import anyway</p>
          <ul aria-label="Possible duplicates" className="grid max-h-56 divide-y overflow-y-auto rounded-md border">
            {check.duplicates.map((d) => (
              <li key={d.row} className="grid gap-2 p-3 text-sm sm:grid-cols-[1fr_10rem] sm:items-center">
                <div className="grid min-w-0 gap-0.5">
                  <p className="font-medium">
                    Row {d.row}: {d.name}
                  </p>
                  {d.description.map((text) => (
                    <p key={text} className="text-muted-foreground">
                      {text}
                    </p>
                  ))}
                </div>
                <NativeSelect
                  aria-label={`Row ${d.row} ${d.name}`}
                  className="h-9"
                  value={importAnyway.has(d.row) ? 'import' : 'skip'}
                  onChange={(e) => onChoose(d.row, e.target.value === 'import')}
                >
                  <option value="skip">Skip</option>
                  <option value="import">Import anyway</option>
                </NativeSelect>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {check.errors.length > 0 ? <RowErrors errors={check.errors} before /> : null}
    </div>
  );
}

function SkippedRows({ skipped }: { skipped: BulkResult['skipped'] }) {
  return (
    <p className="text-sm text-muted-foreground">
      {skipped.length} possible {skipped.length === 1 ? 'duplicate was' : 'duplicates were'} skipped (rows {skipped.map((s) => s.row).join(', ')}).
    </p>
  );
}

function RowErrors({ errors, before = false }: { errors: BulkResult['errors']; before?: boolean }) {
  const rows = `${errors.length} ${errors.length === 1 ? 'row' : 'rows'}`;
  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium text-destructive">
        {before
          ? `${rows} with errors will not be imported. Download them, fix them and import that file again.`
          : `${errors.length} ${errors.length === 1 ? 'row was' : 'rows were'} not imported. Fix them and import those rows again.`}
      </p>
      <div className="max-h-56 overflow-y-auto rounded-md border">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead className="w-16">Row</TableHead>
              <TableHead>Name</TableHead>
              <TableHead>Reason</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {errors.map((e) => (
              <TableRow key={`${e.row}-${e.reason}`}>
                <TableCell className="tabular-nums">{e.row}</TableCell>
                <TableCell>{e.name || '—'}</TableCell>
                <TableCell className="whitespace-normal">
                  <ul className="grid gap-0.5">
                    {e.reasons.map((reason) => (
                      <li key={reason}>{reason}</li>
                    ))}
                  </ul>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
