import { BanIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useCan } from '@/web/app/permissions';
import { ReceiptButtons } from '@/web/components/fees/receipt-actions';
import { toast } from '@/web/components/toaster';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Textarea } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { rupees } from '@/web/lib/format';
import { paymentModeLabel, receiptDate, type Receipt } from '@/web/lib/ledger-api';
import { cn } from '@/web/lib/utils';
import { useCancelReceipt } from './api';

const REASON_REQUIRED = 'Please enter a reason for cancelling this receipt';

/**
 * A student's receipts, newest first. A wrong receipt is cancelled with a reason (ruling 3): it
 * stays here, struck through with the reason, and its money stops counting.
 */
export function ReceiptHistory({ receipts, emptyText }: { receipts: Receipt[]; emptyText: string }) {
  const [cancelling, setCancelling] = useState<Receipt | null>(null);
  // a Clerk collects and prints but never cancels (ruling 32)
  const mayCancel = useCan()('receipts.cancel');
  if (receipts.length === 0) return <p className="text-sm text-muted-foreground">{emptyText}</p>;
  return (
    <>
      <ul className="grid gap-2" aria-label="Receipts">
        {receipts.map((r) => {
          const cancelled = r.status === 'cancelled';
          return (
            <li
              key={r.id}
              aria-label={`Receipt ${r.receiptNumber}`}
              className={cn('grid gap-2 rounded-lg border p-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center', cancelled && 'bg-muted/50')}
            >
              <div className="grid min-w-0 gap-1">
                <div className="flex flex-wrap items-center gap-2">
                  <span className={cn('font-mono text-sm font-semibold', cancelled && 'line-through decoration-2 opacity-70')}>{r.receiptNumber}</span>
                  <span className={cn('text-sm font-semibold tabular-nums', cancelled && 'line-through opacity-70')}>{rupees(r.total)}</span>
                  {cancelled ? <Badge variant="destructive">Cancelled</Badge> : null}
                  <span className="text-xs text-muted-foreground">
                    {receiptDate(r.receivedAt)} · {paymentModeLabel(r)} · Received by {r.receivedBy}
                  </span>
                </div>
                <p className={cn('text-xs text-muted-foreground', cancelled && 'line-through')}>
                  {r.lines.map((l) => `${l.headLabel}${l.periodLabel ? ` ${l.periodLabel}` : l.head === 'previous_balance' ? ` (${l.academicYear})` : ''} ${rupees(l.amount)}`).join(' · ')}
                </p>
                {cancelled ? (
                  <p className="text-xs font-medium text-destructive">
                    Cancelled{r.cancelledAt ? ` on ${receiptDate(r.cancelledAt)}` : ''}: {r.cancelReason}
                  </p>
                ) : null}
              </div>
              <div className="flex flex-wrap gap-2">
                <ReceiptButtons receipt={r} />
                {!cancelled && mayCancel ? (
                  <Button variant="outline" size="sm" className="text-destructive" aria-label={`Cancel receipt ${r.receiptNumber}`} onClick={() => setCancelling(r)}>
                    <BanIcon />
                    Cancel
                  </Button>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
      <CancelReceiptDialog receipt={cancelling} onClose={() => setCancelling(null)} />
    </>
  );
}

function CancelReceiptDialog({ receipt, onClose }: { receipt: Receipt | null; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const cancel = useCancelReceipt();

  const close = () => {
    setReason('');
    setError(undefined);
    onClose();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!receipt) return;
    if (!reason.trim()) {
      setError(REASON_REQUIRED);
      return;
    }
    cancel.mutate(
      { id: receipt.id, reason: reason.trim() },
      {
        onSuccess: (answer) => {
          toast.success({ title: 'Receipt Cancelled', description: answer.message });
          close();
        },
        onError: (err) => toast.error({ title: 'Error', description: err.message || 'Failed to cancel the receipt' }),
      },
    );
  };

  return (
    <Dialog open={receipt !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Cancel Receipt {receipt?.receiptNumber}</DialogTitle>
          <DialogDescription>
            {receipt ? `${rupees(receipt.total)} received from ${receipt.studentName} on ${receiptDate(receipt.receivedAt)}.` : null} The receipt stays on record, marked
            cancelled with your reason, and its amount is owed again.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <Field label="Reason *" htmlFor="cancel-reason" error={error}>
            <Textarea id="cancel-reason" value={reason} maxLength={500} autoFocus aria-invalid={error ? true : undefined} onChange={(e) => setReason(e.target.value)} />
          </Field>
          <DialogFooter>
            <Button variant="outline" onClick={close}>
              Keep Receipt
            </Button>
            <Button type="submit" variant="destructive" disabled={cancel.isPending}>
              {cancel.isPending ? 'Cancelling...' : 'Cancel Receipt'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
