import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRoundIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { changePasswordFormSchema } from '@/domain/auth';
import { PasswordStrengthMeter } from '@/web/components/password-strength-meter';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Field } from '@/web/components/ui/label';
import { PasswordInput } from '@/web/components/ui/password-input';
import { refusalMessage, serverFieldErrors } from '@/web/lib/form-errors';
import { useChangePassword } from './api';
import { SETTINGS_TEXTS } from './texts';

type Values = z.infer<typeof changePasswordFormSchema>;
const FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const;
const EMPTY: Values = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function ChangePasswordCard() {
  const mutation = useChangePassword();
  const form = useForm<Values>({ resolver: zodResolver(changePasswordFormSchema), defaultValues: EMPTY });
  const errors = form.formState.errors;
  const newPassword = form.watch('newPassword');

  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword: next }) => {
    try {
      await mutation.mutateAsync({ currentPassword, newPassword: next });
      form.reset(EMPTY);
      toast.success({ title: 'Password Updated Successfully', description: 'Your account password has been changed securely.' });
    } catch (error) {
      for (const [name, message] of serverFieldErrors(error, FIELDS)) form.setError(name, { message });
      toast.error({ title: 'Password Change Failed', description: refusalMessage(error, 'Unable to change password. Please try again.') });
    }
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle level={2} className="flex items-center gap-2">
          <KeyRoundIcon className="size-5 text-primary" />
          Change Password
        </CardTitle>
        <CardDescription>{SETTINGS_TEXTS.passwordDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} className="grid gap-4" noValidate aria-label="Change Password">
          <Field label="Current password" htmlFor="currentPassword" error={errors.currentPassword?.message}>
            <PasswordInput id="currentPassword" autoComplete="current-password" aria-invalid={Boolean(errors.currentPassword)} {...form.register('currentPassword')} />
          </Field>
          <Field label="New password" htmlFor="newPassword" error={errors.newPassword?.message}>
            <PasswordInput id="newPassword" autoComplete="new-password" aria-invalid={Boolean(errors.newPassword)} {...form.register('newPassword')} />
          </Field>
          <PasswordStrengthMeter password={newPassword} />
          <Field label="Confirm new password" htmlFor="confirmPassword" error={errors.confirmPassword?.message}>
            <PasswordInput id="confirmPassword" autoComplete="new-password" aria-invalid={Boolean(errors.confirmPassword)} {...form.register('confirmPassword')} />
          </Field>
          <Button type="submit" disabled={mutation.isPending} className="w-full sm:w-auto sm:justify-self-start">
            {mutation.isPending ? 'Updating Password...' : 'Update Password'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
