import { useQuery } from '@tanstack/react-query';
import { CalendarClockIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import { useMemo, useState, type FormEvent } from 'react';
import { CLASSES } from '@/domain/classes';
import { monthLabel } from '@/domain/ledger';
import { sessionMonths } from '@/domain/sessions';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Checkbox } from '@/web/components/ui/checkbox';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field, Label } from '@/web/components/ui/label';
import { serverMessage } from '@/web/lib/form-errors';
import { activeSessionQuery } from '@/web/lib/school-data';
import { plansQuery, useSavePlan, type InstalmentPlan, type PlanKind } from './api';
import { texts } from './texts';
import { useCan } from '@/web/app/permissions';

const DEFAULT_SCOPE = 'default';
const KINDS: PlanKind[] = ['monthly', 'quarterly', 'half_yearly', 'custom'];

/**
 * Settings → Collection plan: monthly (as today), quarterly, half-yearly or custom instalments, per
 * class or for the school. A plan changes when fees fall due, so it is for those who set up fees.
 */
export function InstalmentPlanCard() {
  const can = useCan();
  return can('fees.setup') ? <InstalmentPlanCardBody /> : null;
}

function InstalmentPlanCardBody() {
  const plans = useQuery(plansQuery);
  const [scope, setScope] = useState(DEFAULT_SCOPE);
  const saved = plans.data?.plans.find((p) => p.scope === scope) ??
    plans.data?.plans.find((p) => p.scope === DEFAULT_SCOPE) ?? { scope, kind: 'monthly' as const, dueDay: 10, custom: [] };
  return (
    <Card data-testid="instalment-plan-card">
      <CardHeader>
        <CardTitle level={2} className="flex items-center gap-2 text-base">
          <CalendarClockIcon className="size-5 text-primary" />
          {texts.plan}
        </CardTitle>
        <CardDescription>{texts.planDescription}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Field label={texts.planFor} htmlFor="plan-scope" className="sm:max-w-xs">
          <NativeSelect id="plan-scope" value={scope} onChange={(e) => setScope(e.target.value)}>
            <option value={DEFAULT_SCOPE}>{texts.wholeSchool}</option>
            {CLASSES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </NativeSelect>
        </Field>
        {plans.data ? <PlanForm key={`${scope}:${JSON.stringify(saved)}`} saved={{ ...saved, scope }} /> : null}
      </CardContent>
    </Card>
  );
}

function PlanForm({ saved }: { saved: InstalmentPlan }) {
  const active = useQuery(activeSessionQuery());
  const months = useMemo(() => (active.data ? sessionMonths(active.data.startDate, active.data.endDate) : []), [active.data]);
  const [kind, setKind] = useState<PlanKind>(saved.kind);
  const [dueDay, setDueDay] = useState(String(saved.dueDay));
  const [custom, setCustom] = useState(() => saved.custom.map((c) => ({ ...c, yearlyPercent: String(c.yearlyPercent) })));
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSavePlan();

  const setPart = (i: number, patch: Partial<(typeof custom)[number]>) => setCustom((list) => list.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const addPart = () => {
    const taken = new Set(custom.flatMap((c) => c.months));
    const first = months.find((m) => !taken.has(m.key));
    setCustom((list) => [
      ...list,
      { label: texts.instalmentLabel(list.length + 1), dueDate: first ? `${first.key}-10` : '', months: first ? [first.key] : [], yearlyPercent: list.length === 0 ? '100' : '0' },
    ]);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const day = /^\d{1,2}$/.test(dueDay.trim()) ? Number(dueDay) : Number.NaN;
    if (kind !== 'custom' && !(day >= 1 && day <= 28)) {
      setProblem(texts.dayRange);
      return;
    }
    const percents = custom.map((c) => Number(c.yearlyPercent));
    if (kind === 'custom' && percents.some((p) => !Number.isFinite(p) || p < 0 || p > 100)) {
      setProblem(texts.percentShare);
      return;
    }
    setProblem(null);
    save.mutate(
      { scope: saved.scope, kind, dueDay: Number.isNaN(day) ? 10 : day, custom: kind === 'custom' ? custom.map((c, i) => ({ ...c, yearlyPercent: percents[i]! })) : [] },
      {
        onSuccess: () => toast.success({ title: texts.planSaved }),
        onError: (error) => setProblem(serverMessage(error) ?? error.message),
      },
    );
  };

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate aria-label={texts.plan}>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label={texts.plan} htmlFor="plan-kind">
          <NativeSelect id="plan-kind" value={kind} onChange={(e) => setKind(e.target.value as PlanKind)}>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {texts.plans[k]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        {kind !== 'custom' ? (
          <Field label={texts.dueDay} htmlFor="plan-due-day" hint={texts.planDueHint}>
            <Input id="plan-due-day" inputMode="numeric" value={dueDay} onChange={(e) => setDueDay(e.target.value)} />
          </Field>
        ) : null}
      </div>
      {kind === 'custom' ? (
        <div className="grid gap-3">
          {custom.map((part, i) => (
            <fieldset key={i} className="grid gap-3 rounded-lg border p-3">
              <legend className="px-1 text-sm font-medium">{part.label || texts.instalmentLabel(i + 1)}</legend>
              <div className="grid gap-3 sm:grid-cols-[1fr_1fr_8rem_auto] sm:items-end">
                <Field label={texts.instalmentName} htmlFor={`plan-label-${i}`}>
                  <Input id={`plan-label-${i}`} value={part.label} maxLength={40} onChange={(e) => setPart(i, { label: e.target.value })} />
                </Field>
                <Field label={texts.dueOn} htmlFor={`plan-date-${i}`}>
                  <Input id={`plan-date-${i}`} type="date" value={part.dueDate} onChange={(e) => setPart(i, { dueDate: e.target.value })} />
                </Field>
                <Field label={texts.yearlyShare} htmlFor={`plan-share-${i}`}>
                  <Input id={`plan-share-${i}`} inputMode="decimal" value={part.yearlyPercent} onChange={(e) => setPart(i, { yearlyPercent: e.target.value })} />
                </Field>
                <Button type="button" variant="ghost" size="icon" aria-label={texts.removeInstalment} onClick={() => setCustom((l) => l.filter((_, j) => j !== i))}>
                  <Trash2Icon />
                </Button>
              </div>
              <div className="grid gap-1.5">
                <Label className="text-xs text-muted-foreground">{texts.monthsCollected}</Label>
                <div className="flex flex-wrap gap-x-3 gap-y-1.5">
                  {months.map((m) => (
                    <label key={m.key} htmlFor={`plan-${i}-${m.key}`} className="flex items-center gap-1.5 text-xs">
                      <Checkbox
                        id={`plan-${i}-${m.key}`}
                        checked={part.months.includes(m.key)}
                        onCheckedChange={(v) => setPart(i, { months: v === true ? [...part.months, m.key].sort() : part.months.filter((k) => k !== m.key) })}
                      />
                      {monthLabel(m.key)}
                    </label>
                  ))}
                </div>
              </div>
            </fieldset>
          ))}
          <div>
            <Button type="button" variant="outline" size="sm" onClick={addPart}>
              <PlusIcon />
              {texts.addInstalment}
            </Button>
          </div>
        </div>
      ) : null}
      {problem ? (
        <p role="alert" className="text-sm text-destructive">
          {problem}
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
