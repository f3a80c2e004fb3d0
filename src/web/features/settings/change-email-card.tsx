import { zodResolver } from '@hookform/resolvers/zod';
import { MailIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { changeEmailSchema } from '@/domain/auth';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { PasswordInput } from '@/web/components/ui/password-input';
import { refusalMessage, serverFieldErrors } from '@/web/lib/form-errors';
import { useChangeEmail } from './api';
import { SETTINGS_TEXTS } from './texts';

type Values = z.input<typeof changeEmailSchema>;
const FIELDS = ['newEmail', 'password'] as const;

export function ChangeEmailCard({ currentEmail }: { currentEmail: string }) {
  const mutation = useChangeEmail();
  const [sent, setSent] = useState<string | null>(null);
  // the shared schema plus the one rule that needs the signed-in user's address
  const schema = useMemo(
    () =>
      changeEmailSchema.refine((v) => v.newEmail !== currentEmail.toLowerCase(), {
        message: 'New email must be different from current email',
        path: ['newEmail'],
      }),
    [currentEmail],
  );
  const form = useForm<Values, unknown, z.output<typeof changeEmailSchema>>({ resolver: zodResolver(schema), defaultValues: { newEmail: '', password: '' } });
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await mutation.mutateAsync(values);
      // operations §4: the email form keeps the new address and clears the password
      form.reset({ newEmail: values.newEmail, password: '' });
      setSent(answer.message);
      toast.success({ title: SETTINGS_TEXTS.emailSentToast, description: answer.message });
    } catch (error) {
      setSent(null);
      for (const [name, message] of serverFieldErrors(error, FIELDS)) form.setError(name, { message });
      toast.error({ title: SETTINGS_TEXTS.emailFailedToast, description: refusalMessage(error, SETTINGS_TEXTS.emailFailed) });
    }
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle level={2} className="flex items-center gap-2">
          <MailIcon className="size-5 text-primary" />
          Change Email Address
        </CardTitle>
        <CardDescription>{SETTINGS_TEXTS.emailDescription}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {sent ? (
          <Alert variant="info">
            <MailIcon />
            <AlertTitle>{SETTINGS_TEXTS.emailSentTitle}</AlertTitle>
            <AlertDescription>{sent}</AlertDescription>
          </Alert>
        ) : null}
        <form onSubmit={onSubmit} className="grid gap-4" noValidate aria-label="Change Email Address">
          <Field label="New email address" htmlFor="newEmail" error={errors.newEmail?.message}>
            <Input id="newEmail" type="email" autoComplete="email" placeholder="office@school.in" aria-invalid={Boolean(errors.newEmail)} {...form.register('newEmail')} />
          </Field>
          <Field label="Current password" htmlFor="emailPassword" error={errors.password?.message}>
            <PasswordInput id="emailPassword" autoComplete="current-password" aria-invalid={Boolean(errors.password)} {...form.register('password')} />
          </Field>
          <Button type="submit" disabled={mutation.isPending} className="w-full sm:w-auto sm:justify-self-start">
            {mutation.isPending ? 'Updating Email...' : 'Update Email'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
