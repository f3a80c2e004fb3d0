import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { parseRupees, toRupeeString, ZERO, type Paise } from '@/domain/money';
import { toast } from '@/web/components/toaster';
import { AmountInput } from '@/web/components/ui/amount-input';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { NativeSelect, Textarea } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { formatDate, rupees } from '@/web/lib/format';
import { refusalMessage } from '@/web/lib/form-errors';
import { creditQuery, useCreditActions } from './api';
import { useClientId } from '@/web/lib/use-client-id';
import { applyCreditSchema, dueOf, refundCreditSchema, wireAmount, type FeeChoice } from './fee-options';
import { CREDIT_KIND_LABELS, CREDIT_TEXTS, LINK_TEXTS, REFUND_MODES } from './texts';

/** A student's credit (ruling 27): shown only when there is or was some, with apply and refund. */
export function CreditCard({ studentId, choices }: { studentId: string; choices: FeeChoice[] }) {
  const credit = useQuery(creditQuery(studentId));
  const [dialog, setDialog] = useState<'apply' | 'refund' | null>(null);
  if (!credit.isSuccess) return null;
  const balance = parseRupees(credit.data.balance) ?? ZERO;
  if (balance <= 0 && credit.data.entries.length === 0) return null;
  return (
    <Card role="region" aria-label={CREDIT_TEXTS.title} className="min-w-0">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 pb-3">
        <div className="grid gap-1">
          <CardTitle className="text-base">{CREDIT_TEXTS.title}</CardTitle>
          <CardDescription>{CREDIT_TEXTS.description}</CardDescription>
        </div>
        <div className="text-right">
          <p className="text-xs text-muted-foreground">{CREDIT_TEXTS.balance}</p>
          <p className="text-lg font-semibold tabular-nums text-success" data-testid="credit-balance">
            {rupees(credit.data.balance)}
          </p>
        </div>
      </CardHeader>
      <CardContent className="grid gap-3">
        <ul className="grid gap-1 text-sm">
          {credit.data.entries.map((e) => (
            <li key={e.id} className="flex flex-wrap justify-between gap-x-3 border-b border-dashed pb-1 last:border-0">
              <span>
                {formatDate(e.at)} · {CREDIT_KIND_LABELS[e.kind]}
                {e.receiptNumber ? ` · ${e.receiptNumber}` : ''}
                {e.reason ? <span className="block text-xs text-muted-foreground">{e.reason}</span> : null}
              </span>
              <span className="tabular-nums">{rupees(e.amount)}</span>
            </li>
          ))}
        </ul>
        {balance > 0 ? (
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => setDialog('apply')} disabled={choices.length === 0}>
              {CREDIT_TEXTS.apply}
            </Button>
            <Button variant="outline" onClick={() => setDialog('refund')}>
              {CREDIT_TEXTS.refund}
            </Button>
          </div>
        ) : null}
      </CardContent>
      {dialog === 'apply' ? <ApplyDialog studentId={studentId} balance={balance} choices={choices} onClose={() => setDialog(null)} /> : null}
      {dialog === 'refund' ? <RefundDialog studentId={studentId} balance={balance} onClose={() => setDialog(null)} /> : null}
    </Card>
  );
}

const smaller = (a: string | null, b: Paise) => {
  const due = a ? (parseRupees(a) ?? ZERO) : b;
  return rupeesPlain(due < b ? due : b);
};
const rupeesPlain = (value: Paise) => toRupeeString(value).replace(/\.00$/, '');

