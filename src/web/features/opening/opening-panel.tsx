import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DownloadIcon, UploadIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { OPENING_HEAD_LABELS, OPENING_HEADS } from '@/domain/opening';
import { useIdleAfterPaint } from '@/web/components/deferred';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { rupees } from '@/web/lib/format';
import { api } from '@/web/lib/request';
import {
  cancelArrear,
  cancelReceipt,
  downloadTemplate,
  fileBody,
  getStudentOpening,
  importOpening,
  openingKey,
  saveOpening,
  type ImportResult,
} from './api';
import { OPENING_TEXTS as T } from './texts';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : T.failed);

/** Opening balances (issue 11 item 4): the import from the old register and one student's entries. */
export function OpeningPanel() {
  return (
    <section aria-labelledby="opening-heading" className="grid min-w-0 gap-4">
      <div>
        <h2 id="opening-heading" className="text-2xl font-semibold tracking-tight">
          {T.title}
        </h2>
        <p className="text-sm text-muted-foreground">{T.intro}</p>
      </div>
      <ImportCard />
      <StudentEntries />
    </section>
  );
}

function ImportCard() {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const run = useMutation({
    mutationFn: async (f: File) => importOpening(await fileBody(f)),
    onSuccess: (r) => {
      setResult(r);
      void queryClient.invalidateQueries();
      if (r.errors.length > 0) toast.error({ title: r.message });
      else toast.success({ title: r.message });
    },
    onError: (e) => toast.error({ title: messageOf(e) }),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>{T.importTitle}</CardTitle>
        <CardDescription>{T.importHelp}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => void downloadTemplate('csv').catch((e) => toast.error({ title: messageOf(e) }))}>
            <DownloadIcon /> {T.templateCsv}
          </Button>
          <Button variant="outline" onClick={() => void downloadTemplate('xlsx').catch((e) => toast.error({ title: messageOf(e) }))}>
            <DownloadIcon /> {T.templateXlsx}
          </Button>
        </div>
        <div className="grid gap-2 sm:max-w-md">
          <Label htmlFor="opening-file">{T.chooseFile}</Label>
          <Input id="opening-file" type="file" accept=".csv,.xlsx,text/csv" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </div>
        <div>
          <Button disabled={!file || run.isPending} onClick={() => file && run.mutate(file)}>
            <UploadIcon /> {run.isPending ? T.importing : T.importButton}
          </Button>
        </div>
        {result ? (
          <div className="grid gap-2" data-testid="opening-import-result">
            <Alert variant={result.errors.length > 0 ? 'destructive' : 'default'}>
              <AlertDescription>{result.message}</AlertDescription>
            </Alert>
            {result.errors.length > 0 ? (
              <div>
                <p className="text-sm font-medium">{T.rowErrors}</p>
                <ul className="list-disc pl-5 text-sm">
                  {result.errors.map((e) => (
                    <li key={e.row}>
                      {T.row(e.row)} {e.name ? `(${e.name})` : ''}: {e.reasons.join('; ')}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            {result.skipped.length > 0 ? (
              <div>
                <p className="text-sm font-medium">{T.skipped}</p>
                <ul className="list-disc pl-5 text-sm">
                  {result.skipped.map((s) => (
                    <li key={s.row}>
                      {T.row(s.row)}: {s.name}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

interface StudentOption {
  id: string;
  name: string;
  class: string;
  section: string;
  rollNumber: number;
}

interface FeeMonth {
  key: string;
  label: string;
  due: boolean;
  status: string;
}

function StudentEntries() {
  const [studentId, setStudentId] = useState('');
  // the whole school's list fills the select: asked once Fee Status has painted the dues above (decision 0044)
  const idle = useIdleAfterPaint();
  const students = useQuery({ queryKey: ['/api/students', 'opening'], queryFn: ({ signal }) => api.get<StudentOption[]>('/api/students', { signal }), enabled: idle });
  return (
    <Card>
      <CardHeader>
        <CardTitle>{T.studentTitle}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-2 sm:max-w-md">
          <Label htmlFor="opening-student">{T.student}</Label>
          <select
            id="opening-student"
            className="h-10 rounded-md border bg-background px-3 text-sm"
            value={studentId}
            onChange={(e) => setStudentId(e.target.value)}
          >
            <option value="">{T.pickStudent}</option>
            {(students.data ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.class} {s.section}, roll {s.rollNumber})
              </option>
            ))}
          </select>
        </div>
        {studentId ? <StudentOpeningView studentId={studentId} /> : null}
      </CardContent>
    </Card>
  );
}

function StudentOpeningView({ studentId }: { studentId: string }) {
  const queryClient = useQueryClient();
  const opening = useQuery({ queryKey: openingKey(studentId), queryFn: ({ signal }) => getStudentOpening(studentId, signal) });
  const months = useQuery({
    queryKey: [`/api/students/${studentId}/fee-status`],
    queryFn: ({ signal }) => api.get<{ account: { months: FeeMonth[] } }>(`/api/students/${studentId}/fee-status`, { signal }),
  });
  const refresh = () => void queryClient.invalidateQueries();
  const [cancelling, setCancelling] = useState<{ kind: 'arrear' | 'receipt'; id: string } | null>(null);
  const [reason, setReason] = useState('');
  const cancel = useMutation({
    mutationFn: () => (cancelling!.kind === 'arrear' ? cancelArrear(cancelling!.id, reason) : cancelReceipt(cancelling!.id, reason)),
    onSuccess: () => {
      toast.success({ title: cancelling?.kind === 'receipt' ? T.receiptCancelled : T.entryCancelled });
      setCancelling(null);
      setReason('');
      refresh();
    },
    onError: (e) => toast.error({ title: messageOf(e) }),
  });
  const data = opening.data;
  const hasEntries = Boolean(data && (data.arrears.some((a) => a.status === 'live') || data.receipts.some((r) => r.status === 'live')));
  const cancelRow = (kind: 'arrear' | 'receipt', id: string) =>
    cancelling?.id === id ? (
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          cancel.mutate();
        }}
      >
        <div className="grid gap-1">
          <Label htmlFor={`reason-${id}`}>{T.cancelReason}</Label>
          <Input id={`reason-${id}`} value={reason} onChange={(e) => setReason(e.target.value)} className="w-56" />
        </div>
        <Button type="submit" variant="destructive" size="sm" disabled={cancel.isPending}>
          {T.confirmCancel}
        </Button>
        <Button type="button" variant="ghost" size="sm" onClick={() => setCancelling(null)}>
          {T.keep}
        </Button>
      </form>
    ) : (
      <Button variant="outline" size="sm" onClick={() => setCancelling({ kind, id })}>
        {T.cancel}
      </Button>
    );
  return (
    <div className="grid gap-4">
      {data && (data.arrears.length > 0 || data.receipts.length > 0) ? (
        <div className="grid gap-2" data-testid="opening-entries">
          <p className="text-sm font-medium">{T.owed(rupees(data.remaining))}</p>
          <ul className="grid gap-2">
            {data.arrears.map((a) => (
              <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-2 text-sm">
                <span>
                  <Badge variant="secondary">{T.opening}</Badge> {a.headLabel} {rupees(a.amount)}
                  {a.status === 'cancelled' ? <Badge variant="destructive" className="ml-2">{T.cancelled}</Badge> : null}
                </span>
                {a.status === 'live' ? cancelRow('arrear', a.id) : <span className="text-muted-foreground">{a.cancelReason}</span>}
              </li>
            ))}
            {data.receipts.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-2 text-sm">
                <span>
                  <Badge variant="secondary">{T.opening}</Badge> {r.receiptNumber}: {[...new Set(r.lines.map((l) => l.periodLabel ?? l.period))].join(', ')} {rupees(r.total)}
                  {r.status === 'cancelled' ? <Badge variant="destructive" className="ml-2">{T.cancelled}</Badge> : null}
                </span>
                {r.status === 'live' ? cancelRow('receipt', r.id) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : data ? (
        <p className="text-sm text-muted-foreground">{T.noEntries}</p>
      ) : null}
      {!hasEntries && data ? <EntryForm studentId={studentId} months={(months.data?.account.months ?? []).filter((m) => m.due && m.status !== 'Paid')} onSaved={refresh} /> : null}
    </div>
  );
}

function EntryForm({ studentId, months, onSaved }: { studentId: string; months: FeeMonth[]; onSaved: () => void }) {
  const [amounts, setAmounts] = useState<Record<string, string>>({});
  const [paid, setPaid] = useState<string[]>([]);
  const [note, setNote] = useState('');
  const save = useMutation({
    mutationFn: () => saveOpening({ studentId, amounts, paidMonths: paid, note }),
    onSuccess: () => {
      toast.success({ title: T.saved });
      onSaved();
    },
    onError: (e) => toast.error({ title: messageOf(e) }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} className="grid gap-4">
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">{T.arrears}</legend>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          {OPENING_HEADS.map((head) => (
            <div key={head} className="grid gap-1">
              <Label htmlFor={`opening-${head}`}>{OPENING_HEAD_LABELS[head]}</Label>
              <Input id={`opening-${head}`} inputMode="decimal" value={amounts[head] ?? ''} onChange={(e) => setAmounts({ ...amounts, [head]: e.target.value })} />
            </div>
          ))}
        </div>
      </fieldset>
      {months.length > 0 ? (
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">{T.paidMonths}</legend>
          <div className="flex flex-wrap gap-3">
            {months.map((m) => (
              <label key={m.key} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4"
                  checked={paid.includes(m.key)}
                  onChange={(e) => setPaid(e.target.checked ? [...paid, m.key] : paid.filter((k) => k !== m.key))}
                />
                {m.label}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <div className="grid gap-1 sm:max-w-md">
        <Label htmlFor="opening-note">{T.note}</Label>
        <Input id="opening-note" value={note} onChange={(e) => setNote(e.target.value)} />
      </div>
      <div>
        <Button type="submit" disabled={save.isPending}>
          {T.save}
        </Button>
      </div>
    </form>
  );
}
