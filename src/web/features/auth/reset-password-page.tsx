import { CheckCircle2Icon } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { AuthLayout } from '@/web/components/auth-layout';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { ApiError } from '@/web/lib/request';
import { authApi } from './api';
import { NewPasswordForm } from './new-password-form';
import { RESET_PASSWORD_TEXTS as T } from './texts';

/** Set a new password from the mailed link (platform §2 /reset-password, §5). */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [done, setDone] = useState(false);

  if (!token) return <Navigate to="/forgot-password" replace />;

  const onSubmit = async (newPassword: string) => {
    try {
      const answer = await authApi.resetPassword(token, newPassword);
      setDone(true);
      toast.success({ title: 'Password Reset Successful', description: answer.message });
    } catch (error) {
      const description = error instanceof ApiError && error.status > 0 ? error.message : T.failedRetry;
      toast.error({ title: T.failed, description });
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
          <NewPasswordForm texts={T} onSubmit={onSubmit} />
          <Button variant="ghost" asChild className="mt-4 w-full">
            <Link to="/login">Back to Login</Link>
          </Button>
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
