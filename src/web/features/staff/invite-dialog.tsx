import { SparklesIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { INVITABLE_ROLES, type InvitableRole } from '@/domain/permissions';
import { inviteStaffSchema } from '@/domain/staff';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { refusalMessage } from '@/web/lib/form-errors';
import { SUBSCRIPTION_PATH } from '@/web/lib/plans-api';
import { ApiError } from '@/web/lib/request';
import { useInviteStaff } from './api';
import { STAFF_TEXTS } from './texts';

/** Invite by email with a role; a plan with no room left shows the upgrade offer (like the student limit). */
export function InviteDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<InvitableRole>('clerk');
  const [errors, setErrors] = useState<Partial<Record<'email' | 'name', string>>>({});
  const [limitMessage, setLimitMessage] = useState<string | null>(null);
  const invite = useInviteStaff();

  const close = (next: boolean) => {
    if (!next) {
      setEmail('');
      setName('');
      setRole('clerk');
      setErrors({});
      setLimitMessage(null);
    }
    onOpenChange(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = inviteStaffSchema.safeParse({ email, name, role });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'email' || field === 'name') && !next[field]) next[field] = issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      await invite.mutateAsync(parsed.data);
      toast.success({ title: STAFF_TEXTS.invite, description: STAFF_TEXTS.invited(parsed.data.email) });
      close(false);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 402 || error.status === 403) && error.body.upgradeRequired) {
        setLimitMessage(error.message);
        return;
      }
      if (error instanceof ApiError && typeof error.fields.email === 'string') setErrors({ email: error.fields.email });
      toast.error({ title: STAFF_TEXTS.invite, description: refusalMessage(error, STAFF_TEXTS.inviteFailed) });
    }
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>{STAFF_TEXTS.inviteTitle}</DialogTitle>
          <DialogDescription>{STAFF_TEXTS.inviteDescription}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          {limitMessage ? (
            <Alert variant="warning">
              <AlertTitle>{STAFF_TEXTS.limitTitle}</AlertTitle>
              <AlertDescription className="grid gap-2">
                <p>{limitMessage}</p>
                <Button asChild size="sm" className="justify-self-start">
                  <Link to={SUBSCRIPTION_PATH}>
                    <SparklesIcon />
                    {STAFF_TEXTS.upgrade}
                  </Link>
                </Button>
              </AlertDescription>
            </Alert>
          ) : null}
          <Field label={STAFF_TEXTS.name} htmlFor="invite-name" error={errors.name}>
            <Input id="invite-name" autoComplete="off" value={name} aria-invalid={errors.name ? true : undefined} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label={STAFF_TEXTS.email} htmlFor="invite-email" error={errors.email}>
            <Input
              id="invite-email"
              type="email"
              autoComplete="off"
              value={email}
              aria-invalid={errors.email ? true : undefined}
              onChange={(e) => setEmail(e.target.value)}
            />
          </Field>
          <Field label={STAFF_TEXTS.role} htmlFor="invite-role" hint={STAFF_TEXTS.roleHelp[role]}>
            <NativeSelect id="invite-role" value={role} onChange={(e) => setRole(e.target.value as InvitableRole)}>
              {INVITABLE_ROLES.map((r) => (
                <option key={r} value={r}>
                  {STAFF_TEXTS.roleLabel[r]}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={invite.isPending}>
              {invite.isPending ? STAFF_TEXTS.sending : STAFF_TEXTS.sendInvite}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
