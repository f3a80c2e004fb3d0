import { useQuery } from '@tanstack/react-query';
import { CheckIcon } from 'lucide-react';
import { toast } from '@/web/components/toaster';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Spinner } from '@/web/components/ui/spinner';
import { formatDate, rupees } from '@/web/lib/format';
import { refusalMessage } from '@/web/lib/form-errors';
import { cn } from '@/web/lib/utils';
import { closingsQuery, useAcknowledge } from './api';
import { lastTwoMonths } from './date-range';
import { Difference, differs } from './difference';
import { CLOSINGS_TEXTS } from './texts';

/** Accountants and Administrators: every closed day not yet acknowledged, differences first in the eye. */
export function PendingClosings() {
  // what waits is recent: the last month's closings, from the first of last month to today
  const closings = useQuery(closingsQuery(lastTwoMonths()));
  const acknowledge = useAcknowledge();
  const pending = closings.data?.closings.filter((c) => !c.acknowledgedAt) ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>{CLOSINGS_TEXTS.pendingTitle}</CardTitle>
        <CardDescription>{CLOSINGS_TEXTS.pendingDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        {closings.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner />
          </div>
        ) : closings.isError ? (
          <LoadFailedAlert message={refusalMessage(closings.error, CLOSINGS_TEXTS.loadFailed)} onRetry={() => closings.refetch()} />
        ) : pending.length === 0 ? (
          <p className="text-sm text-muted-foreground">{CLOSINGS_TEXTS.nonePending}</p>
        ) : (
          <ul className="grid gap-2" aria-label={CLOSINGS_TEXTS.pendingTitle}>
            {pending.map((c) => (
              <li
                key={c.id}
                aria-label={`${c.userName} ${formatDate(c.date)}`}
                className={cn('grid gap-2 rounded-lg border p-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center', differs(c.difference) && 'border-destructive/50 bg-destructive/5')}
              >
                <div className="grid gap-1 text-sm">
                  <p>
                    <span className="font-medium">{c.userName}</span> · {formatDate(c.date)}
                  </p>
                  <p className="text-muted-foreground">
                    {CLOSINGS_TEXTS.expected} {rupees(c.expectedCash)} · {CLOSINGS_TEXTS.counted} {rupees(c.countedCash)} · <Difference amount={c.difference} />
                  </p>
                  {c.note ? <p className="text-xs">“{c.note}”</p> : null}
                </div>
                <Button
                  size="sm"
                  className="justify-self-start"
                  disabled={acknowledge.isPending}
                  aria-label={`${CLOSINGS_TEXTS.acknowledge} ${c.userName} ${formatDate(c.date)}`}
                  onClick={() =>
                    acknowledge.mutate(c.id, {
                      onSuccess: () => toast.success({ title: CLOSINGS_TEXTS.acknowledged, description: CLOSINGS_TEXTS.acknowledgedToast(c.userName, formatDate(c.date)) }),
                      onError: (error) => toast.error({ title: CLOSINGS_TEXTS.acknowledge, description: refusalMessage(error, CLOSINGS_TEXTS.failed) }),
                    })
                  }
                >
                  <CheckIcon />
                  {CLOSINGS_TEXTS.acknowledge}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
