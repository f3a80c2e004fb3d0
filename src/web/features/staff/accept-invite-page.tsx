import { CheckCircle2Icon } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AuthLayout } from '@/web/components/auth-layout';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { NewPasswordForm } from '@/web/features/auth/new-password-form';
import { refusalMessage } from '@/web/lib/form-errors';
import { acceptInvite } from './api';
import { ACCEPT_TEXTS } from './texts';

/** /accept-invite?token=… (issue 15 item 1): the invitee chooses a password, under the reset page's policy. */
export function AcceptInvitePage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [done, setDone] = useState(false);

  const submit = async (password: string) => {
    if (!token) return;
    try {
      await acceptInvite(token, password);
      setDone(true);
    } catch (error) {
      toast.error({ title: ACCEPT_TEXTS.failed, description: refusalMessage(error, ACCEPT_TEXTS.retry) });
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
            <NewPasswordForm texts={ACCEPT_TEXTS} onSubmit={submit} />
          )}
          <Button variant="ghost" asChild className="mt-4 w-full">
            <Link to="/login">Back to Login</Link>
          </Button>
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
