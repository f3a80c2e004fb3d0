import { useQuery } from '@tanstack/react-query';
import { CheckCircle2Icon, LockIcon } from 'lucide-react';
import { useState } from 'react';
import { formatINR, type Paise } from '@/domain/money';
import { indiaDate } from '@/domain/sessions';
import { useCan } from '@/web/app/permissions';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { ConfirmDialog } from '@/web/components/ui/confirm-dialog';
import { Input, Textarea } from '@/web/components/ui/input';
import { Field, Label } from '@/web/components/ui/label';
import { Spinner } from '@/web/components/ui/spinner';
import { formatGeneratedAt, paiseOf, rupees } from '@/web/lib/format';
import { refusalMessage } from '@/web/lib/form-errors';
import { myDayQuery, useCloseDay, type Closing, type DayCollections } from './api';
import { parseCount } from './count-input';
import { cashDifference, countedCash, DENOMINATIONS, type Denomination, type DenominationCounts } from '@/domain/cash-closing';
import { Difference } from './difference';
import { PendingClosings } from './pending-closings';
import { CLOSE_DAY_TEXTS, MODE_LABELS } from './texts';

/** The Close the Day tab (issue 15 item 4): my day, the cash count, and the closings to acknowledge. */
export function CloseDayTab() {
  const can = useCan();
  const [date, setDate] = useState(() => indiaDate(new Date()));
  const day = useQuery(myDayQuery(date));
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="grid gap-1.5">
            <CardTitle level={2}>{CLOSE_DAY_TEXTS.title}</CardTitle>
            <CardDescription>{CLOSE_DAY_TEXTS.description}</CardDescription>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="close-date">{CLOSE_DAY_TEXTS.date}</Label>
            <Input id="close-date" type="date" className="w-44" value={date} max={indiaDate(new Date())} onChange={(e) => e.target.value && setDate(e.target.value)} />
          </div>
        </CardHeader>
        <CardContent>
          {day.isPending ? (
            <div className="flex justify-center py-8">
              <Spinner />
            </div>
          ) : day.isError ? (
            <LoadFailedAlert message={refusalMessage(day.error, CLOSE_DAY_TEXTS.loadFailed)} onRetry={() => day.refetch()} />
          ) : (
            <ModeTotals day={day.data} />
          )}
        </CardContent>
      </Card>
      {day.data ? day.data.closing ? <ClosedDay closing={day.data.closing} /> : <CashCount key={date} day={day.data} /> : null}
      {can('cash.acknowledge') ? <PendingClosings /> : null}
    </div>
  );
}

function ModeTotals({ day }: { day: DayCollections }) {
  const used = day.byMode.filter((m) => m.count > 0);
  if (used.length === 0) return <p className="text-sm text-muted-foreground">{CLOSE_DAY_TEXTS.nothing}</p>;
  return (
    <dl className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3" aria-label={CLOSE_DAY_TEXTS.byMode}>
      {used.map((m) => (
        <div key={m.mode} className="flex items-baseline justify-between gap-2 rounded-lg border p-3">
          <dt className="text-sm">
            <span className="font-medium">{MODE_LABELS[m.mode]}</span> <span className="text-xs text-muted-foreground">{CLOSE_DAY_TEXTS.receipts(m.count)}</span>
          </dt>
          <dd className="font-semibold tabular-nums">{rupees(m.total)}</dd>
        </div>
      ))}
      <div className="flex items-baseline justify-between gap-2 rounded-lg bg-primary/10 p-3 sm:col-span-2 lg:col-span-3">
        <dt className="text-sm font-medium">{CLOSE_DAY_TEXTS.total}</dt>
        <dd className="text-lg font-bold tabular-nums" data-testid="day-total">
          {rupees(day.total)}
        </dd>
      </div>
    </dl>
  );
}

