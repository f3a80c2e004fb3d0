import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { Progress } from '@/web/components/ui/progress';
import { refusalMessage } from '@/web/lib/form-errors';
import { api } from '@/web/lib/request';
import { classSummaryQuery } from '@/web/lib/school-data';
import { useBulkLinks, type BulkAnswer } from './api';
import { BULK_TEXTS, LINK_TEXTS } from './texts';

/** The contract's limit per bulk call. */
export const BULK_CHUNK = 100;

/** Splits the students into the calls the server takes: at most 100 each. */
export function chunks<T>(items: T[], size = BULK_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

type Run =
  | { kind: 'idle' }
  | { kind: 'running'; done: number; total: number }
  | { kind: 'finished'; created: number; skipped: BulkAnswer['skipped']; stoppedAt: string | null };

/**
 * "Payment links for defaulters" of a class or the whole school: the students are sent in chunks
 * of 100, with progress; the server keeps only those with dues (one `outstanding` link each,
 * reusing an active one) and says why it skipped the others.
 */
export function BulkLinksDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const classes = useQuery(classSummaryQuery());
  const classNames = [...new Set((classes.data ?? []).map((c) => c.class))];
  const [scope, setScope] = useState('');
  const [days, setDays] = useState('15');
  const [run, setRun] = useState<Run>({ kind: 'idle' });
  const bulk = useBulkLinks();
  const stop = useRef(false);
  const daysOk = /^\d{1,3}$/.test(days) && Number(days) >= 1 && Number(days) <= 180;

  const start = async () => {
    stop.current = false;
    setRun({ kind: 'running', done: 0, total: 0 });
    let created = 0;
    const skipped: BulkAnswer['skipped'] = [];
    let done = 0;
    try {
      const students = await api.get<Array<{ id: string }>>(`/api/students${scope ? `?${new URLSearchParams({ class: scope })}` : ''}`);
      const ids = students.map((s) => s.id);
      setRun({ kind: 'running', done: 0, total: ids.length });
      for (const part of chunks(ids)) {
        if (stop.current) break;
        const answer = await bulk.mutateAsync({ ids: part, days: Number(days) });
        created += answer.created.length;
        skipped.push(...answer.skipped);
        done += part.length;
        setRun({ kind: 'running', done, total: ids.length });
      }
      setRun({ kind: 'finished', created, skipped, stoppedAt: stop.current ? BULK_TEXTS.stopped : null });
    } catch (error) {
      setRun({ kind: 'finished', created, skipped, stoppedAt: `${BULK_TEXTS.failed}: ${refusalMessage(error, BULK_TEXTS.failed)}` });
    }
  };

  const close = (next: boolean) => {
    if (!next && run.kind === 'running') {
      stop.current = true;
      return;
    }
    if (!next) setRun({ kind: 'idle' });
    onOpenChange(next);
  };

  // the reasons, counted: "no dues" for most of a class is one line, not forty
  const reasons = new Map<string, string[]>();
  if (run.kind === 'finished') for (const s of run.skipped) reasons.set(s.reason, [...(reasons.get(s.reason) ?? []), s.studentName]);

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{BULK_TEXTS.title}</DialogTitle>
          <DialogDescription>{BULK_TEXTS.description}</DialogDescription>
        </DialogHeader>
        {run.kind === 'idle' ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label={BULK_TEXTS.scope} htmlFor="bulkScope">
              <NativeSelect id="bulkScope" value={scope} onChange={(e) => setScope(e.target.value)}>
                <option value="">{BULK_TEXTS.wholeSchool}</option>
                {classNames.map((c) => (
                  <option key={c} value={c}>
                    {BULK_TEXTS.classOption(c)}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label={BULK_TEXTS.expires} htmlFor="bulkDays" error={daysOk ? undefined : LINK_TEXTS.daysRange}>
              <Input id="bulkDays" inputMode="numeric" maxLength={3} value={days} onChange={(e) => setDays(e.target.value)} />
            </Field>
          </div>
        ) : run.kind === 'running' ? (
          <div className="grid gap-2" aria-live="polite">
            <p className="text-sm">{run.total === 0 ? BULK_TEXTS.finding : BULK_TEXTS.working(run.done, run.total)}</p>
            <Progress value={run.total === 0 ? 0 : Math.round((run.done * 100) / run.total)} label={BULK_TEXTS.title} />
          </div>
        ) : (
          <div className="grid gap-3 text-sm" aria-live="polite">
            <p className="font-medium" data-testid="bulk-summary">
              {BULK_TEXTS.summary(run.created, run.skipped.length)}
            </p>
            {run.stoppedAt ? <p className="text-destructive">{run.stoppedAt}</p> : null}
            {reasons.size > 0 ? (
              <div className="grid gap-1">
                <p className="text-muted-foreground">{BULK_TEXTS.skippedTitle}</p>
                <ul className="grid max-h-48 gap-1 overflow-y-auto">
                  {[...reasons].map(([reason, names]) => (
                    <li key={reason}>
                      <span className="font-medium">
                        {reason} ({names.length})
                      </span>
                      {names.length <= 10 ? <span className="text-muted-foreground">: {names.join(', ')}</span> : null}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => close(false)}>
            {BULK_TEXTS.close}
          </Button>
          {run.kind === 'idle' ? (
            <Button onClick={() => void start()} disabled={!daysOk}>
              {BULK_TEXTS.start}
            </Button>
          ) : null}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
