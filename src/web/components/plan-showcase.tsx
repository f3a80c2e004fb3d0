import { useQuery } from '@tanstack/react-query';
import { CheckIcon } from 'lucide-react';
import { rupees } from '@/web/lib/format';
import { planHighlights } from '@/web/lib/plan-features';
import { plansQuery, studentLimitText } from '@/web/lib/plans-api';
import { cn } from '@/web/lib/utils';
import { Badge } from './ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from './ui/card';

/** The plans shown under the sign-in form, straight from the catalogue. */
export function PlanShowcase() {
  const plans = useQuery(plansQuery());
  if (!plans.data?.length) return null;
  return (
    <section aria-labelledby="plans-heading" className="mt-12">
      <h2 id="plans-heading" className="text-center text-xl font-semibold">Plans for every school</h2>
      <p className="mx-auto mb-6 mt-1 max-w-xl text-center text-sm text-muted-foreground">
        Start with a 5-day free trial. No card needed. Prices exclude 18% GST; your first subscription is 50% off.
      </p>
      <div className="grid gap-4 md:grid-cols-3">
        {planHighlights(plans.data).map(({ plan, includes, extras }) => (
          <Card key={plan.id} className={cn('flex flex-col', plan.recommended && 'border-primary ring-1 ring-primary')}>
            <CardHeader className="pb-3 sm:pb-3">
              <div className="flex items-center justify-between gap-2">
                <CardTitle>{plan.name}</CardTitle>
                {plan.recommended ? <Badge>MOST POPULAR</Badge> : null}
              </div>
              <p>
                <span className="text-2xl font-bold">{rupees(plan.monthlyPrice, { decimals: false })}</span>
                <span className="text-sm text-muted-foreground">/month</span>
              </p>
              <p className="text-xs text-muted-foreground">
                or {rupees(plan.yearlyPrice, { decimals: false })}/year · {studentLimitText(plan.studentLimit)}
              </p>
            </CardHeader>
            <CardContent className="flex-1">
              {includes ? <p className="mb-2 text-sm font-medium">Everything in {includes.name}{extras.length > 0 ? ', plus:' : ''}</p> : null}
              <ul className="grid gap-1.5 text-sm text-muted-foreground">
                {extras.map((f) => (
                  <li key={f} className="flex items-start gap-2">
                    <CheckIcon className="mt-0.5 size-4 shrink-0 text-success" />
                    <span>{f}</span>
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
