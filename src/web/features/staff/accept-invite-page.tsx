import { CheckCircle2Icon, CheckIcon, CircleIcon } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { isCommonPassword, MIN_PASSWORD_LENGTH, resetPasswordFormSchema } from '@/domain/auth';
import { AuthLayout } from '@/web/components/auth-layout';
import { PasswordStrengthMeter } from '@/web/components/password-strength-meter';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Field } from '@/web/components/ui/label';
import { PasswordInput } from '@/web/components/ui/password-input';
import { refusalMessage } from '@/web/lib/form-errors';
import { cn } from '@/web/lib/utils';
import { acceptInvite } from './api';
import { ACCEPT_TEXTS } from './texts';

/** /accept-invite?token=… (issue 15 item 1): the invitee chooses a password, under the reset page's policy. */
export function AcceptInvitePage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const strongEnough = password.length >= MIN_PASSWORD_LENGTH && !isCommonPassword(password);
  const matches = password.length > 0 && password === confirm;
  const mismatch = confirm.length > 0 && password !== confirm;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!token) return;
    const parsed = resetPasswordFormSchema.safeParse({ newPassword: password, confirmPassword: confirm });
    if (!parsed.success) {
      toast.error({ title: ACCEPT_TEXTS.failed, description: parsed.error.issues[0]?.message });
      return;
    }
    setBusy(true);
    try {
      await acceptInvite(token, parsed.data.newPassword);
      setDone(true);
    } catch (error) {
      toast.error({ title: ACCEPT_TEXTS.failed, description: refusalMessage(error, 'Please try again.') });
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
            <CardTitle className="text-2xl">{ACCEPT_TEXTS.doneTitle}</CardTitle>
            <CardDescription>{ACCEPT_TEXTS.doneBody}</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild className="w-full">
              <Link to="/login">{ACCEPT_TEXTS.signIn}</Link>
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
          <CardTitle className="text-2xl">{ACCEPT_TEXTS.title}</CardTitle>
          <CardDescription>{ACCEPT_TEXTS.description}</CardDescription>
        </CardHeader>
        <CardContent>
          {!token ? (
            <Alert variant="destructive">
              <AlertDescription>{ACCEPT_TEXTS.missingToken}</AlertDescription>
            </Alert>
          ) : (
            <form onSubmit={submit} className="grid gap-4" noValidate>
              <Field label={ACCEPT_TEXTS.password} htmlFor="invite-password">
                <PasswordInput id="invite-password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
              </Field>
              <PasswordStrengthMeter password={password} />
              <Field label={ACCEPT_TEXTS.confirm} htmlFor="invite-confirm" error={mismatch ? ACCEPT_TEXTS.mismatch : undefined}>
                <PasswordInput id="invite-confirm" autoComplete="new-password" aria-invalid={mismatch} value={confirm} onChange={(e) => setConfirm(e.target.value)} />
              </Field>
              <ul className="grid gap-1 rounded-lg border bg-muted/40 p-3 text-sm">
                <Requirement met={strongEnough}>{ACCEPT_TEXTS.requirementLength}</Requirement>
                <Requirement met={matches}>{ACCEPT_TEXTS.requirementMatch}</Requirement>
              </ul>
              <Button type="submit" disabled={busy || !strongEnough || !matches} className="w-full">
                {busy ? ACCEPT_TEXTS.submitting : ACCEPT_TEXTS.submit}
              </Button>
            </form>
          )}
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
