import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { OFFLINE_MODE_LABELS, OFFLINE_MODES } from '@/domain/subscriptions';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Checkbox } from '@/web/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { AmountInput } from '@/web/components/ui/amount-input';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field, Label } from '@/web/components/ui/label';
import { refusalMessage } from '@/web/lib/form-errors';
import type { School } from '@/web/lib/me-api';
import { useClientId } from '@/web/lib/use-client-id';
import { adminSchoolsQuery } from './api';
import { planLabel } from './school-stats';
import { subscriptionActions, useSubscriptionAction } from './subscriptions-api';
import { indiaToday } from './subscription-rules';
import { SUB_TEXTS as T } from './subscription-texts';

export type ManageSection = 'plan' | 'extend' | 'change' | 'payment' | 'cancel' | 'access';
const SECTIONS: ManageSection[] = ['plan', 'extend', 'change', 'payment', 'cancel', 'access'];
const PLANS = ['basic', 'standard', 'premium'] as const;
const STATUSES = ['trial', 'active', 'expired', 'cancelled'] as const;

function ReasonField({ id, value, onChange }: { id: string; value: string; onChange: (v: string) => void }) {
  return (
    <Field label={T.reason} htmlFor={id} className="sm:col-span-2">
      <Input id={id} value={value} onChange={(e) => onChange(e.target.value)} placeholder={T.reasonPlaceholder} required minLength={3} maxLength={500} />
    </Field>
  );
}

/** Runs one action with the seed's toasts (platform §8) and closes the dialog on success. */
function useRun(onDone: () => void) {
  const mutation = useSubscriptionAction(async (fn: () => Promise<{ message: string }>) => fn());
  const run = async (kind: keyof typeof T.failure, fn: () => Promise<{ message: string }>, success?: string) => {
    try {
      const answer = await mutation.mutateAsync([fn]);
      toast.success({ title: success ?? (T.success as Record<string, string>)[kind]!, description: answer.message });
      onDone();
    } catch (error) {
      const [title, fallback] = T.failure[kind];
      toast.error({ title, description: refusalMessage(error, fallback) });
    }
  };
  return { run, pending: mutation.isPending };
}

function Form({ onSubmit, children, submit, pending, destructive }: { onSubmit: () => void; children: ReactNode; submit: string; pending: boolean; destructive?: boolean }) {
  return (
    <form
      className="grid gap-4 sm:grid-cols-2"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <Button type="submit" disabled={pending} variant={destructive ? 'destructive' : 'default'} className="sm:col-span-2 sm:justify-self-start">
        {pending ? 'Saving...' : submit}
      </Button>
    </form>
  );
}

/**
 * The Manage School Plan dialog (platform §6) with the actions of issue 12: set plan and dates,
 * extend, change plan, record an offline payment, cancel, deactivate or reactivate.
 */
