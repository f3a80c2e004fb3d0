import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2Icon, MailWarningIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AuthLayout } from '@/web/components/auth-layout';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { FullPageSpinner } from '@/web/components/ui/spinner';
import { ApiError } from '@/web/lib/request';
import { authApi, ME_KEY } from './api';
import { EMAIL_CHANGE_TEXTS } from './texts';

type Outcome = { ok: true; message: string; email: string } | { ok: false; message: string };

/** One request per token for the life of the page (single-use link; see the confirm-email page). */
const attempts = new Map<string, Promise<Outcome>>();
function confirmOnce(token: string): Promise<Outcome> {
  let attempt = attempts.get(token);
  if (!attempt) {
    attempt = authApi.confirmEmailChange(token).then(
      (answer): Outcome => ({ ok: true, ...answer }),
      (error: unknown): Outcome => ({ ok: false, message: error instanceof ApiError && error.status > 0 ? error.message : EMAIL_CHANGE_TEXTS.network }),
    );
    attempts.set(token, attempt);
  }
  return attempt;
}

/** The link mailed to a new sign-in address: opening it is what changes the address. */
export function ConfirmEmailChangePage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome | null>(token ? null : { ok: false, message: EMAIL_CHANGE_TEXTS.missingToken });

  useEffect(() => {
    if (!token) return;
    let live = true;
    void confirmOnce(token).then((result) => {
      if (!live) return;
      setOutcome(result);
      // a session open in this browser shows the new address at once
      if (result.ok) void queryClient.invalidateQueries({ queryKey: ME_KEY });
    });
    return () => {
      live = false;
    };
  }, [token, queryClient]);

  if (!outcome) return <FullPageSpinner text={EMAIL_CHANGE_TEXTS.confirming} />;

  return (
    <AuthLayout>
      <Card>
        <CardHeader className="items-center text-center">
          {outcome.ok ? <CheckCircle2Icon className="size-12 text-success" /> : <MailWarningIcon className="size-12 text-amber-500" />}
          <CardTitle className="text-2xl">{outcome.ok ? EMAIL_CHANGE_TEXTS.doneTitle : EMAIL_CHANGE_TEXTS.failedTitle}</CardTitle>
          <CardDescription>{outcome.message}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3 text-center">
          {outcome.ok ? <p className="text-sm font-semibold">{outcome.email}</p> : null}
          <Button asChild className="w-full">
            <Link to="/login">{EMAIL_CHANGE_TEXTS.signIn}</Link>
          </Button>
          <Button asChild variant="ghost" className="w-full">
            <Link to="/school/settings">{EMAIL_CHANGE_TEXTS.settings}</Link>
          </Button>
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
