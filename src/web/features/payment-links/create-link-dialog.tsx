import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2Icon, CopyIcon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { toast } from '@/web/components/toaster';
import { AmountInput } from '@/web/components/ui/amount-input';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { formatLongDate, rupees } from '@/web/lib/format';
import { refusalMessage, serverFieldErrors } from '@/web/lib/form-errors';
import { useCreateLink, type CreatedLink } from './api';
import { createLinkSchema, dueOf, wireAmount, type CreateLinkForm, type FeeChoice } from './fee-options';
import { absoluteUrl, copyLink } from './link-parts';
import { LINK_TEXTS } from './texts';

const amountOf = (due: string | null) => (due ? due.replace(/\.00$/, '') : '');

/** Create a link for one fee of one student; the amount starts at what is due (ruling 26). */
export function CreateLinkDialog({
  open,
  onOpenChange,
  studentId,
  studentName,
  choices,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  studentId: string;
  studentName: string;
  choices: FeeChoice[];
}) {
  const create = useCreateLink();
  const [created, setCreated] = useState<CreatedLink | null>(null);
  const first = choices[0];
  const initial = (): CreateLinkForm => {
    const month = first?.months[0]?.key ?? '';
    return { feeType: first?.feeType ?? 'outstanding', feeMonth: month, amount: first?.feeType === 'outstanding' ? '' : amountOf(dueOf(first, month)), expiresInDays: '15', description: '' };
  };
  const form = useForm<CreateLinkForm, unknown, z.output<typeof createLinkSchema>>({ resolver: zodResolver(createLinkSchema), defaultValues: initial() });
  const errors = form.formState.errors;
  const feeType = form.watch('feeType');
  const feeMonth = form.watch('feeMonth');
  const choice = choices.find((c) => c.feeType === feeType);
  const due = dueOf(choice, feeMonth);

  const close = (next: boolean) => {
    if (!next) {
      setCreated(null);
      form.reset(initial());
    }
    onOpenChange(next);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    const amount = wireAmount(values.amount);
    try {
      const link = await create.mutateAsync({
        studentId,
        feeType: values.feeType,
        ...(values.feeType === 'tuition' || values.feeType === 'bus' ? { feeMonth: values.feeMonth } : {}),
        ...(amount ? { amount } : {}),
        ...(values.description ? { description: values.description } : {}),
        expiresInDays: Number(values.expiresInDays),
      });
      setCreated(link);
    } catch (error) {
      for (const [name, message] of serverFieldErrors(error, ['amount', 'feeMonth', 'feeType', 'expiresInDays', 'description'] as const)) form.setError(name, { message });
      toast.error({ title: LINK_TEXTS.createFailed, description: refusalMessage(error, LINK_TEXTS.createFailed) });
    }
  });

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        {created ? (
          <>
            <DialogHeader>
              <DialogTitle className="flex items-center gap-2">
                <CheckCircle2Icon className="size-5 text-success" />
                {LINK_TEXTS.createdTitle}
              </DialogTitle>
              <DialogDescription>{LINK_TEXTS.createdBody(rupees(created.amount), formatLongDate(created.expiresAt))}</DialogDescription>
            </DialogHeader>
            <Input readOnly value={absoluteUrl(created.url)} aria-label="Payment link" data-testid="created-link" onFocus={(e) => e.currentTarget.select()} />
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)}>
                {LINK_TEXTS.close}
              </Button>
              <Button onClick={() => void copyLink(created.url)}>
                <CopyIcon />
                {LINK_TEXTS.copy}
              </Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label={LINK_TEXTS.dialogTitle}>
            <DialogHeader>
              <DialogTitle>{LINK_TEXTS.dialogTitle}</DialogTitle>
              <DialogDescription>{LINK_TEXTS.dialogDescription(studentName)}</DialogDescription>
            </DialogHeader>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label={LINK_TEXTS.feeType} htmlFor="linkFeeType" error={errors.feeType?.message}>
                <NativeSelect
                  id="linkFeeType"
                  {...form.register('feeType', {
                    onChange: (e: { target: { value: string } }) => {
                      const next = choices.find((c) => c.feeType === e.target.value);
                      const month = next?.months[0]?.key ?? '';
                      form.setValue('feeMonth', month);
                      form.setValue('amount', next?.feeType === 'outstanding' ? '' : amountOf(dueOf(next, month)));
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
                <Field label={LINK_TEXTS.month} htmlFor="linkFeeMonth" error={errors.feeMonth?.message}>
                  <NativeSelect
                    id="linkFeeMonth"
                    {...form.register('feeMonth', { onChange: (e: { target: { value: string } }) => form.setValue('amount', amountOf(dueOf(choice, e.target.value))) })}
                  >
                    {choice.months.map((m) => (
                      <option key={m.key} value={m.key}>
                        {m.label}
                      </option>
                    ))}
                  </NativeSelect>
                </Field>
              ) : null}
              <Field
                label={LINK_TEXTS.amount}
                htmlFor="linkAmount"
                error={errors.amount?.message}
                hint={feeType === 'outstanding' ? LINK_TEXTS.outstandingHint : due ? LINK_TEXTS.amountHint(rupees(due)) : undefined}
              >
                <AmountInput id="linkAmount" placeholder={due ? amountOf(due) : ''} aria-invalid={Boolean(errors.amount)} {...form.register('amount')} />
              </Field>
              <Field label={LINK_TEXTS.expires} htmlFor="linkExpires" error={errors.expiresInDays?.message} hint={LINK_TEXTS.expiresHint}>
                <Input id="linkExpires" inputMode="numeric" maxLength={3} aria-invalid={Boolean(errors.expiresInDays)} {...form.register('expiresInDays')} />
              </Field>
              <Field label={LINK_TEXTS.description} htmlFor="linkDescription" error={errors.description?.message} className="sm:col-span-2">
                <Input id="linkDescription" maxLength={200} {...form.register('description')} />
              </Field>
            </div>
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)}>
                {LINK_TEXTS.close}
              </Button>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? LINK_TEXTS.creating : LINK_TEXTS.save}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
