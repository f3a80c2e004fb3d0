import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CopyIcon, IndianRupeeIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { toast } from '@/web/components/toaster';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { PasswordInput } from '@/web/components/ui/password-input';
import { Spinner } from '@/web/components/ui/spinner';
import { refusalMessage, serverFieldErrors } from '@/web/lib/form-errors';
import { api } from '@/web/lib/request';
import { ONLINE_PAYMENTS_TEXTS as T } from './texts';

/** GET|PUT /api/settings/payments (the payment-links contract). Secrets are write-only. */
const settingsSchema = z.object({
  razorpayKeyId: z.string().nullable(),
  razorpayKeySecretSet: z.boolean(),
  webhookSecretSet: z.boolean(),
  upiVpa: z.string().nullable(),
  upiPayeeName: z.string().nullable(),
  collectsThrough: z.enum(['razorpay', 'sandbox', 'upi', 'none']),
  webhookUrl: z.string(),
});
type PaymentSettings = z.infer<typeof settingsSchema>;
const PATH = '/api/settings/payments';

const secret = z
  .string()
  .trim()
  .refine((s) => s === '' || s.length >= 8, T.secretShort)
  .refine((s) => s.length <= 100, T.secretLong)
  .refine((s) => !/\s/.test(s), T.secretSpaces);

/** The form's rule; the server checks the same and answers 400 with the field. */
export const onlinePaymentsSchema = z
  .object({
    razorpayKeyId: z
      .string()
      .trim()
      .refine((s) => s === '' || /^rzp_(live|test)_[A-Za-z0-9]{6,40}$/.test(s), T.keyIdFormat),
    razorpayKeySecret: secret,
    razorpayWebhookSecret: secret,
    upiVpa: z
      .string()
      .trim()
      .refine((s) => s === '' || /^[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9.-]{1,63}$/.test(s), T.vpaFormat),
    upiPayeeName: z.string().trim().max(100, T.payeeLong),
  })
  .superRefine((v, ctx) => {
    if (v.upiVpa && !v.upiPayeeName) ctx.addIssue({ code: 'custom', path: ['upiPayeeName'], message: T.payeeRequired });
  });
type FormValues = z.input<typeof onlinePaymentsSchema>;
const FIELDS = ['razorpayKeyId', 'razorpayKeySecret', 'razorpayWebhookSecret', 'upiVpa', 'upiPayeeName'] as const;

const valuesOf = (s: PaymentSettings): FormValues => ({
  razorpayKeyId: s.razorpayKeyId ?? '',
  razorpayKeySecret: '',
  razorpayWebhookSecret: '',
  upiVpa: s.upiVpa ?? '',
  upiPayeeName: s.upiPayeeName ?? '',
});

