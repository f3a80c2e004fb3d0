import { useState } from 'react';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { refusalMessage } from '@/web/lib/form-errors';
import type { School } from '@/web/lib/me-api';
import { planLabel } from './school-stats';
import { dateInputValue } from './subscription-rules';
import { subscriptionActions, useSubscriptionAction } from './subscriptions-api';
import { SUB_TEXTS as T } from './subscription-texts';

/** A yyyy-mm-dd input as the seed sends it: null when empty, else an ISO timestamp (start of that day in India). */
const toIso = (value: string) => (value ? new Date(`${value}T00:00:00.000+05:30`).toISOString() : null);

/** The Edit Subscription dialog (platform §5): the current values filled in; empty dates are sent as null. */
export function EditSubscriptionDialog({ school, onClose }: { school: School; onClose: () => void }) {
  const [plan, setPlan] = useState(school.subscriptionPlan);
  const [status, setStatus] = useState<string>(school.subscriptionStatus);
  const [start, setStart] = useState(dateInputValue(school.planStartDate));
  const [end, setEnd] = useState(dateInputValue(school.planEndDate));
  const [reason, setReason] = useState('');
  const mutation = useSubscriptionAction(subscriptionActions.edit);

  const submit = async () => {
    try {
      const answer = await mutation.mutateAsync([
        school.id,
        { schoolId: school.id, subscriptionPlan: plan, subscriptionStatus: status, planStartDate: toIso(start), planEndDate: toIso(end), reason },
      ]);
      toast.success({ title: T.success.edit, description: answer.message });
      onClose();
    } catch (error) {
      toast.error({ title: T.failure.edit[0], description: refusalMessage(error, T.failure.edit[1]) });
    }
  };

  return (
    <Dialog open onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{T.editTitle}</DialogTitle>
          <DialogDescription>{school.name}</DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4 sm:grid-cols-2"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Field label={T.plan} htmlFor="edit-plan">
            <NativeSelect id="edit-plan" value={plan} onChange={(e) => setPlan(e.target.value)}>
              {['basic', 'standard', 'premium'].map((p) => (
                <option key={p} value={p}>{planLabel(p)}</option>
              ))}
            </NativeSelect>
          </Field>
          <Field label={T.status} htmlFor="edit-status">
            <NativeSelect id="edit-status" value={status} onChange={(e) => setStatus(e.target.value)}>
              {(['trial', 'active', 'expired', 'cancelled'] as const).map((s) => (
                <option key={s} value={s}>{T.counts[s]}</option>
              ))}
            </NativeSelect>
          </Field>
          <Field label={T.startDate} htmlFor="edit-start">
            <Input id="edit-start" type="date" value={start} onChange={(e) => setStart(e.target.value)} />
          </Field>
          <Field label="End date" htmlFor="edit-end">
            <Input id="edit-end" type="date" value={end} onChange={(e) => setEnd(e.target.value)} />
          </Field>
          <Field label={T.reason} htmlFor="edit-reason" className="sm:col-span-2">
            <Input id="edit-reason" value={reason} onChange={(e) => setReason(e.target.value)} placeholder={T.reasonPlaceholder} required minLength={3} />
          </Field>
          <Button type="submit" disabled={mutation.isPending} className="sm:col-span-2 sm:justify-self-start">
            {mutation.isPending ? 'Saving...' : T.save.edit}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
