import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeftIcon, MailCheckIcon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { forgotPasswordSchema } from '@/domain/sign-in';
import { AuthLayout } from '@/web/components/auth-layout';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { ApiError } from '@/web/lib/request';
import { authApi } from './api';

type Sent = { email: string; message: string; resetToken?: string; resetUrl?: string };

/** Password recovery (platform §2 /forgot-password): form, then "Check Your Email". */
export function ForgotPasswordPage() {
  const [sent, setSent] = useState<Sent | null>(null);
  const form = useForm<z.input<typeof forgotPasswordSchema>, unknown, z.output<typeof forgotPasswordSchema>>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: '' },
  });

  const onSubmit = form.handleSubmit(async ({ email }) => {
    try {
      const answer = await authApi.forgotPassword(email);
      setSent({ email, ...answer });
      toast.success({ title: 'Reset Email Sent', description: answer.message });
    } catch (error) {
      if (error instanceof ApiError && error.status > 0) {
        toast.error({ title: 'Failed to send reset email', description: error.message });
      } else {
        toast.error({ title: 'Error', description: 'Failed to send reset email. Please try again.' });
      }
    }
  });

  if (sent) {
    // the dev answer carries the token; only its path is linked, so the page works behind any host name
    const devPath = sent.resetToken ? `/reset-password?token=${encodeURIComponent(sent.resetToken)}` : null;
    return (
      <AuthLayout>
        <Card>
          <CardHeader className="items-center text-center">
            <span className="flex size-12 items-center justify-center rounded-full bg-success/15 text-success">
              <MailCheckIcon className="size-6" />
            </span>
            <CardTitle className="text-2xl">Check Your Email</CardTitle>
            <CardDescription>
              If <span className="font-medium text-foreground">{sent.email}</span> has an account, a link to reset your password is on its way.
              It works once and expires in 60 minutes. Check your spam folder if it does not arrive in a few minutes.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-3">
            {devPath ? (
              <Alert variant="warning">
                <AlertTitle>Development mode</AlertTitle>
                <AlertDescription className="grid gap-2">
                  <p>
                    Reset token: <code className="break-all font-mono text-xs">{sent.resetToken}</code>
                  </p>
                  <Link to={devPath} className="font-medium underline">Open the reset page (dev link)</Link>
                </AlertDescription>
              </Alert>
            ) : null}
            <Button variant="outline" onClick={() => setSent(null)}>Send Another Email</Button>
            <Button asChild>
              <Link to="/login">Back to Login</Link>
            </Button>
          </CardContent>
        </Card>
      </AuthLayout>
    );
  }

  const busy = form.formState.isSubmitting;
  const error = form.formState.errors.email?.message;
  return (
    <AuthLayout>
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl">Forgot your password?</CardTitle>
          <CardDescription>Enter the email address you sign in with and we will send you a link to choose a new password.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={onSubmit} className="grid gap-4" noValidate>
            <Field label="Email" htmlFor="email" error={error}>
              <Input id="email" type="email" autoComplete="email" placeholder="you@school.in" aria-invalid={Boolean(error)} {...form.register('email')} />
            </Field>
            <Button type="submit" disabled={busy} className="w-full">
              {busy ? 'Sending...' : 'Send Reset Instructions'}
            </Button>
          </form>
          <Button variant="ghost" asChild className="mt-4 w-full">
            <Link to="/login">
              <ArrowLeftIcon />
              Back to Login
            </Link>
          </Button>
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
