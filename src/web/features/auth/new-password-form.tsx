import { CheckCircle2Icon, CheckIcon, CircleIcon } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { isCommonPassword, MIN_PASSWORD_LENGTH, resetPasswordFormSchema } from '@/domain/auth';
import { AuthLayout } from '@/web/components/auth-layout';
import { PasswordStrengthMeter } from '@/web/components/password-strength-meter';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Field } from '@/web/components/ui/label';
import { PasswordInput } from '@/web/components/ui/password-input';
import { cn } from '@/web/lib/utils';
import { PASSWORD_TEXTS } from './texts';

/** The words of one use of the form (reset, accept an invitation); the rules' words are PASSWORD_TEXTS. */
export interface NewPasswordFormTexts {
  password: string;
  confirm: string;
  submit: string;
  submitting: string;
  /** the title of the toast when the password is refused, here or by the server */
  failed: string;
}

/**
 * Choose a new password twice, with the strength meter and the two rules ticked off as they are met,
 * under the shared policy (resetPasswordFormSchema). `onSubmit` gets the checked password; it reports
 * its own failures, and the button stays busy until it settles.
 */
export function NewPasswordForm({ texts, onSubmit }: { texts: NewPasswordFormTexts; onSubmit: (password: string) => Promise<void> }) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);

  const strongEnough = password.length >= MIN_PASSWORD_LENGTH && !isCommonPassword(password);
  const matches = password.length > 0 && password === confirm;
  const mismatch = confirm.length > 0 && password !== confirm;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = resetPasswordFormSchema.safeParse({ newPassword: password, confirmPassword: confirm });
    if (!parsed.success) {
      toast.error({ title: texts.failed, description: parsed.error.issues[0]?.message });
      return;
    }
    setBusy(true);
    try {
      await onSubmit(parsed.data.newPassword);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <Field label={texts.password} htmlFor={`${id}-password`}>
        <PasswordInput id={`${id}-password`} autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
      <PasswordStrengthMeter password={password} />
      <Field label={texts.confirm} htmlFor={`${id}-confirm`} error={mismatch ? PASSWORD_TEXTS.mismatch : undefined}>
        <PasswordInput
          id={`${id}-confirm`}
          autoComplete="new-password"
          aria-invalid={mismatch}
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
      </Field>
      <div className="rounded-lg border bg-muted/40 p-3 text-sm">
        <p className="mb-1.5 font-medium">{PASSWORD_TEXTS.requirementsTitle}</p>
        <ul className="grid gap-1">
          <Requirement met={strongEnough}>{PASSWORD_TEXTS.requirementPolicy}</Requirement>
          <Requirement met={matches}>{PASSWORD_TEXTS.requirementMatch}</Requirement>
        </ul>
        <p className="mt-2 text-xs text-muted-foreground">{PASSWORD_TEXTS.advice}</p>
      </div>
      <Button type="submit" disabled={busy || !strongEnough || !matches} className="w-full">
        {busy ? texts.submitting : texts.submit}
      </Button>
    </form>
  );
}

/** The words of a whole new-password page: its form's, its frame's and its done card's. */
export interface NewPasswordPageTexts extends NewPasswordFormTexts {
  title: string;
  description: string;
  doneTitle: string;
  doneBody: string;
  signIn: string;
  backToLogin: string;
}

/**
 * A page that sets a password from a mailed link (reset, invitation): the form in the auth frame,
 * or `problem` instead of it (a link without its token), and once `done` the card on to sign in.
 */
export function NewPasswordPage({
  texts,
  done,
  problem,
  onSubmit,
}: {
  texts: NewPasswordPageTexts;
  done: boolean;
  problem?: string | null;
  onSubmit: (password: string) => Promise<void>;
}) {
  if (done) {
    return (
      <AuthLayout>
        <Card>
          <CardHeader className="items-center text-center">
            <CheckCircle2Icon className="size-12 text-success" />
            <CardTitle className="text-2xl">{texts.doneTitle}</CardTitle>
            <CardDescription>{texts.doneBody}</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild className="w-full">
              <Link to="/login">{texts.signIn}</Link>
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
          <CardTitle className="text-2xl">{texts.title}</CardTitle>
          <CardDescription>{texts.description}</CardDescription>
        </CardHeader>
        <CardContent>
          {problem ? (
            <Alert variant="destructive">
              <AlertDescription>{problem}</AlertDescription>
            </Alert>
          ) : (
            <NewPasswordForm texts={texts} onSubmit={onSubmit} />
          )}
          <Button variant="ghost" asChild className="mt-4 w-full">
            <Link to="/login">{texts.backToLogin}</Link>
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
      <span className="sr-only">{met ? PASSWORD_TEXTS.met : PASSWORD_TEXTS.notMet}</span>
    </li>
  );
}