function ApplyDialog({ studentId, balance, choices, onClose }: { studentId: string; balance: Paise; choices: FeeChoice[]; onClose: () => void }) {
  const { apply } = useCreditActions(studentId);
  const clientId = useClientId();
  const first = choices[0];
  const firstMonth = first?.months[0]?.key ?? '';
  const schema = applyCreditSchema(balance);
  const form = useForm({ resolver: zodResolver(schema), defaultValues: { feeType: first?.feeType ?? '', feeMonth: firstMonth, amount: smaller(dueOf(first, firstMonth), balance) } });
  const errors = form.formState.errors;
  const choice = choices.find((c) => c.feeType === form.watch('feeType'));
  const onSubmit = form.handleSubmit(async (v) => {
    try {
      const body = { feeType: v.feeType, ...(choice && choice.months.length > 0 ? { feeMonth: v.feeMonth } : {}), amount: wireAmount(v.amount) ?? '0' };
      const answer = await clientId.send(body, (keyed) => apply.mutateAsync(keyed));
      toast.success({ title: CREDIT_TEXTS.applied(answer.receiptNumber) });
      onClose();
    } catch (error) {
      toast.error({ title: CREDIT_TEXTS.failed, description: refusalMessage(error, CREDIT_TEXTS.failed) });
    }
  });
  return (
    <Dialog open onOpenChange={(o) => (o ? undefined : onClose())}>
      <DialogContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label={CREDIT_TEXTS.applyTitle}>
          <DialogHeader>
            <DialogTitle>{CREDIT_TEXTS.applyTitle}</DialogTitle>
            <DialogDescription>{CREDIT_TEXTS.applyDescription(rupees(rupeesPlain(balance)))}</DialogDescription>
          </DialogHeader>
          <Field label={LINK_TEXTS.feeType} htmlFor="creditFeeType">
            <NativeSelect
              id="creditFeeType"
              {...form.register('feeType', {
                onChange: (e: { target: { value: string } }) => {
                  const next = choices.find((c) => c.feeType === e.target.value);
                  const month = next?.months[0]?.key ?? '';
                  form.setValue('feeMonth', month);
                  form.setValue('amount', smaller(dueOf(next, month), balance));
                },
              })}
            >
              {choices.map((c) => (
                <option key={c.feeType} value={c.feeType}>
                  {c.label}
                </option>
              ))}
            </NativeSelect>
          </Field>
          {choice && choice.months.length > 0 ? (
            <Field label={LINK_TEXTS.month} htmlFor="creditFeeMonth" error={errors.feeMonth?.message}>
              <NativeSelect id="creditFeeMonth" {...form.register('feeMonth', { onChange: (e: { target: { value: string } }) => form.setValue('amount', smaller(dueOf(choice, e.target.value), balance)) })}>
                {choice.months.map((m) => (
                  <option key={m.key} value={m.key}>
                    {m.label}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          ) : null}
          <Field label={LINK_TEXTS.amount} htmlFor="creditAmount" error={errors.amount?.message}>
            <AmountInput id="creditAmount" aria-invalid={Boolean(errors.amount)} {...form.register('amount')} />
          </Field>
          <DialogFooter>
            <Button variant="outline" onClick={onClose}>
              {LINK_TEXTS.close}
            </Button>
            <Button type="submit" disabled={apply.isPending}>
              {CREDIT_TEXTS.apply}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function RefundDialog({ studentId, balance, onClose }: { studentId: string; balance: Paise; onClose: () => void }) {
  const { refund } = useCreditActions(studentId);
  const clientId = useClientId();
  const form = useForm({ resolver: zodResolver(refundCreditSchema(balance)), defaultValues: { amount: rupeesPlain(balance), mode: 'cash' as const, reason: '' } });
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (v) => {
    try {
      const body = { amount: wireAmount(v.amount) ?? '0', mode: v.mode, reason: v.reason };
      await clientId.send(body, (keyed) => refund.mutateAsync(keyed));
      toast.success({ title: CREDIT_TEXTS.refunded });
      onClose();
    } catch (error) {
      toast.error({ title: CREDIT_TEXTS.failed, description: refusalMessage(error, CREDIT_TEXTS.failed) });
    }
  });
  return (
    <Dialog open onOpenChange={(o) => (o ? undefined : onClose())}>
      <DialogContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label={CREDIT_TEXTS.refundTitle}>
          <DialogHeader>
            <DialogTitle>{CREDIT_TEXTS.refundTitle}</DialogTitle>
            <DialogDescription>{CREDIT_TEXTS.refundDescription(rupees(rupeesPlain(balance)))}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label={LINK_TEXTS.amount} htmlFor="refundAmount" error={errors.amount?.message}>
              <AmountInput id="refundAmount" aria-invalid={Boolean(errors.amount)} {...form.register('amount')} />
            </Field>
            <Field label={CREDIT_TEXTS.mode} htmlFor="refundMode">
              <NativeSelect id="refundMode" {...form.register('mode')}>
                {Object.entries(REFUND_MODES).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          </div>
          <Field label={CREDIT_TEXTS.reason} htmlFor="refundReason" error={errors.reason?.message}>
            <Textarea id="refundReason" rows={2} maxLength={300} aria-invalid={Boolean(errors.reason)} {...form.register('reason')} />
          </Field>
          <DialogFooter>
            <Button variant="outline" onClick={onClose}>
              {LINK_TEXTS.close}
            </Button>
            <Button type="submit" disabled={refund.isPending}>
              {CREDIT_TEXTS.refund}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
