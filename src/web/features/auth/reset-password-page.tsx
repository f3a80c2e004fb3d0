import { CheckCircle2Icon, CheckIcon, CircleIcon } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { isCommonPassword, MIN_PASSWORD_LENGTH, resetPasswordFormSchema } from '@/domain/auth';
import { AuthLayout } from '@/web/components/auth-layout';
import { PasswordStrengthMeter } from '@/web/components/password-strength-meter';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Field } from '@/web/components/ui/label';
import { PasswordInput } from '@/web/components/ui/password-input';
import { ApiError } from '@/web/lib/request';
import { cn } from '@/web/lib/utils';
import { authApi } from './api';
import { PASSWORD_TEXTS } from './texts';

/** Set a new password from the mailed link (platform §2 /reset-password, §5). */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  if (!token) return <Navigate to="/forgot-password" replace />;

  const longEnough = newPassword.length >= MIN_PASSWORD_LENGTH && !isCommonPassword(newPassword);
  const matches = newPassword.length > 0 && newPassword === confirmPassword;
  const mismatch = confirmPassword.length > 0 && newPassword !== confirmPassword;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = resetPasswordFormSchema.safeParse({ newPassword, confirmPassword });
    if (!parsed.success) {
      toast.error({ title: 'Failed to reset password', description: parsed.error.issues[0]?.message });
      return;
    }
    setBusy(true);
    try {
      const answer = await authApi.resetPassword(token, parsed.data.newPassword);
      setDone(true);
      toast.success({ title: 'Password Reset Successful', description: answer.message });
    } catch (error) {
      const description = error instanceof ApiError && error.status > 0 ? error.message : 'Failed to reset password. Please try again.';
      toast.error({ title: 'Failed to reset password', description });
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <AuthLayout>
        <Card>
          <CardHeader className="items-center text-center">
            <CheckCircle2Icon className="size-12 text-success" />
            <CardTitle className="text-2xl">Password Reset Successful</CardTitle>
            <CardDescription>Your password has been changed and you have been signed out everywhere. Sign in with your new password.</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild className="w-full">
              <Link to="/login">Continue to Login</Link>
            </Button>
          </CardContent>
        </Card>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout>
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl">Choose a new password</CardTitle>
          <CardDescription>The link works once. After the reset you sign in again on every device.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={onSubmit} className="grid gap-4" noValidate>
            <Field label="New password" htmlFor="newPassword">
              <PasswordInput id="newPassword" autoComplete="new-password" value={newPassword} onChange={(e) => setNewPassword(e.target.value)} />
            </Field>
            <PasswordStrengthMeter password={newPassword} />
            <Field label="Confirm new password" htmlFor="confirmPassword" error={mismatch ? 'Passwords do not match' : undefined}>
              <PasswordInput
                id="confirmPassword"
                autoComplete="new-password"
                aria-invalid={mismatch}
                value={confirmPassword}
                onChange={(e) => setConfirmPassword(e.target.value)}
              />
            </Field>
            <div className="rounded-lg border bg-muted/40 p-3 text-sm">
              <p className="mb-1.5 font-medium">{PASSWORD_TEXTS.requirementsTitle}</p>
              <ul className="grid gap-1">
                <Requirement met={longEnough}>{PASSWORD_TEXTS.requirementLength}, not a commonly used one</Requirement>
                <Requirement met={matches}>{PASSWORD_TEXTS.requirementMatch}</Requirement>
              </ul>
              <p className="mt-2 text-xs text-muted-foreground">{PASSWORD_TEXTS.advice}</p>
            </div>
            <Button type="submit" disabled={busy || !longEnough || !matches} className="w-full">
              {busy ? 'Resetting...' : 'Reset Password'}
            </Button>
          </form>
          <Button variant="ghost" asChild className="mt-4 w-full">
            <Link to="/login">Back to Login</Link>
          </Button>
        </CardContent>
      </Card>
    </AuthLayout>
  );
}

function Requirement({ met, children }: { met: boolean; children: ReactNode }) {
  return (
    <li className={cn('flex items-center gap-2', met ? 'text-success' : 'text-muted-foreground')}>
      {met ? <CheckIcon className="size-4" /> : <CircleIcon className="size-3.5" />}
      <span>{children}</span>
      <span className="sr-only">{met ? '(met)' : '(not met yet)'}</span>
    </li>
  );
}
