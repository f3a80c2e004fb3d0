import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '@/web/components/toaster';
import { AmountInput } from '@/web/components/ui/amount-input';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input, Textarea } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { Spinner } from '@/web/components/ui/spinner';
import { formatIndiaDateTime } from '@/domain/reports';
import { refusalMessage } from '@/web/lib/form-errors';
import { rupees } from '@/web/lib/format';
import { catalogueQuery, useSavePlan, type CatalogueEntry } from './subscriptions-api';
import { SUB_TEXTS } from './subscription-texts';

const T = SUB_TEXTS.catalogue;

function PlanEditor({ plan }: { plan: CatalogueEntry }) {
  const [monthly, setMonthly] = useState(plan.monthlyPrice);
  const [yearly, setYearly] = useState(plan.yearlyPrice);
  const [limit, setLimit] = useState(plan.studentLimit === null ? '' : String(plan.studentLimit));
  const [features, setFeatures] = useState(plan.features.join('\n'));
  const [discount, setDiscount] = useState(String(plan.firstTimeDiscountPercent));
  const [reason, setReason] = useState('');
  const save = useSavePlan();
  const id = (f: string) => `plan-${plan.id}-${f}`;

  const submit = async () => {
    try {
      const answer = await save.mutateAsync({
        id: plan.id,
        name: plan.name,
        monthlyPrice: monthly,
        yearlyPrice: yearly,
        studentLimit: limit.trim() === '' ? null : Number(limit),
        features: features.split('\n').map((l) => l.trim()).filter(Boolean),
        firstTimeDiscountPercent: Number(discount),
        reason,
      });
      setReason('');
      toast.success({ title: T.saved, description: answer.message });
    } catch (error) {
      toast.error({ title: T.failed, description: refusalMessage(error, T.failed) });
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{plan.name}</CardTitle>
        <CardDescription>
          {rupees(plan.monthlyPrice)} / month · {rupees(plan.yearlyPrice)} / year · {plan.studentLimit === null ? 'Unlimited students' : `Up to ${plan.studentLimit} students`}
          {plan.recommended ? ' · MOST POPULAR' : ''}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form
          className="grid gap-4 sm:grid-cols-2"
          aria-label={`Edit ${plan.name}`}
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Field label={T.monthly} htmlFor={id('monthly')}>
            <AmountInput id={id('monthly')} value={monthly} onChange={(e) => setMonthly(e.target.value)} required />
          </Field>
          <Field label={T.yearly} htmlFor={id('yearly')}>
            <AmountInput id={id('yearly')} value={yearly} onChange={(e) => setYearly(e.target.value)} required />
          </Field>
          <Field label={T.limit} htmlFor={id('limit')}>
            <Input id={id('limit')} type="number" inputMode="numeric" min={1} value={limit} onChange={(e) => setLimit(e.target.value)} />
          </Field>
          <Field label={T.discount} htmlFor={id('discount')}>
            <Input id={id('discount')} type="number" inputMode="numeric" min={0} max={90} value={discount} onChange={(e) => setDiscount(e.target.value)} required />
          </Field>
          <Field label={T.features} htmlFor={id('features')} className="sm:col-span-2">
            <Textarea id={id('features')} rows={5} value={features} onChange={(e) => setFeatures(e.target.value)} />
          </Field>
          <Field label={SUB_TEXTS.reason} htmlFor={id('reason')} className="sm:col-span-2">
            <Input id={id('reason')} value={reason} onChange={(e) => setReason(e.target.value)} placeholder="e.g. New price list for 2027-28" required minLength={3} />
          </Field>
          <Button type="submit" disabled={save.isPending} className="sm:col-span-2 sm:justify-self-start">
            {save.isPending ? 'Saving...' : T.save}
          </Button>
        </form>
        <details className="text-sm">
          <summary className="cursor-pointer font-medium">{T.history} ({plan.history.length})</summary>
          {plan.history.length === 0 ? (
            <p className="mt-2 text-muted-foreground">{T.noHistory}</p>
          ) : (
            <ul className="mt-2 grid gap-2">
              {plan.history.map((h, i) => (
                <li key={i} className="rounded-md border p-2">
                  <div className="font-medium">{formatIndiaDateTime(new Date(h.changedAt))} · {h.changedBy ?? 'unknown'}</div>
                  <div className="text-muted-foreground">{h.reason}</div>
                  <div className="text-xs text-muted-foreground">
                    {rupees(String(h.before.yearlyPrice))} → {rupees(String(h.after.yearlyPrice))} / year · discount {String(h.before.firstTimeDiscountPercent)}% → {String(h.after.firstTimeDiscountPercent)}%
                  </div>
                </li>
              ))}
            </ul>
          )}
        </details>
      </CardContent>
    </Card>
  );
}

/** The plan catalogue editor (ruling 11, issue 12): the one source of prices, changed for new orders only. */
export function PlanCatalogueTab() {
  const catalogue = useQuery(catalogueQuery());
  if (catalogue.isPending) return <div className="flex justify-center py-16"><Spinner label="Loading plans" /></div>;
  if (catalogue.isError) return <p role="alert" className="py-16 text-center text-sm text-destructive">Unable to load plans: {catalogue.error.message}</p>;
  return (
    <div className="grid gap-4">
      <div>
        <h2 className="text-lg font-semibold">{T.title}</h2>
        <p className="text-sm text-muted-foreground">{T.intro}</p>
      </div>
      {catalogue.data.map((plan) => (
        <PlanEditor key={`${plan.id}-${plan.updatedAt}`} plan={plan} />
      ))}
    </div>
  );
}
