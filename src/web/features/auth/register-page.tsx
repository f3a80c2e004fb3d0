import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2Icon, GiftIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { registrationFormSchema } from '@/domain/auth';
import type { PlanId } from '@/domain/plans';
import { AuthLayout } from '@/web/components/auth-layout';
import { PasswordStrengthMeter } from '@/web/components/password-strength-meter';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input, Textarea } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { PasswordInput } from '@/web/components/ui/password-input';
import { ApiError } from '@/web/lib/request';
import { authApi } from './api';
import { PlanPicker } from './plan-picker';
import { firstFieldError, REGISTRATION_MESSAGES, registrationErrorMessage } from './registration-errors';
import { PASSWORD_TEXTS } from './texts';
import { plansQuery } from '@/web/lib/plans-api';

type FormInput = z.input<typeof registrationFormSchema>;
type FormOutput = z.output<typeof registrationFormSchema>;

/** Platform §9: the page moves on to sign-in 3 s after a successful registration. */
const REDIRECT_MS = 3_000;
const TOAST_MS = 8_000;

/** School registration (platform §2 /register). */
export function RegisterPage() {
  const navigate = useNavigate();
  const plans = useQuery(plansQuery());
  const [plan, setPlan] = useState<PlanId | undefined>();
  const [done, setDone] = useState<string | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(registrationFormSchema),
    defaultValues: { schoolName: '', email: '', phone: '', address: '', password: '', confirmPassword: '' },
  });
  const errors = form.formState.errors;
  const password = form.watch('password');
  const selectedPlan = plan ?? plans.data?.find((p) => p.recommended)?.id;

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate('/login'), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  const onSubmit = form.handleSubmit(
    async ({ confirmPassword: _confirm, ...values }) => {
      try {
        const answer = await authApi.register({ ...values, selectedPlan });
        setDone(answer.message);
        toast.success({ title: 'Registration Successful', description: answer.message, duration: TOAST_MS });
      } catch (error) {
        if (error instanceof ApiError && error.status === 400) {
          for (const [name, message] of Object.entries(error.fields)) form.setError(name as keyof FormInput, { message });
        }
        toast.error({ title: REGISTRATION_MESSAGES.failed, description: registrationErrorMessage(error), duration: TOAST_MS });
      }
    },
    (invalid) => toast.error({ title: REGISTRATION_MESSAGES.failed, description: firstFieldError(invalid) }),
  );

  if (done) {
    return (
      <AuthLayout>
        <Card>
          <CardHeader className="items-center text-center">
            <CheckCircle2Icon className="size-12 text-success" />
            <CardTitle className="text-2xl">Registration Successful</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4 text-center">
            <Alert variant="success" className="text-left">
              <AlertTitle>Check your inbox</AlertTitle>
              <AlertDescription>{done}</AlertDescription>
            </Alert>
            <p className="text-sm text-muted-foreground">Taking you to the sign-in page…</p>
            <Button asChild>
              <Link to="/login">Go to Login</Link>
            </Button>
          </CardContent>
        </Card>
      </AuthLayout>
    );
  }

  const busy = form.formState.isSubmitting;
  return (
    <AuthLayout width="medium">
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl">Register your school</CardTitle>
          <CardDescription>Fees, receipts, expenses and results for your school in one place.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={onSubmit} className="grid gap-5" noValidate>
            <Alert variant="info">
              <GiftIcon />
              <AlertTitle>5-day free trial, no card needed</AlertTitle>
              <AlertDescription>
                We will email you a confirmation link. Your trial starts once you confirm your email address, and you choose a paid plan
                only when you decide to continue.
              </AlertDescription>
            </Alert>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="School name" htmlFor="schoolName" error={errors.schoolName?.message} className="sm:col-span-2">
                <Input id="schoolName" autoComplete="organization" placeholder="Green Valley Public School" aria-invalid={Boolean(errors.schoolName)} {...form.register('schoolName')} />
              </Field>
              <Field label="Admin email" htmlFor="email" error={errors.email?.message}>
                <Input id="email" type="email" autoComplete="email" placeholder="office@school.in" aria-invalid={Boolean(errors.email)} {...form.register('email')} />
              </Field>
              <Field label="Phone" htmlFor="phone" error={errors.phone?.message}>
                <Input id="phone" type="tel" autoComplete="tel" inputMode="tel" placeholder="98765 43210" aria-invalid={Boolean(errors.phone)} {...form.register('phone')} />
              </Field>
              <Field label="Address" htmlFor="address" error={errors.address?.message} className="sm:col-span-2">
                <Textarea id="address" autoComplete="street-address" rows={2} placeholder="Street, town, district, state" {...form.register('address')} />
              </Field>
              <div className="grid gap-2">
                <Field label="Password" htmlFor="password" error={errors.password?.message} hint={PASSWORD_TEXTS.hint}>
                  <PasswordInput id="password" autoComplete="new-password" aria-invalid={Boolean(errors.password)} {...form.register('password')} />
                </Field>
                <PasswordStrengthMeter password={password} />
              </div>
              <Field label="Confirm password" htmlFor="confirmPassword" error={errors.confirmPassword?.message} hint="Type the same password again.">
                <PasswordInput id="confirmPassword" autoComplete="new-password" aria-invalid={Boolean(errors.confirmPassword)} {...form.register('confirmPassword')} />
              </Field>
            </div>
            {plans.data?.length ? <PlanPicker plans={plans.data} value={selectedPlan} onChange={setPlan} /> : null}
            <Button type="submit" disabled={busy} size="lg" className="w-full">
              {busy ? 'Registering...' : 'Register & Start Free Trial'}
            </Button>
          </form>
          <p className="mt-6 text-center text-sm text-muted-foreground">
            Already registered?{' '}
            <Link to="/login" className="font-medium text-primary hover:underline">Sign in</Link>
          </p>
          <p className="mt-2 text-center text-xs text-muted-foreground">
            By registering you agree to our <Link to="/terms" className="underline">Terms</Link> and{' '}
            <Link to="/privacy" className="underline">Privacy Policy</Link>.
          </p>
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
