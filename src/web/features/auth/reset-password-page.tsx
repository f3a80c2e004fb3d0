import { useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { toast } from '@/web/components/toaster';
import { ApiError } from '@/web/lib/request';
import { authApi } from './api';
import { NewPasswordPage } from './new-password-form';
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
      toast.success({ title: T.doneTitle, description: answer.message });
    } catch (error) {
      const description = error instanceof ApiError && error.status > 0 ? error.message : T.failedRetry;
      toast.error({ title: T.failed, description });
    }
  };

  return <NewPasswordPage texts={T} done={done} onSubmit={onSubmit} />;
}
