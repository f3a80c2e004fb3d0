import { useMutation } from '@tanstack/react-query';
import { BellRingIcon, UsersIcon } from 'lucide-react';
import { useState } from 'react';
import { CLASSES, SECTIONS } from '@/domain/classes';
import { paise, toRupeeString } from '@/domain/money';
import { MAX_STUDENTS_PER_SEND, REQUESTED_CHANNELS, type RequestedChannel } from '@/domain/reminders';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { NativeSelect } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { Progress } from '@/web/components/ui/progress';
import { Spinner } from '@/web/components/ui/spinner';
import { paiseOf, rupees } from '@/web/lib/format';
import { remindersApi, useInvalidateMessages, type Defaulter, type SendResult } from './api';
import { texts } from './texts';

/** Fee Status → Remind defaulters: a class (or the whole school), who owes, then reminders in chunks with progress and a summary. */
export function RemindDefaultersButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <UsersIcon />
        {texts.remindDefaulters}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-w-xl">
          <DialogHeader>
            <DialogTitle>{texts.remindDefaultersTitle}</DialogTitle>
            <DialogDescription>{texts.remindDefaultersDescription}</DialogDescription>
          </DialogHeader>
          {open ? <BulkForm onDone={() => setOpen(false)} /> : null}
        </DialogContent>
      </Dialog>
    </>
  );
}

function BulkForm({ onDone }: { onDone: () => void }) {
  const [className, setClassName] = useState('');
  const [section, setSection] = useState('');
  const [channel, setChannel] = useState<RequestedChannel>('preferred');
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [summary, setSummary] = useState<SendResult | null>(null);
  const invalidate = useInvalidateMessages();
  const find = useMutation({ mutationFn: () => remindersApi.defaulters({ className, section }) });
  const remind = useMutation({
    mutationFn: async (people: Defaulter[]) => {
      const all: SendResult = { queued: [], skipped: [] };
      setProgress({ done: 0, total: people.length });
      for (let i = 0; i < people.length; i += MAX_STUDENTS_PER_SEND) {
        const chunk = people.slice(i, i + MAX_STUDENTS_PER_SEND);
        const result = await remindersApi.send({ studentIds: chunk.map((p) => p.id), channel });
        all.queued.push(...result.queued);
        all.skipped.push(...result.skipped);
        setProgress({ done: i + chunk.length, total: people.length });
      }
      return all;
    },
    onSuccess: (result) => {
      setSummary(result);
      invalidate();
    },
    onError: (error) => toast.error({ title: texts.notSentToast, description: error.message }),
  });

  if (summary) {
    const families = new Set(summary.queued.map((q) => q.studentId)).size;
    return (
      <div className="grid gap-4" data-testid="bulk-summary">
        <div className="rounded-lg border bg-muted/40 p-4">
          <p className="font-semibold">{texts.summaryTitle}</p>
          <p className="text-sm">
            {texts.summaryQueued(summary.queued.length)} {texts.summaryStudents(families)}
          </p>
          {summary.skipped.length > 0 ? <p className="text-sm text-muted-foreground">{texts.summarySkipped(summary.skipped.length)}</p> : null}
        </div>
        {summary.skipped.length > 0 ? (
          <div className="grid gap-1">
            <p className="text-sm font-medium">{texts.skippedHeading}</p>
            <ul className="max-h-48 overflow-y-auto text-sm" data-testid="bulk-skipped">
              {summary.skipped.map((s) => (
                <li key={s.studentId} className="flex justify-between gap-3 border-b py-1 last:border-0">
                  <span>{s.studentName}</span>
                  <span className="text-right text-muted-foreground">{s.reason}</span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <DialogFooter>
          <Button onClick={onDone}>{texts.close}</Button>
        </DialogFooter>
      </div>
    );
  }

  const people = find.data?.students;
  const total = people ? toRupeeString(paise(people.reduce((sum, p) => sum + (paiseOf(p.outstanding) ?? 0), 0))) : null;
  return (
    <div className="grid gap-4">
      <div className="grid gap-3 sm:grid-cols-3">
        <div className="grid gap-1.5">
          <Label htmlFor="bulk-class">{texts.whichClass}</Label>
          <NativeSelect id="bulk-class" value={className} onChange={(e) => (setClassName(e.target.value), find.reset())} disabled={remind.isPending}>
            <option value="">{texts.allClasses}</option>
            {CLASSES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="bulk-section">{texts.whichSection}</Label>
          <NativeSelect id="bulk-section" value={section} onChange={(e) => (setSection(e.target.value), find.reset())} disabled={remind.isPending}>
            <option value="">{texts.allSections}</option>
            {SECTIONS.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="bulk-channel">{texts.channelLabel}</Label>
          <NativeSelect id="bulk-channel" value={channel} onChange={(e) => setChannel(e.target.value as RequestedChannel)} disabled={remind.isPending}>
            {REQUESTED_CHANNELS.map((c) => (
              <option key={c} value={c}>
                {texts.channelOptions[c]}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>
      {find.isError ? (
        <Alert variant="destructive">
          <AlertDescription>{find.error.message}</AlertDescription>
        </Alert>
      ) : null}
      {people ? (
        people.length === 0 ? (
          <Alert variant="info">
            <AlertDescription>{texts.noDefaulters}</AlertDescription>
          </Alert>
        ) : (
          <div className="rounded-lg border p-3 text-sm" data-testid="bulk-found">
            <p className="font-medium">{texts.defaultersFound(people.length)}</p>
            <p className="text-muted-foreground">
              {texts.totalDue}: {rupees(total)}
            </p>
          </div>
        )
      ) : null}
      {remind.isPending && progress ? (
        <div className="grid gap-1.5">
          <Progress value={(progress.done / Math.max(progress.total, 1)) * 100} label={texts.progress(progress.done, progress.total)} />
          <p className="text-xs text-muted-foreground">{texts.progress(progress.done, progress.total)}</p>
        </div>
      ) : null}
      <DialogFooter>
        <Button variant="outline" onClick={onDone} disabled={remind.isPending}>
          {texts.cancel}
        </Button>
        {people && people.length > 0 ? (
          <Button onClick={() => remind.mutate(people)} disabled={remind.isPending}>
            {remind.isPending ? <Spinner className="size-4" /> : <BellRingIcon />}
            {texts.remindAll(people.length)}
          </Button>
        ) : (
          <Button onClick={() => find.mutate()} disabled={find.isPending}>
            {find.isPending ? <Spinner className="size-4" /> : null}
            {texts.findDefaulters}
          </Button>
        )}
      </DialogFooter>
    </div>
  );
}