function CashCount({ day }: { day: DayCollections }) {
  const [texts, setTexts] = useState<Partial<Record<Denomination, string>>>({});
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const close = useCloseDay();

  // only the denominations counted go on the wire: { "500": 2, "100": 4 }
  const counts: DenominationCounts = Object.fromEntries(DENOMINATIONS.map((d) => [`${d}`, parseCount(texts[d] ?? '')]).filter(([, n]) => n !== 0));
  const counted = countedCash(counts);
  const expected = paiseOf(day.expectedCash) ?? (0 as Paise);
  const difference = cashDifference(counted, expected);

  const ask = () => {
    if (difference !== 0 && !note.trim()) {
      setNoteError(CLOSE_DAY_TEXTS.noteRequired);
      return;
    }
    setNoteError(undefined);
    setConfirming(true);
  };

  const submit = () =>
    close.mutate(
      { date: day.date, counts, note: note.trim() },
      {
        onSuccess: () => toast.success({ title: CLOSE_DAY_TEXTS.closed }),
        onError: (error) => toast.error({ title: CLOSE_DAY_TEXTS.closeFailed, description: refusalMessage(error, 'Please try again.') }),
      },
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>{CLOSE_DAY_TEXTS.countTitle}</CardTitle>
        <CardDescription>{CLOSE_DAY_TEXTS.countHint}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          {DENOMINATIONS.map((d) => {
            const n = counts[`${d}`] ?? 0;
            return (
              <div key={d} className="grid gap-1 rounded-lg border p-2.5">
                <Label htmlFor={`count-${d}`} className="text-sm font-semibold">
                  {CLOSE_DAY_TEXTS.denomination(d)}
                </Label>
                <Input
                  id={`count-${d}`}
                  aria-label={CLOSE_DAY_TEXTS.count(d)}
                  inputMode="numeric"
                  autoComplete="off"
                  placeholder="0"
                  className="tabular-nums"
                  value={texts[d] ?? ''}
                  onChange={(e) => setTexts((t) => ({ ...t, [d]: e.target.value.replace(/\D/g, '').slice(0, 6) }))}
                />
                <span className="text-right text-xs text-muted-foreground tabular-nums">{formatINR((n * d * 100) as Paise)}</span>
              </div>
            );
          })}
        </div>
        <dl className="grid gap-2 rounded-lg bg-muted/50 p-3 text-sm sm:grid-cols-3" aria-live="polite">
          <div className="flex justify-between gap-2 sm:grid">
            <dt className="text-muted-foreground">{CLOSE_DAY_TEXTS.counted}</dt>
            <dd className="text-lg font-bold tabular-nums" data-testid="counted-cash">
              {formatINR(counted)}
            </dd>
          </div>
          <div className="flex justify-between gap-2 sm:grid">
            <dt className="text-muted-foreground">{CLOSE_DAY_TEXTS.expected}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid="expected-cash">
              {rupees(day.expectedCash)}
            </dd>
          </div>
          <div className="flex justify-between gap-2 sm:grid">
            <dt className="text-muted-foreground">{CLOSE_DAY_TEXTS.difference}</dt>
            <dd data-testid="cash-difference">
              <Difference amount={difference} className="text-lg" />
            </dd>
          </div>
        </dl>
        <Field label={CLOSE_DAY_TEXTS.note} htmlFor="close-note" hint={CLOSE_DAY_TEXTS.noteHint} error={noteError}>
          <Textarea id="close-note" rows={2} maxLength={500} value={note} aria-invalid={noteError ? true : undefined} onChange={(e) => setNote(e.target.value)} />
        </Field>
        <Button className="justify-self-start max-sm:w-full" onClick={ask} disabled={close.isPending}>
          <LockIcon />
          {close.isPending ? CLOSE_DAY_TEXTS.closing : CLOSE_DAY_TEXTS.close}
        </Button>
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={CLOSE_DAY_TEXTS.confirmTitle}
          description={CLOSE_DAY_TEXTS.confirmBody}
          confirmLabel={CLOSE_DAY_TEXTS.close}
          focusConfirm
          onConfirm={submit}
        />
      </CardContent>
    </Card>
  );
}

function ClosedDay({ closing }: { closing: Closing }) {
  return (
    <Alert variant={closing.acknowledgedAt ? 'success' : 'default'}>
      <CheckCircle2Icon />
      <AlertTitle>{CLOSE_DAY_TEXTS.closedTitle}</AlertTitle>
      <AlertDescription className="grid gap-1">
        <p>
          {CLOSE_DAY_TEXTS.expected} {rupees(closing.expectedCash)} · {CLOSE_DAY_TEXTS.counted} {rupees(closing.countedCash)} · {CLOSE_DAY_TEXTS.difference}{' '}
          <Difference amount={closing.difference} />
        </p>
        {closing.note ? <p>“{closing.note}”</p> : null}
        <p className="text-xs">
          {CLOSE_DAY_TEXTS.closedAt(formatGeneratedAt(closing.closedAt))} ·{' '}
          {closing.acknowledgedAt ? CLOSE_DAY_TEXTS.acknowledgedBy(closing.acknowledgedByName ?? '', formatGeneratedAt(closing.acknowledgedAt)) : CLOSE_DAY_TEXTS.waiting}
        </p>
      </AlertDescription>
    </Alert>
  );
}
