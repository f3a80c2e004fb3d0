import { useQuery } from '@tanstack/react-query';
import { CheckIcon, InboxIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { monthLabel } from '@/domain/ledger';
import { toast } from '@/web/components/toaster';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { serverMessage } from '@/web/lib/form-errors';
import { formatDate, rupees } from '@/web/lib/format';
import { policyApi, queueQuery, useRefreshPolicy } from './api';
import { ReasonDialog } from './reason-dialog';
import { texts } from './texts';
import { useCan } from '@/web/app/permissions';

interface QueueItem {
  id: string;
  kind: 'concession' | 'waiver';
  who: string;
  what: string;
  amount: string | null;
  reason: string;
  requestedBy: string | null;
  requestedAt: string;
}

/**
 * Concessions and fine waivers waiting for an Administrator or Accountant (Fee Status, above the
 * student picker). Hidden when nothing waits or when the user may not decide (the permission table:
 * concessions.approve, fines.waive); an item the user may not decide shows without its buttons.
 */
export function ApprovalsQueue() {
  const can = useCan();
  const decides = { concession: can('concessions.approve'), waiver: can('fines.waive') };
  // a role that decides nothing never asks for the queue
  const queue = useQuery({ ...queueQuery, retry: false, enabled: decides.concession || decides.waiver });
  const refresh = useRefreshPolicy();
  const [rejecting, setRejecting] = useState<QueueItem | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  if (!queue.data) return null;
  const items: QueueItem[] = [
    ...queue.data.concessions.map((c) => ({
      id: c.id,
      kind: 'concession' as const,
      who: `${c.studentName} (${c.className})`,
      what: `${c.type.name}: ${c.type.description}, ${texts.months(monthLabel(c.fromMonth), c.toMonth ? monthLabel(c.toMonth) : null)}`,
      amount: c.amountInSession,
      reason: c.reason,
      requestedBy: c.requestedBy,
      requestedAt: c.requestedAt,
    })),
    ...queue.data.waivers.map((w) => ({
      id: w.id,
      kind: 'waiver' as const,
      who: w.studentName,
      what: `${texts.kindWaiver}: ${/^\d{4}-\d{2}$/.test(w.instalment) ? monthLabel(w.instalment) : w.instalment}`,
      amount: w.amount,
      reason: w.reason,
      requestedBy: w.requestedBy,
      requestedAt: w.requestedAt,
    })),
  ];
  if (items.length === 0 || !items.some((item) => decides[item.kind])) return null;

  const approve = async (item: QueueItem) => {
    setBusy(item.id);
    try {
      await (item.kind === 'concession' ? policyApi.approve(item.id) : policyApi.approveWaiver(item.id));
      toast.success({ title: texts.approved, description: item.who });
      await refresh();
    } catch (error) {
      toast.error({ title: texts.approve, description: serverMessage(error) ?? String(error) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card role="region" aria-label={texts.queueTitle} data-testid="approvals-queue">
      <CardHeader className="pb-3">
        <CardTitle className="flex items-center gap-2 text-base">
          <InboxIcon className="size-4 text-primary" />
          {texts.queueTitle}
          <Badge variant="warning">{items.length}</Badge>
        </CardTitle>
        <CardDescription>{texts.queueDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-2">
          {items.map((item) => (
            <li key={item.id} className="grid gap-2 rounded-md border p-3 text-sm sm:grid-cols-[1fr_auto] sm:items-center">
              <div className="grid min-w-0 gap-0.5">
                <span className="font-medium">
                  <Badge variant="outline" className="mr-2">
                    {item.kind === 'concession' ? texts.kindConcession : texts.kindWaiver}
                  </Badge>
                  {item.who}
                  {item.amount ? ` · ${rupees(item.amount)}` : ''}
                </span>
                <span className="text-muted-foreground">{item.what}</span>
                <span className="text-xs text-muted-foreground">
                  “{item.reason}” · {item.requestedBy ? texts.requestedBy(item.requestedBy, formatDate(item.requestedAt)) : formatDate(item.requestedAt)}
                </span>
              </div>
              <div className={decides[item.kind] ? 'flex gap-2' : 'hidden'}>
                <Button size="sm" onClick={() => void approve(item)} disabled={busy === item.id} aria-label={`${texts.approve} ${item.who}`}>
                  <CheckIcon />
                  {texts.approve}
                </Button>
                <Button size="sm" variant="outline" onClick={() => setRejecting(item)} aria-label={`${texts.reject} ${item.who}`}>
                  <XIcon />
                  {texts.reject}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
      <ReasonDialog
        open={rejecting !== null}
        onOpenChange={(open) => !open && setRejecting(null)}
        title={texts.rejectTitle}
        description={rejecting ? `${rejecting.who}: ${rejecting.what}. ${texts.rejectDescription}` : texts.rejectDescription}
        confirmLabel={texts.reject}
        onConfirm={async (reason) => {
          const item = rejecting!;
          await (item.kind === 'concession' ? policyApi.reject(item.id, reason) : policyApi.rejectWaiver(item.id, reason));
          toast.success({ title: texts.rejected, description: item.who });
          await refresh();
        }}
      />
    </Card>
  );
}
