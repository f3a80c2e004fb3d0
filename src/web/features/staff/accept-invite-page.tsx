import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from '@/web/components/toaster';
import { NewPasswordPage } from '@/web/features/auth/new-password-form';
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

  return <NewPasswordPage texts={ACCEPT_TEXTS} done={done} problem={token ? null : ACCEPT_TEXTS.missingToken} onSubmit={submit} />;
}
