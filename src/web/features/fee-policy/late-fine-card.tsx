import { useQuery } from '@tanstack/react-query';
import { AlarmClockIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { DEFAULT_LATE_FINE_RULE, lateFineRuleToDto } from '@/domain/fines';
import { checkLineAmount } from '@/domain/ledger';
import { toast } from '@/web/components/toaster';
import { AmountInput } from '@/web/components/ui/amount-input';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Checkbox } from '@/web/components/ui/checkbox';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field, Label } from '@/web/components/ui/label';
import { serverMessage } from '@/web/lib/form-errors';
import { ApiError } from '@/web/lib/request';
import { fineRuleQuery, useSaveFineRule, type FineMode, type LateFineRule } from './api';
import { FineExample } from './fine-example';
import { HeadPicker } from './head-picker';
import { texts } from './texts';
import { useCan } from '@/web/app/permissions';

/** Settings → Late fine rules, with a live example of what a late payment would be fined. */
/** Settings: the school's fee policy is the Administrator's (ruling 32); others never see the card. */
export function LateFineCard() {
  const can = useCan();
  return can('fee-policy.manage') ? <LateFineCardBody /> : null;
}

function LateFineCardBody() {
  const rule = useQuery(fineRuleQuery);
  return (
    <Card data-testid="late-fine-card">
      <CardHeader>
        <CardTitle level={2} className="flex items-center gap-2">
          <AlarmClockIcon className="size-5 text-primary" />
          {texts.fineTitle}
        </CardTitle>
        <CardDescription>{texts.fineDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        {rule.data ? <FineForm key={JSON.stringify(rule.data)} saved={rule.data} /> : null}
        {/* no rule saved yet answers 404 on older servers: start from the domain's default (fines off) */}
        {rule.error instanceof ApiError && rule.error.status === 404 ? <FineForm saved={lateFineRuleToDto(DEFAULT_LATE_FINE_RULE)} /> : null}
      </CardContent>
    </Card>
  );
}

const wholeNumber = (text: string) => (/^\d{1,3}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

function FineForm({ saved }: { saved: LateFineRule }) {
  const [rule, setRule] = useState(() => ({
    ...saved,
    dueDay: String(saved.dueDay),
    graceDays: String(saved.graceDays),
    capPerMonth: saved.capPerMonth ?? '',
    capPerSession: saved.capPerSession ?? '',
    slabs: saved.slabs.map((s) => ({ afterDays: String(s.afterDays), amount: s.amount })),
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveFineRule();
  const set = (patch: Partial<typeof rule>) => setRule((r) => ({ ...r, ...patch }));

  /** The form as the API takes it, or the first problem of each field. */
  const read = (): { value: LateFineRule | null; found: Record<string, string> } => {
    const found: Record<string, string> = {};
    const dueDay = wholeNumber(rule.dueDay);
    if (!(dueDay >= 1 && dueDay <= 28)) found.dueDay = texts.dayRange;
    const graceDays = wholeNumber(rule.graceDays);
    if (!(graceDays >= 0 && graceDays <= 90)) found.graceDays = texts.graceRange;
    const money = (key: string, text: string, label: string, optional = false) => {
      if (optional && !text.trim()) return;
      const check = checkLineAmount(text, label);
      if (!check.ok) found[key] = check.message;
    };
    if (rule.mode !== 'slab') money('amount', rule.amount, texts.fineAmount);
    rule.slabs.forEach((s, i) => {
      if (rule.mode !== 'slab') return;
      if (!(wholeNumber(s.afterDays) >= 0)) found[`slab${i}`] = texts.slabDays;
      money(`slab${i}`, s.amount, texts.slabAmount);
    });
    money('capPerMonth', rule.capPerMonth, texts.capMonth, true);
    money('capPerSession', rule.capPerSession, texts.capSession, true);
    if (rule.heads.length === 0) found.heads = texts.headsRequired;
    if (Object.keys(found).length > 0) return { value: null, found };
    return {
      value: {
        enabled: rule.enabled,
        dueDay,
        graceDays,
        mode: rule.mode,
        amount: rule.mode === 'slab' ? '0' : rule.amount.trim(),
        slabs: rule.mode === 'slab' ? rule.slabs.map((s) => ({ afterDays: Number(s.afterDays), amount: s.amount.trim() })) : [],
        capPerMonth: rule.capPerMonth.trim() || null,
        capPerSession: rule.capPerSession.trim() || null,
        heads: rule.heads,
      },
      found,
    };
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { value, found } = read();
    setErrors(found);
    if (!value) return;
    save.mutate(value, {
      onSuccess: () => toast.success({ title: texts.fineSaved }),
      onError: (error) => setErrors({ form: serverMessage(error) ?? error.message }),
    });
  };
  const current = read().value;

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate aria-label={texts.fineTitle}>
      <label className="flex items-center gap-2 text-sm font-medium" htmlFor="fine-enabled">
        <Checkbox id="fine-enabled" checked={rule.enabled} onCheckedChange={(v) => set({ enabled: v === true })} />
        {texts.fineEnabled}
      </label>
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label={texts.dueDay} htmlFor="fine-due-day" error={errors.dueDay}>
          <Input id="fine-due-day" inputMode="numeric" value={rule.dueDay} onChange={(e) => set({ dueDay: e.target.value })} />
        </Field>
        <Field label={texts.graceDays} htmlFor="fine-grace" error={errors.graceDays}>
          <Input id="fine-grace" inputMode="numeric" value={rule.graceDays} onChange={(e) => set({ graceDays: e.target.value })} />
        </Field>
        <Field label={texts.fineMode} htmlFor="fine-mode">
          <NativeSelect id="fine-mode" value={rule.mode} onChange={(e) => set({ mode: e.target.value as FineMode })}>
            {(['per_day', 'flat', 'slab'] as const).map((m) => (
              <option key={m} value={m}>
                {texts.modes[m]}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      {rule.mode === 'slab' ? (
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">{texts.slabs}</legend>
          {rule.slabs.map((slab, i) => (
            <div key={i} className="grid grid-cols-[1fr_1fr_auto] items-end gap-2">
              <div className="grid gap-1">
                <Label htmlFor={`fine-slab-day-${i}`}>{texts.slabFrom}</Label>
                <Input
                  id={`fine-slab-day-${i}`}
                  inputMode="numeric"
                  value={slab.afterDays}
                  onChange={(e) => set({ slabs: rule.slabs.map((s, j) => (j === i ? { ...s, afterDays: e.target.value } : s)) })}
                />
              </div>
              <div className="grid gap-1">
                <Label htmlFor={`fine-slab-amount-${i}`}>{texts.slabAmount}</Label>
                <AmountInput
                  id={`fine-slab-amount-${i}`}
                  value={slab.amount}
                  onChange={(e) => set({ slabs: rule.slabs.map((s, j) => (j === i ? { ...s, amount: e.target.value } : s)) })}
                />
              </div>
              <Button type="button" variant="ghost" size="icon" aria-label={texts.removeSlab} onClick={() => set({ slabs: rule.slabs.filter((_, j) => j !== i) })}>
                <Trash2Icon />
              </Button>
              {errors[`slab${i}`] ? (
                <p role="alert" className="col-span-3 text-xs font-medium text-destructive">
                  {errors[`slab${i}`]}
                </p>
              ) : null}
            </div>
          ))}
          <div>
            <Button type="button" variant="outline" size="sm" onClick={() => set({ slabs: [...rule.slabs, { afterDays: '', amount: '' }] })}>
              <PlusIcon />
              {texts.addSlab}
            </Button>
          </div>
        </fieldset>
      ) : (
        <Field label={rule.mode === 'per_day' ? texts.perDayAmount : texts.flatAmount} htmlFor="fine-amount" error={errors.amount} className="sm:max-w-xs">
          <AmountInput id="fine-amount" value={rule.amount} onChange={(e) => set({ amount: e.target.value })} />
        </Field>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label={texts.capMonth} htmlFor="fine-cap-month" error={errors.capPerMonth}>
          <AmountInput id="fine-cap-month" value={rule.capPerMonth} onChange={(e) => set({ capPerMonth: e.target.value })} />
        </Field>
        <Field label={texts.capSession} htmlFor="fine-cap-session" error={errors.capPerSession}>
          <AmountInput id="fine-cap-session" value={rule.capPerSession} onChange={(e) => set({ capPerSession: e.target.value })} />
        </Field>
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">{texts.fineHeads}</legend>
        <HeadPicker idPrefix="fine-head" value={rule.heads} onChange={(heads) => set({ heads })} />
        {errors.heads ? (
          <p role="alert" className="text-xs font-medium text-destructive">
            {errors.heads}
          </p>
        ) : null}
      </fieldset>
      {current ? <FineExample rule={current} /> : null}
      {errors.form ? (
        <p role="alert" className="text-sm text-destructive">
          {errors.form}
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? texts.saving : texts.save}
        </Button>
      </div>
    </form>
  );
}