export function ManageSchoolDialog({ school, section: initial, onClose }: { school: School; section: ManageSection; onClose: () => void }) {
  const [section, setSection] = useState<ManageSection>(initial);
  const [reason, setReason] = useState('');
  const { run, pending } = useRun(onClose);
  // one key per keyed action, kept while its request is unchanged
  const extendKey = useClientId();
  const changeKey = useClientId();
  const paymentKey = useClientId();
  // seed defaults: start today, end empty (absent), change-plan yearly
  const [plan, setPlan] = useState(school.subscriptionPlan);
  const [status, setStatus] = useState<string>(school.subscriptionStatus);
  const [startDate, setStartDate] = useState(indiaToday());
  const [endDate, setEndDate] = useState('');
  const [days, setDays] = useState('30');
  const [cycle, setCycle] = useState<'monthly' | 'yearly'>('yearly');
  const [amount, setAmount] = useState('');
  const [mode, setMode] = useState<(typeof OFFLINE_MODES)[number]>('cheque');
  const [reference, setReference] = useState('');
  const [paidOn, setPaidOn] = useState(indiaToday());
  const [endAccessNow, setEndAccessNow] = useState(false);
  const id = school.id;

  const planSelect = (value: string, onChange: (v: string) => void, htmlId: string) => (
    <Field label={T.plan} htmlFor={htmlId}>
      <NativeSelect id={htmlId} value={value} onChange={(e) => onChange(e.target.value)}>
        {PLANS.map((p) => (
          <option key={p} value={p}>{planLabel(p)}</option>
        ))}
      </NativeSelect>
    </Field>
  );
  const cycleSelect = (
    <Field label={T.cycle} htmlFor="manage-cycle">
      <NativeSelect id="manage-cycle" value={cycle} onChange={(e) => setCycle(e.target.value as 'monthly' | 'yearly')}>
        <option value="yearly">{T.yearly}</option>
        <option value="monthly">{T.monthly}</option>
      </NativeSelect>
    </Field>
  );

  return (
    <Dialog open onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>{T.manageTitle}</DialogTitle>
          <DialogDescription>
            {school.name} · {school.email}
          </DialogDescription>
        </DialogHeader>
        <div role="tablist" aria-label="Action" className="flex flex-wrap gap-1.5">
          {SECTIONS.map((s) => (
            <Button key={s} type="button" role="tab" aria-selected={section === s} size="sm" variant={section === s ? 'default' : 'outline'} onClick={() => setSection(s)}>
              {T.sections[s]}
            </Button>
          ))}
        </div>

        {section === 'plan' ? (
          <Form submit={T.save.plan} pending={pending} onSubmit={() => void run('plan', () => subscriptionActions.setPlan(id, { plan, status, startDate: startDate || undefined, endDate: endDate || undefined, reason }))}>
            {planSelect(plan, setPlan, 'manage-plan')}
            <Field label={T.status} htmlFor="manage-status">
              <NativeSelect id="manage-status" value={status} onChange={(e) => setStatus(e.target.value)}>
                {STATUSES.map((s) => (
                  <option key={s} value={s}>{T.counts[s]}</option>
                ))}
              </NativeSelect>
            </Field>
            <Field label={T.startDate} htmlFor="manage-start">
              <Input id="manage-start" type="date" value={startDate} onChange={(e) => setStartDate(e.target.value)} />
            </Field>
            <Field label={T.endDate} htmlFor="manage-end">
              <Input id="manage-end" type="date" value={endDate} onChange={(e) => setEndDate(e.target.value)} />
            </Field>
            <ReasonField id="manage-reason" value={reason} onChange={setReason} />
          </Form>
        ) : null}

        {section === 'extend' ? (
          <Form
            submit={T.save.extend}
            pending={pending}
            onSubmit={() => void run('extend', () => extendKey.send({ days: Number(days), reason }, (body) => subscriptionActions.extend(id, body)))}
          >
            <Field label={T.daysField} htmlFor="extend-days">
              <Input id="extend-days" type="number" inputMode="numeric" min={1} max={365} value={days} onChange={(e) => setDays(e.target.value)} required />
            </Field>
            <ReasonField id="extend-reason" value={reason} onChange={setReason} />
          </Form>
        ) : null}

        {section === 'change' ? (
          <Form
            submit={T.save.change}
            pending={pending}
            onSubmit={() => void run('change', () => changeKey.send({ newPlan: plan, isMonthly: cycle === 'monthly', reason }, (body) => subscriptionActions.changePlan(id, body)))}
          >
            {planSelect(plan, setPlan, 'change-plan')}
            {cycleSelect}
            <ReasonField id="change-reason" value={reason} onChange={setReason} />
          </Form>
        ) : null}

        {section === 'payment' ? (
          <Form
            submit={T.save.payment}
            pending={pending}
            onSubmit={() =>
              void run(
                'payment',
                () => paymentKey.send({ plan, billingCycle: cycle, amount, mode, reference, date: paidOn, reason }, (body) => subscriptionActions.offlinePayment(id, body)),
                T.success.payment,
              )
            }
          >
            {planSelect(plan, setPlan, 'payment-plan')}
            {cycleSelect}
            <Field label={T.amount} htmlFor="payment-amount">
              <AmountInput id="payment-amount" value={amount} onChange={(e) => setAmount(e.target.value)} placeholder="3540.00" required />
            </Field>
            <Field label={T.mode} htmlFor="payment-mode">
              <NativeSelect id="payment-mode" value={mode} onChange={(e) => setMode(e.target.value as typeof mode)}>
                {OFFLINE_MODES.map((m) => (
                  <option key={m} value={m}>{OFFLINE_MODE_LABELS[m]}</option>
                ))}
              </NativeSelect>
            </Field>
            <Field label={T.reference} htmlFor="payment-reference">
              <Input id="payment-reference" value={reference} onChange={(e) => setReference(e.target.value)} required maxLength={100} />
            </Field>
            <Field label={T.paidOn} htmlFor="payment-date">
              <Input id="payment-date" type="date" value={paidOn} max={indiaToday()} onChange={(e) => setPaidOn(e.target.value)} required />
            </Field>
            <ReasonField id="payment-reason" value={reason} onChange={setReason} />
          </Form>
        ) : null}

        {section === 'cancel' ? (
          <Form destructive submit={T.save.cancel} pending={pending} onSubmit={() => void run('cancel', () => subscriptionActions.cancel(id, { endAccessNow, reason }))}>
            <p className="text-sm text-muted-foreground sm:col-span-2">{T.cancelNote}</p>
            <div className="flex items-center gap-2 sm:col-span-2">
              <Checkbox id="cancel-now" checked={endAccessNow} onCheckedChange={(v) => setEndAccessNow(v === true)} />
              <Label htmlFor="cancel-now">{T.endAccessNow}</Label>
            </div>
            <ReasonField id="cancel-reason" value={reason} onChange={setReason} />
          </Form>
        ) : null}

        {section === 'access' ? (
          <Form
            destructive={!school.deactivated}
            submit={school.deactivated ? T.reactivate : T.deactivate}
            pending={pending}
            onSubmit={() => void run('access', () => (school.deactivated ? subscriptionActions.reactivate(id, { reason }) : subscriptionActions.deactivate(id, { reason })))}
          >
            <p className="text-sm text-muted-foreground sm:col-span-2">{T.deactivateNote}</p>
            <ReasonField id="access-reason" value={reason} onChange={setReason} />
          </Form>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

/** The Manage dialog opened from a school's id (the Schools tab and a school's page): finds it in the portal's school list. */
export function ManageSchoolById({ schoolId, onClose }: { schoolId: string; onClose: () => void }) {
  const schools = useQuery(adminSchoolsQuery());
  const school = schools.data?.find((s) => s.id === schoolId);
  return school ? <ManageSchoolDialog school={school} section="plan" onClose={onClose} /> : null;
}
