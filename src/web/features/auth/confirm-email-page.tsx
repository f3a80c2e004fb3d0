import { CheckCircle2Icon, MailWarningIcon } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { forgotPasswordSchema } from '@/domain/sign-in';
import { AuthLayout } from '@/web/components/auth-layout';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { FullPageSpinner } from '@/web/components/ui/spinner';
import { formatLongDate } from '@/web/lib/format';
import { ApiError } from '@/web/lib/request';
import { authApi } from './api';

type Outcome = { ok: true; message: string; trialEndsAt: string | null } | { ok: false; message: string };

/**
 * One request per token for the life of the page: a confirmation token is single-use, so React's
 * StrictMode double effect (or a remount) must not send it twice and turn success into "already used".
 */
const attempts = new Map<string, Promise<Outcome>>();
function confirmOnce(token: string): Promise<Outcome> {
  let attempt = attempts.get(token);
  if (!attempt) {
    attempt = authApi.confirmEmail(token).then(
      (answer): Outcome => ({ ok: true, ...answer }),
      (error: unknown): Outcome => ({
        ok: false,
        message: error instanceof ApiError && error.status > 0 ? error.message : 'Network error. Please check your connection and try again.',
      }),
    );
    attempts.set(token, attempt);
  }
  return attempt;
}

const MISSING_TOKEN = 'This confirmation link is incomplete. Open the link from your email again, or ask for a new one below.';

/** The mailed confirmation link (platform §4: the 5-day trial starts on confirmation). */
export function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [outcome, setOutcome] = useState<Outcome | null>(token ? null : { ok: false, message: MISSING_TOKEN });

  useEffect(() => {
    if (!token) return;
    let live = true;
    void confirmOnce(token).then((result) => {
      if (live) setOutcome(result);
    });
    return () => {
      live = false;
    };
  }, [token]);

  if (!outcome) return <FullPageSpinner text="Confirming your email..." />;

  return (
    <AuthLayout>
      {outcome.ok ? (
        <Card>
          <CardHeader className="items-center text-center">
            <CheckCircle2Icon className="size-12 text-success" />
            <CardTitle className="text-2xl">Email Confirmed</CardTitle>
            <CardDescription>{outcome.message}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-3 text-center">
            {outcome.trialEndsAt ? (
              <p className="text-sm">
                Your free trial runs until <span className="font-semibold">{formatLongDate(outcome.trialEndsAt)}</span>.
              </p>
            ) : null}
            <Button asChild className="w-full">
              <Link to="/login">Go to Login</Link>
            </Button>
          </CardContent>
        </Card>
      ) : (
        <Card>
          <CardHeader className="items-center text-center">
            <MailWarningIcon className="size-12 text-amber-500" />
            <CardTitle className="text-2xl">Confirmation Failed</CardTitle>
            <CardDescription>{outcome.message}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <ResendForm />
            <p className="text-center text-sm text-muted-foreground">
              Already confirmed?{' '}
              <Link to="/login" className="font-medium text-primary hover:underline">Sign in</Link>
            </p>
          </CardContent>
        </Card>
      )}
    </AuthLayout>
  );
}

function ResendForm() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = forgotPasswordSchema.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      const answer = await authApi.resendConfirmation(parsed.data.email);
      toast.success({ title: 'Confirmation Email Sent', description: answer.message });
    } catch (err) {
      toast.error({ title: 'Error', description: err instanceof ApiError && err.status > 0 ? err.message : 'Network error. Please check your connection and try again.' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={onSubmit} className="grid gap-3 rounded-lg border bg-muted/40 p-4" noValidate>
      <p className="text-sm font-medium">Resend confirmation email</p>
      <Field label="Email" htmlFor="resend-email" error={error}>
        <Input id="resend-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} aria-invalid={Boolean(error)} />
      </Field>
      <Button type="submit" variant="outline" disabled={busy}>
        {busy ? 'Sending...' : 'Resend Confirmation Email'}
      </Button>
    </form>
  );
}