/** Settings → Online payments (issue 13 item 1): only the school administrator sees it. */
export function OnlinePaymentsCard() {
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: [PATH], queryFn: async () => settingsSchema.parse(await api.get(PATH)) });
  const save = useMutation({
    mutationFn: async (body: Record<string, string>) => settingsSchema.parse(await api.put(PATH, body)),
    onSuccess: (data) => queryClient.setQueryData([PATH], data),
  });
  // a saved secret is removed only when asked: blank means "keep"
  const [clearing, setClearing] = useState<{ key: boolean; webhook: boolean }>({ key: false, webhook: false });
  const form = useForm<FormValues, unknown, z.output<typeof onlinePaymentsSchema>>({ resolver: zodResolver(onlinePaymentsSchema), defaultValues: valuesOf({} as PaymentSettings) });
  const errors = form.formState.errors;
  const loaded = settings.data;
  useEffect(() => {
    if (loaded) form.reset(valuesOf(loaded));
  }, [loaded, form]);

  const onSubmit = form.handleSubmit(async (v) => {
    if (!loaded) return;
    const body: Record<string, string> = { razorpayKeyId: v.razorpayKeyId, upiVpa: v.upiVpa, upiPayeeName: v.upiPayeeName };
    if (v.razorpayKeySecret || clearing.key) body.razorpayKeySecret = clearing.key ? '' : v.razorpayKeySecret;
    if (v.razorpayWebhookSecret || clearing.webhook) body.razorpayWebhookSecret = clearing.webhook ? '' : v.razorpayWebhookSecret;
    // a key id without any secret would be a gateway that cannot take a payment
    if (v.razorpayKeyId && !v.razorpayKeySecret && (!loaded.razorpayKeySecretSet || clearing.key)) {
      form.setError('razorpayKeySecret', { message: T.keysTogether });
      return;
    }
    try {
      const next = await save.mutateAsync(body);
      form.reset(valuesOf(next));
      setClearing({ key: false, webhook: false });
      toast.success({ title: T.success });
    } catch (error) {
      for (const [name, message] of serverFieldErrors(error, FIELDS)) form.setError(name, { message });
      toast.error({ title: T.failed, description: refusalMessage(error, T.failedFallback) });
    }
  });

  const copyWebhook = async () => {
    if (!loaded) return;
    try {
      await navigator.clipboard.writeText(loaded.webhookUrl);
      toast.success({ title: T.copied });
    } catch {
      // the field is selectable: the person copies by hand
    }
  };

  return (
    <Card role="region" aria-label={T.title}>
      <CardHeader>
        <CardTitle level={2} className="flex items-center gap-2">
          <IndianRupeeIcon className="size-5 text-primary" />
          {T.title}
        </CardTitle>
        <CardDescription>{T.description}</CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner />
          </div>
        ) : settings.isError ? (
          <LoadFailedAlert message={refusalMessage(settings.error, T.loadFailed)} onRetry={() => settings.refetch()} />
        ) : (
          <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2" aria-label={T.title}>
            <div className="flex flex-wrap items-center gap-2 sm:col-span-2">
              <span className="text-sm text-muted-foreground">{T.collectsThrough}:</span>
              <Badge variant={settings.data.collectsThrough === 'none' ? 'destructive' : settings.data.collectsThrough === 'sandbox' ? 'warning' : 'success'} data-testid="collects-through">
                {T.through[settings.data.collectsThrough]}
              </Badge>
            </div>
            <Field label={T.keyId} htmlFor="rzpKeyId" error={errors.razorpayKeyId?.message} hint={T.keyIdHint} className="content-start">
              <Input id="rzpKeyId" autoComplete="off" spellCheck={false} placeholder="rzp_live_…" aria-invalid={Boolean(errors.razorpayKeyId)} {...form.register('razorpayKeyId')} />
            </Field>
            <SecretField
              id="rzpKeySecret"
              label={T.keySecret}
              saved={settings.data.razorpayKeySecretSet}
              clearing={clearing.key}
              onClear={() => setClearing((c) => ({ ...c, key: !c.key }))}
              error={errors.razorpayKeySecret?.message}
              input={form.register('razorpayKeySecret')}
            />
            <SecretField
              id="rzpWebhookSecret"
              label={T.webhookSecret}
              saved={settings.data.webhookSecretSet}
              clearing={clearing.webhook}
              onClear={() => setClearing((c) => ({ ...c, webhook: !c.webhook }))}
              error={errors.razorpayWebhookSecret?.message}
              input={form.register('razorpayWebhookSecret')}
            />
            <Field label={T.webhookUrl} htmlFor="webhookUrl" hint={T.webhookHint} className="content-start">
              <div className="flex gap-2">
                <Input id="webhookUrl" readOnly value={settings.data.webhookUrl} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
                <Button type="button" variant="outline" onClick={() => void copyWebhook()} aria-label={T.copy}>
                  <CopyIcon />
                </Button>
              </div>
            </Field>
            <Field label={T.upiVpa} htmlFor="upiVpa" error={errors.upiVpa?.message} hint={T.upiVpaHint} className="content-start">
              <Input id="upiVpa" autoComplete="off" spellCheck={false} placeholder="school@okaxis" aria-invalid={Boolean(errors.upiVpa)} {...form.register('upiVpa')} />
            </Field>
            <Field label={T.payeeName} htmlFor="upiPayeeName" error={errors.upiPayeeName?.message} hint={T.payeeHint} className="content-start">
              <Input id="upiPayeeName" autoComplete="off" aria-invalid={Boolean(errors.upiPayeeName)} {...form.register('upiPayeeName')} />
            </Field>
            <Button type="submit" disabled={save.isPending} className="w-full sm:col-span-2 sm:w-auto sm:justify-self-start">
              {save.isPending ? T.saving : T.save}
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}

function SecretField({
  id,
  label,
  saved,
  clearing,
  onClear,
  error,
  input,
}: {
  id: string;
  label: string;
  saved: boolean;
  clearing: boolean;
  onClear: () => void;
  error: string | undefined;
  input: ReturnType<ReturnType<typeof useForm<FormValues>>['register']>;
}) {
  return (
    <Field
      label={
        <span className="flex items-center gap-2">
          {label}
          {saved ? <Badge variant={clearing ? 'destructive' : 'secondary'}>{clearing ? T.willClear : T.saved}</Badge> : null}
        </span>
      }
      htmlFor={id}
      error={error}
      hint={saved ? T.secretHint : undefined}
      className="content-start"
    >
      <div className="flex gap-2">
        <PasswordInput id={id} autoComplete="new-password" spellCheck={false} placeholder={saved ? '••••••••' : ''} disabled={clearing} aria-invalid={Boolean(error)} {...input} />
        {saved ? (
          <Button type="button" variant="outline" onClick={onClear}>
            {T.clear}
          </Button>
        ) : null}
      </div>
    </Field>
  );
}
