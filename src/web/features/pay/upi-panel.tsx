import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { SmartphoneIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { refusalMessage } from '@/web/lib/form-errors';
import { payApi, upiReferenceSchema, type PayMethods, type UpiReferenceInput } from './api';
import { Bi } from './pay-parts';
import { both, PAY_LABELS, PAY_TEXTS } from './texts';
import { UpiQr } from './upi-qr';

/**
 * Direct UPI (issue 13 item 5): the school's VPA as a QR and an intent link for the UPI app on
 * this phone; afterwards the parent types the UTR, and the payment waits for the clerk.
 */
export function UpiPanel({ token, upi, onSubmitted }: { token: string; upi: NonNullable<PayMethods['upi']>; onSubmitted: () => void }) {
  const form = useForm<UpiReferenceInput, unknown, z.output<typeof upiReferenceSchema>>({
    resolver: zodResolver(upiReferenceSchema),
    defaultValues: { upiReference: '', payerName: '' },
  });
  const send = useMutation({ mutationFn: (body: z.output<typeof upiReferenceSchema>) => payApi.upiReference(token, { upiReference: body.upiReference, ...(body.payerName ? { payerName: body.payerName } : {}) }) });
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await send.mutateAsync(values);
      onSubmitted();
    } catch (error) {
      toast.error({ title: PAY_TEXTS.referenceFailed, description: refusalMessage(error, PAY_TEXTS.fetchFailed) });
    }
  });

  return (
    <section aria-label="Pay by UPI" className="grid gap-4">
      <div className="grid justify-items-center gap-2 text-center">
        <UpiQr value={upi.intentUrl} label={`UPI QR code for ${upi.vpa}`} className="size-52 rounded-lg border bg-white p-1" />
        <Bi text={PAY_LABELS.scanQr} className="text-sm font-medium" />
        <p className="text-sm">
          <span className="text-muted-foreground">{both(PAY_LABELS.upiId)}: </span>
          <span className="font-mono font-medium" data-testid="upi-vpa">
            {upi.vpa}
          </span>
          {upi.payeeName ? <span className="block text-muted-foreground">{upi.payeeName}</span> : null}
        </p>
      </div>
      <Button asChild variant="outline" size="lg" className="h-auto min-h-12 w-full whitespace-normal py-2 text-center text-base">
        <a href={upi.intentUrl} data-testid="upi-intent">
          <SmartphoneIcon />
          {both(PAY_LABELS.payByUpiApp)}
        </a>
      </Button>
      <form onSubmit={onSubmit} noValidate className="grid gap-3 rounded-xl border p-4" aria-label="UPI reference">
        <Bi text={PAY_TEXTS.upiSteps} className="text-sm" />
        <Field label={both(PAY_LABELS.upiReference)} htmlFor="upiReference" error={errors.upiReference?.message}>
          <Input
            id="upiReference"
            inputMode="numeric"
            autoComplete="off"
            maxLength={16}
            placeholder="123456789012"
            className="h-12 text-lg tracking-wider"
            aria-invalid={Boolean(errors.upiReference)}
            {...form.register('upiReference')}
          />
        </Field>
        <Field label={both(PAY_LABELS.payerName)} htmlFor="payerName" error={errors.payerName?.message}>
          <Input id="payerName" autoComplete="name" className="h-12" {...form.register('payerName')} />
        </Field>
        <Button type="submit" size="lg" className="h-auto min-h-12 w-full whitespace-normal py-2 text-center text-base" disabled={send.isPending}>
          {both(PAY_LABELS.sendReference)}
        </Button>
      </form>
    </section>
  );
}
