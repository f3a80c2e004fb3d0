import { useQuery } from '@tanstack/react-query';
import { FileSpreadsheetIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { amountProblemMessage, readAmount } from '@/domain/amount-input';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { toast } from '@/web/components/toaster';
import { AmountInput } from '@/web/components/ui/amount-input';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { NativeSelect, Textarea } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { Spinner } from '@/web/components/ui/spinner';
import { downloadFile } from '@/web/lib/download';
import { formatDate, rupees } from '@/web/lib/format';
import { refusalMessage } from '@/web/lib/form-errors';
import { cn } from '@/web/lib/utils';
import { chequesQuery, PATHS, search, useChequeAction, type Cheque, type ChequeAction, type ChequeStatus, type RangeFilters } from './api';
import { DateRange, thisMonth } from './date-range';
import { CHEQUE_TEXTS, REGISTER_TEXTS } from './texts';

const STATUSES: ChequeStatus[] = ['in_hand', 'deposited', 'cleared', 'bounced'];
const STATUS_VARIANT = { in_hand: 'secondary', deposited: 'warning', cleared: 'success', bounced: 'destructive' } as const;

/** The cheque register (issue 15 item 5): in hand → deposited → cleared, or bounced with a reason. */
export function ChequeRegister() {
  const [filters, setFilters] = useState<RangeFilters>(thisMonth);
  const cheques = useQuery(chequesQuery(filters));
  const act = useChequeAction();
  const [bouncing, setBouncing] = useState<Cheque | null>(null);

  const run = (input: ChequeAction, onDone?: () => void) =>
    act.mutate(input, {
      onSuccess: () => {
        toast.success({ title: CHEQUE_TEXTS.title, description: CHEQUE_TEXTS.done[input.action] });
        onDone?.();
      },
      onError: (error) => toast.error({ title: CHEQUE_TEXTS.title, description: refusalMessage(error, CHEQUE_TEXTS.failed) }),
    });

  const exportExcel = () =>
    void downloadFile(`${PATHS.cheques}.xlsx${search({ ...filters })}`, 'cheques.xlsx').catch((error: unknown) =>
      toast.error({ title: CHEQUE_TEXTS.title, description: refusalMessage(error, REGISTER_TEXTS.exportFailed) }),
    );

  return (
    <Card>
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle level={2}>{CHEQUE_TEXTS.title}</CardTitle>
          <CardDescription>{CHEQUE_TEXTS.description}</CardDescription>
        </div>
        <Button variant="outline" size="sm" className="self-start" onClick={exportExcel}>
          <FileSpreadsheetIcon />
          {CHEQUE_TEXTS.exportExcel}
        </Button>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-3 sm:grid-cols-3 lg:max-w-3xl">
          <Field label="Status" htmlFor="cheque-status">
            <NativeSelect id="cheque-status" value={filters.status ?? ''} onChange={(e) => setFilters((f) => ({ ...f, status: e.target.value || undefined }))}>
              <option value="">{CHEQUE_TEXTS.all}</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {CHEQUE_TEXTS.status[s]}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <DateRange id="cheques" from={filters.from} to={filters.to} onChange={(r) => setFilters((f) => ({ ...f, ...r }))} />
        </div>
        {cheques.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner />
          </div>
        ) : cheques.isError ? (
          <LoadFailedAlert message={refusalMessage(cheques.error, CHEQUE_TEXTS.loadFailed)} onRetry={() => cheques.refetch()} />
        ) : cheques.data.length === 0 ? (
          <p className="py-4 text-center text-sm text-muted-foreground">{CHEQUE_TEXTS.empty}</p>
        ) : (
          <ul className="grid gap-2" aria-label={CHEQUE_TEXTS.title}>
            {cheques.data.map((c) => (
              <li
                key={c.receiptId}
                aria-label={`${CHEQUE_TEXTS.cheque} ${c.chequeNumber ?? c.receiptNumber}`}
                className={cn('grid gap-2 rounded-lg border p-3 md:grid-cols-[minmax(0,1fr)_auto] md:items-center', c.status === 'bounced' && 'bg-destructive/5')}
              >
                <div className="grid min-w-0 gap-1 text-sm">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-mono font-semibold">
                      {CHEQUE_TEXTS.cheque} {c.chequeNumber}
                    </span>
                    <span className="font-semibold tabular-nums">{rupees(c.amount)}</span>
                    <Badge variant={STATUS_VARIANT[c.status]}>{CHEQUE_TEXTS.status[c.status]}</Badge>
                  </div>
                  <p className="text-muted-foreground">
                    {c.bankName ? `${c.bankName} · ` : ''}
                    {c.studentName} ({c.className}) · {CHEQUE_TEXTS.receipt} {c.receiptNumber} · {CHEQUE_TEXTS.received} {formatDate(c.receiptDate)} · {c.collectedBy}
                    {c.depositedOn ? ` · ${CHEQUE_TEXTS.status.deposited} ${formatDate(c.depositedOn)}` : ''}
                    {c.clearedOn ? ` · ${CHEQUE_TEXTS.status.cleared} ${formatDate(c.clearedOn)}` : ''}
                  </p>
                  {c.status === 'bounced' ? (
                    <p className="text-xs font-medium text-destructive">
                      {c.bouncedOn ? `${formatDate(c.bouncedOn)}: ` : ''}
                      {c.bounceReason}
                      {c.bankCharges ? ` · ${CHEQUE_TEXTS.charges} ${rupees(c.bankCharges)}` : ''}
                    </p>
                  ) : null}
                </div>
                <div className="flex flex-wrap gap-2">
                  {c.status === 'in_hand' ? (
                    <Button size="sm" variant="outline" disabled={act.isPending} onClick={() => run({ receiptId: c.receiptId, action: 'deposited' })}>
                      {CHEQUE_TEXTS.deposit}
                    </Button>
                  ) : null}
                  {c.status === 'deposited' ? (
                    <Button size="sm" variant="outline" disabled={act.isPending} onClick={() => run({ receiptId: c.receiptId, action: 'cleared' })}>
                      {CHEQUE_TEXTS.clear}
                    </Button>
                  ) : null}
                  {c.status === 'in_hand' || c.status === 'deposited' ? (
                    <Button size="sm" variant="outline" className="text-destructive" disabled={act.isPending} onClick={() => setBouncing(c)}>
                      {CHEQUE_TEXTS.bounce}
                    </Button>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <BounceDialog cheque={bouncing} busy={act.isPending} onClose={() => setBouncing(null)} onBounce={(input) => run(input, () => setBouncing(null))} />
    </Card>
  );
}

function BounceDialog({ cheque, busy, onClose, onBounce }: { cheque: Cheque | null; busy: boolean; onClose: () => void; onBounce: (input: ChequeAction) => void }) {
  const [reason, setReason] = useState('');
  const [charges, setCharges] = useState('');
  const [errors, setErrors] = useState<{ reason?: string; charges?: string }>({});

  const close = () => {
    setReason('');
    setCharges('');
    setErrors({});
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!cheque) return;
    const next: typeof errors = {};
    if (!reason.trim()) next.reason = CHEQUE_TEXTS.reasonRequired;
    const reading = readAmount(charges);
    if (!reading.ok) next.charges = amountProblemMessage('Bank charges', reading.problem);
    setErrors(next);
    if (next.reason || next.charges) return;
    onBounce({ receiptId: cheque.receiptId, action: 'bounced', reason: reason.trim(), ...(charges.trim() ? { bankCharges: charges.trim() } : {}) });
  };

  return (
    <Dialog open={cheque !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>{cheque ? CHEQUE_TEXTS.bounceTitle(cheque.chequeNumber ?? cheque.receiptNumber) : ''}</DialogTitle>
          <DialogDescription>{CHEQUE_TEXTS.bounceDescription}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <Field label={CHEQUE_TEXTS.reason} htmlFor="bounce-reason" error={errors.reason}>
            <Textarea id="bounce-reason" rows={2} maxLength={500} value={reason} aria-invalid={errors.reason ? true : undefined} onChange={(e) => setReason(e.target.value)} />
          </Field>
          <Field label={CHEQUE_TEXTS.bankCharges} htmlFor="bounce-charges" error={errors.charges}>
            <AmountInput id="bounce-charges" value={charges} aria-invalid={errors.charges ? true : undefined} onChange={(e) => setCharges(e.target.value)} />
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={busy}>
              {CHEQUE_TEXTS.markBounced}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
