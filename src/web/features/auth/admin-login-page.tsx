import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeftIcon, KeyRoundIcon, ShieldCheckIcon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { loginSchema, type LoginInput } from '@/domain/sign-in';
import { useSession } from '@/web/app/session';
import { AuthLayout } from '@/web/components/auth-layout';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { PasswordInput } from '@/web/components/ui/password-input';
import { ApiError } from '@/web/lib/request';
import { authApi } from './api';
import { TWO_STEP_TEXTS } from './texts';

/** Master administrator sign-in (platform §2 "Admin login"). */
export function AdminLoginPage() {
  const { completeSignIn } = useSession();
  // the portal's Logout lands here after a full page load (platform §8 logout messages)
  const signedOut = useSearchParams()[0].get('signedOut');
  // stays busy after success: the page reloads into the portal a moment later
  const [signedIn, setSignedIn] = useState(false);
  const form = useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '' } });
  // with two-step sign-in on, a right password is answered with a request for the code (decision 0035)
  const [needsCode, setNeedsCode] = useState(false);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();

  const onSubmit = form.handleSubmit(
    async (values) => {
      try {
        const answer = await authApi.adminLogin({ ...values, ...(needsCode ? { code: code.trim() } : {}) });
        setSignedIn(true);
        completeSignIn(answer, '/admin/dashboard');
      } catch (error) {
        if (error instanceof ApiError && error.status === 401 && error.body.totpRequired) {
          setCodeError(needsCode ? error.message : undefined);
          setNeedsCode(true);
          setCode('');
          return;
        }
        const description = error instanceof ApiError ? error.message : 'Network error. Please check your connection and try again.';
        toast.error({ title: 'Login Failed', description: description || 'Invalid credentials' });
      }
    },
    () => toast.error({ title: 'Login Failed', description: 'Please enter both email and password' }),
  );

  const busy = form.formState.isSubmitting || signedIn;
  return (
    <AuthLayout>
      <Button variant="ghost" size="sm" asChild className="mb-3 -ml-2">
        <Link to="/login">
          <ArrowLeftIcon />
          Regular Login
        </Link>
      </Button>
      <Card>
        <CardHeader>
          <span className="mb-1 flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">
            <ShieldCheckIcon className="size-5" />
          </span>
          <CardTitle className="text-2xl">Master Admin Portal</CardTitle>
          <CardDescription>Sign in to manage schools, users and subscriptions.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={onSubmit} className="grid gap-4" noValidate>
            {signedOut === '1' ? (
              <Alert variant="success">
                <AlertDescription>Logged out successfully</AlertDescription>
              </Alert>
            ) : signedOut === 'failed' ? (
              <Alert variant="warning">
                <AlertTitle>Logout failed</AlertTitle>
                <AlertDescription>
                  This browser is signed out, but the server could not be reached to end the session. Sign in and log out again to end it.
                </AlertDescription>
              </Alert>
            ) : null}
            <div className={needsCode ? 'hidden' : 'grid gap-4'}>
              <Field label="Email" htmlFor="email">
                <Input id="email" type="email" autoComplete="email" placeholder="admin@example.in" {...form.register('email')} />
              </Field>
              <Field label="Password" htmlFor="password">
                <PasswordInput id="password" autoComplete="current-password" {...form.register('password')} />
              </Field>
              <div className="flex justify-end">
                <Link to="/forgot-password" className="text-sm font-medium text-primary hover:underline">Forgot password?</Link>
              </div>
            </div>
            {needsCode ? (
              <>
                <Alert>
                  <KeyRoundIcon />
                  <AlertTitle>{TWO_STEP_TEXTS.title}</AlertTitle>
                  <AlertDescription>{TWO_STEP_TEXTS.description}</AlertDescription>
                </Alert>
                <Field label={TWO_STEP_TEXTS.codeLabel} htmlFor="totp-code" error={codeError} hint={TWO_STEP_TEXTS.codeHint}>
                  <Input
                    id="totp-code"
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={6}
                    pattern="[0-9]*"
                    autoFocus
                    aria-invalid={codeError ? true : undefined}
                    value={code}
                    onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
                    className="text-center font-mono text-lg tracking-[0.4em]"
                  />
                </Field>
              </>
            ) : null}
            <Button type="submit" disabled={busy || (needsCode && code.length !== 6)} className="w-full">
              {needsCode ? (busy ? TWO_STEP_TEXTS.verifying : TWO_STEP_TEXTS.verify) : busy ? 'Signing in...' : 'Sign In'}
            </Button>
            {needsCode ? (
              <Button
                type="button"
                variant="ghost"
                size="sm"
                onClick={() => {
                  setNeedsCode(false);
                  setCode('');
                  setCodeError(undefined);
                  form.setValue('password', '');
                }}
              >
                {TWO_STEP_TEXTS.startOver}
              </Button>
            ) : null}
          </form>
          <div className="mt-6 border-t pt-4 text-center text-sm">
            <p className="text-muted-foreground">Running a school?</p>
            <Button variant="outline" asChild className="mt-2 w-full">
              <Link to="/login">School Admin Login</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
