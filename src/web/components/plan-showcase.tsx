import { useQuery } from '@tanstack/react-query';
import { CheckIcon } from 'lucide-react';
import { rupees } from '@/web/lib/format';
import { plansQuery, studentLimitText } from '@/web/lib/plans-api';
import { Badge } from './ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from './ui/card';

/** The plans shown under the sign-in form, straight from the catalogue. */
export function PlanShowcase() {
  const plans = useQuery(plansQuery());
  if (!plans.data?.length) return null;
  return (
    <section aria-labelledby="plans-heading" className="mt-10">
      <h2 id="plans-heading" className="text-center text-lg font-semibold">Plans for every school</h2>
      <p className="mb-4 text-center text-sm text-muted-foreground">Start with a 5-day free trial. No card needed. Prices exclude 18% GST.</p>
      <div className="grid gap-3">
        {plans.data.map((plan) => (
          <Card key={plan.id} className={plan.recommended ? 'border-primary ring-1 ring-primary' : ''}>
            <CardHeader className="pb-2 sm:pb-2">
              <div className="flex items-center justify-between gap-2">
                <CardTitle className="text-base">{plan.name}</CardTitle>
                {plan.recommended ? <Badge>MOST POPULAR</Badge> : null}
              </div>
              <p className="text-sm">
                <span className="text-xl font-bold">{rupees(plan.monthlyPrice, { decimals: false })}</span>
                <span className="text-muted-foreground">/month</span>
                <span className="text-muted-foreground"> · {rupees(plan.yearlyPrice, { decimals: false })}/year</span>
              </p>
              <p className="text-xs text-muted-foreground">{studentLimitText(plan.studentLimit)}</p>
            </CardHeader>
            <CardContent>
              <ul className="grid gap-1 text-sm text-muted-foreground">
                {plan.features.slice(0, 5).map((f) => (
                  <li key={f} className="flex items-center gap-2">
                    <CheckIcon className="size-3.5 text-success" />
                    {f}
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        ))}
      </div>
    </section>
  );
}
