import { useQuery } from '@tanstack/react-query';
import { CheckIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { toast } from '@/web/components/toaster';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { ConfirmDialog } from '@/web/components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { NativeSelect, Textarea } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { Spinner } from '@/web/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { formatGeneratedAt, rupees } from '@/web/lib/format';
import { refusalMessage } from '@/web/lib/form-errors';
import { UPI_STATUSES, upiQuery, useUpiDecision, type UpiItem, type UpiStatus } from './api';
import { CREDIT_TEXTS, LINK_TEXTS, ONLINE_TEXTS, UPI_STATUS_LABELS, UPI_TEXTS } from './texts';

/** The pending count for the menu: how many UPI payments wait for the clerk. */
export function UpiPendingCount() {
  const pending = useQuery(upiQuery('pending'));
  const count = pending.data?.length ?? 0;
  if (count === 0) return null;
  return (
    <Badge variant="warning" aria-label={`${count} UPI payments to confirm`} data-testid="upi-pending-count">
      {count}
    </Badge>
  );
}

/** "UPI payments to confirm" (issue 13 item 5): confirm against the bank statement, or reject with a reason. */
export function UpiConfirmations() {
  const [status, setStatus] = useState<UpiStatus>('pending');
  const items = useQuery(upiQuery(status));
  const decide = useUpiDecision();
  const [confirming, setConfirming] = useState<UpiItem | null>(null);
  const [rejecting, setRejecting] = useState<UpiItem | null>(null);
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <p className="max-w-2xl text-sm text-muted-foreground">{UPI_TEXTS.description}</p>
        <Field label={ONLINE_TEXTS.linksFilter} htmlFor="upiStatus">
          <NativeSelect id="upiStatus" value={status} onChange={(e) => setStatus(e.target.value as UpiStatus)} className="w-40">
            {UPI_STATUSES.map((s) => (
              <option key={s} value={s}>
                {UPI_STATUS_LABELS[s]}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      {items.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner />
        </div>
      ) : items.isError ? (
        <LoadFailedAlert message={refusalMessage(items.error, UPI_TEXTS.loadFailed)} onRetry={() => items.refetch()} />
      ) : items.data.length === 0 ? (
        <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">{status === 'pending' ? UPI_TEXTS.empty : UPI_TEXTS.emptyOther}</p>
      ) : (
        <div className="overflow-x-auto">
          <Table aria-label={UPI_TEXTS.title}>
            <TableHeader>
              <TableRow>
                <TableHead>{LINK_TEXTS.colStudent}</TableHead>
                <TableHead className="text-right">{LINK_TEXTS.colAmount}</TableHead>
                <TableHead>{UPI_TEXTS.reference}</TableHead>
                <TableHead>{UPI_TEXTS.payer}</TableHead>
                <TableHead>{UPI_TEXTS.submitted}</TableHead>
                <TableHead>{status === 'pending' ? LINK_TEXTS.colActions : LINK_TEXTS.colStatus}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.data.map((item) => (
                <TableRow key={item.id} data-testid="upi-row">
                  <TableCell>
                    <span className="font-medium">{item.studentName}</span>
                    <span className="block text-xs text-muted-foreground">{item.className}</span>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{rupees(item.amount)}</TableCell>
                  <TableCell className="font-mono">{item.upiReference}</TableCell>
                  <TableCell>{item.payerName ?? '—'}</TableCell>
                  <TableCell className="whitespace-nowrap text-xs">{formatGeneratedAt(new Date(item.submittedAt))}</TableCell>
                  <TableCell>
                    {item.status === 'pending' ? (
                      <div className="flex gap-1">
                        <Button size="sm" variant="success" onClick={() => setConfirming(item)}>
                          <CheckIcon />
                          {UPI_TEXTS.confirm}
                        </Button>
                        <Button size="sm" variant="outline" className="text-destructive" onClick={() => setRejecting(item)}>
                          <XIcon />
                          {UPI_TEXTS.reject}
                        </Button>
                      </div>
                    ) : (
                      <span className="grid gap-0.5 text-xs">
                        <Badge variant={item.status === 'confirmed' ? 'success' : 'destructive'}>{UPI_STATUS_LABELS[item.status]}</Badge>
                        {item.receiptNumber ? <span className="font-mono">{item.receiptNumber}</span> : null}
                        {item.reason ? <span className="text-muted-foreground">{item.reason}</span> : null}
                      </span>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(o) => {
          if (!o) setConfirming(null);
        }}
        title={UPI_TEXTS.confirmTitle}
        description={confirming ? UPI_TEXTS.confirmBody(rupees(confirming.amount), confirming.upiReference) : ''}
        confirmLabel={UPI_TEXTS.confirm}
        onConfirm={() => {
          const item = confirming;
          if (!item) return;
          decide.confirm.mutate(item.id, {
            onSuccess: (answer) => toast.success({ title: UPI_TEXTS.confirmed(answer.receiptNumber) }),
            onError: (error) => toast.error({ title: UPI_TEXTS.failed, description: refusalMessage(error, UPI_TEXTS.failed) }),
          });
        }}
      />
      {rejecting ? <RejectDialog item={rejecting} onClose={() => setRejecting(null)} /> : null}
    </div>
  );
}

function RejectDialog({ item, onClose }: { item: UpiItem; onClose: () => void }) {
  const { reject } = useUpiDecision();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = async () => {
    const text = reason.trim();
    if (!text) return setError(CREDIT_TEXTS.reasonRequired);
    if (text.length > 300) return setError(CREDIT_TEXTS.reasonLong);
    try {
      await reject.mutateAsync({ id: item.id, reason: text });
      toast.success({ title: UPI_TEXTS.rejected });
      onClose();
    } catch (e) {
      toast.error({ title: UPI_TEXTS.failed, description: refusalMessage(e, UPI_TEXTS.failed) });
    }
  };
  return (
    <Dialog open onOpenChange={(o) => (o ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{UPI_TEXTS.rejectTitle}</DialogTitle>
          <DialogDescription>
            {item.studentName}, {rupees(item.amount)}, {item.upiReference}. {UPI_TEXTS.rejectDescription}
          </DialogDescription>
        </DialogHeader>
        <Field label={CREDIT_TEXTS.reason} htmlFor="rejectReason" error={error}>
          <Textarea id="rejectReason" rows={2} maxLength={300} value={reason} onChange={(e) => setReason(e.target.value)} aria-invalid={Boolean(error)} />
        </Field>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            {LINK_TEXTS.close}
          </Button>
          <Button variant="destructive" onClick={() => void submit()} disabled={reject.isPending}>
            {UPI_TEXTS.reject}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
