import { zodResolver } from '@hookform/resolvers/zod';
import { LogInIcon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { loginSchema, type LoginInput } from '@/domain/sign-in';
import { useSession } from '@/web/app/session';
import { AuthLayout } from '@/web/components/auth-layout';
import { PlanShowcase } from '@/web/components/plan-showcase';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Checkbox } from '@/web/components/ui/checkbox';
import { Input } from '@/web/components/ui/input';
import { Field, Label } from '@/web/components/ui/label';
import { PasswordInput } from '@/web/components/ui/password-input';
import { ApiError } from '@/web/lib/request';
import { authApi } from './api';

const CONFIRM_TEXT = 'Please confirm your email address before signing in. Check your inbox for a confirmation email.';

export function LoginPage() {
  const { completeSignIn } = useSession();
  const [unconfirmedEmail, setUnconfirmedEmail] = useState<string | null>(null);
  const [adminNotice, setAdminNotice] = useState(false);
  const form = useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '', rememberMe: false } });

  const onSubmit = form.handleSubmit(
    async (values) => {
      setUnconfirmedEmail(null);
      setAdminNotice(false);
      try {
        const answer = await authApi.login(values);
        completeSignIn(answer, '/school/dashboard');
      } catch (error) {
        if (!(error instanceof ApiError)) {
          toast.error({ title: 'Login Failed', description: 'Network error. Please check your connection and try again.' });
          return;
        }
        if (error.status === 403 && error.body.adminLogin) {
          setAdminNotice(true);
          toast.error({ title: 'Access Denied', description: 'Master administrators must use the dedicated admin portal.' });
          return;
        }
        if (/confirm/i.test(error.message)) {
          setUnconfirmedEmail(values.email);
          toast.error({ title: 'Login Failed', description: CONFIRM_TEXT });
          return;
        }
        toast.error({ title: 'Login Failed', description: error.message || 'Invalid credentials' });
      }
    },
    () => toast.error({ title: 'Login Failed', description: 'Please enter both email and password' }),
  );

  const resend = async () => {
    if (!unconfirmedEmail) return;
    const answer = await authApi.resendConfirmation(unconfirmedEmail);
    toast.success({ title: 'Confirmation Email Sent', description: answer.message });
  };

  const busy = form.formState.isSubmitting;
  return (
    <AuthLayout after={<PlanShowcase />}>
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl">Sign in to your school</CardTitle>
          <CardDescription>Fees, receipts and accounts in one place.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={onSubmit} className="grid gap-4" noValidate>
            {adminNotice ? (
              <Alert variant="warning">
                <AlertTitle>Access Denied</AlertTitle>
                <AlertDescription>
                  Master administrators must use the dedicated admin portal.{' '}
                  <Link to="/admin-login" className="font-medium underline">Go to admin sign-in</Link>
                </AlertDescription>
              </Alert>
            ) : null}
            {unconfirmedEmail ? (
              <Alert variant="info">
                <AlertTitle>Confirm your email</AlertTitle>
                <AlertDescription>
                  {CONFIRM_TEXT}{' '}
                  <button type="button" onClick={resend} className="font-medium underline">Send the link again</button>
                </AlertDescription>
              </Alert>
            ) : null}
            <Field label="Email" htmlFor="email">
              <Input id="email" type="email" autoComplete="email" placeholder="you@school.in" {...form.register('email')} />
            </Field>
            <Field label="Password" htmlFor="password">
              <PasswordInput id="password" autoComplete="current-password" {...form.register('password')} />
            </Field>
            <div className="flex items-center justify-between gap-2">
              <div className="flex items-center gap-2">
                <Checkbox
                  id="rememberMe"
                  checked={form.watch('rememberMe') ?? false}
                  onCheckedChange={(v) => form.setValue('rememberMe', v === true)}
                />
                <Label htmlFor="rememberMe" className="font-normal">Remember me</Label>
              </div>
              <Link to="/forgot-password" className="text-sm font-medium text-primary hover:underline">Forgot password?</Link>
            </div>
            <Button type="submit" disabled={busy} className="w-full">
              <LogInIcon />
              {busy ? 'Signing in...' : 'Sign In'}
            </Button>
          </form>
          <div className="mt-6 grid gap-2 text-center text-sm">
            <p className="text-muted-foreground">New to School Ledger?</p>
            <Button variant="outline" asChild>
              <Link to="/register">Register your school: 5-day free trial</Link>
            </Button>
            <Link to="/admin-login" className="text-xs text-muted-foreground hover:text-foreground">Master administrator sign-in</Link>
          </div>
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
