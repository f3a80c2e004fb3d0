import { useQuery } from '@tanstack/react-query';
import { CheckIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { SiteFooter } from '@/web/components/auth-layout';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Spinner } from '@/web/components/ui/spinner';
import { rupees } from '@/web/lib/format';
import { plansQuery, studentLimitText, type Plan } from '@/web/lib/plans-api';
import { cn } from '@/web/lib/utils';
import { FACTS } from './policy-facts';
import { SiteHeader } from './site-header';
import { SITE_TEXTS } from './site-texts';

const T = SITE_TEXTS.pricing;
type Cycle = 'monthly' | 'yearly';

/** Lines every plan of the catalogue has: shown once above the cards. */
function sharedFeatures(plans: readonly Plan[]): string[] {
  const [first, ...others] = plans;
  return first ? first.features.filter((f) => others.every((p) => p.features.includes(f))) : [];
}

/** /pricing: the catalogue (ruling 11) with a monthly/yearly switch; prices exclude GST. */
export function PricingPage() {
  const plans = useQuery(plansQuery());
  const [cycle, setCycle] = useState<Cycle>('yearly');
  const shared = plans.data ? sharedFeatures(plans.data) : [];
  return (
    <div className="flex min-h-dvh flex-col bg-background">
      <SiteHeader />
      <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-10">
        <div className="text-center">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{T.title}</h1>
          <p className="mt-2 text-muted-foreground">{T.body}</p>
          <div role="radiogroup" aria-label="Billing" className="mt-6 inline-flex rounded-lg border bg-muted p-1">
            {(['monthly', 'yearly'] as const).map((c) => (
              <button
                key={c}
                type="button"
                role="radio"
                aria-checked={cycle === c}
                onClick={() => setCycle(c)}
                className={cn('rounded-md px-4 py-1.5 text-sm font-medium', cycle === c ? 'bg-background shadow-sm' : 'text-muted-foreground')}
              >
                {c === 'monthly' ? T.monthly : T.yearly}
              </button>
            ))}
          </div>
          <p className="mt-3 text-xs text-muted-foreground">{T.gst(FACTS.gstPercent, FACTS.firstSubscriptionDiscountPercent)}</p>
        </div>

        {plans.isPending ? (
          <div className="flex justify-center py-16"><Spinner label="Loading plans" /></div>
        ) : plans.isError ? (
          <p role="alert" className="py-16 text-center text-sm text-destructive">{T.loadFailed}</p>
        ) : (
          <>
            <div className="mt-8 grid gap-6 md:grid-cols-3">
              {plans.data.map((plan) => {
                const own = plan.features.filter((f) => !shared.includes(f));
                return (
                  <Card key={plan.id} data-plan={plan.id} className={cn('relative flex flex-col', plan.recommended && 'border-primary shadow-md ring-1 ring-primary')}>
                    {plan.recommended ? <Badge className="absolute -top-3 left-1/2 -translate-x-1/2 shadow-sm">{T.mostPopular}</Badge> : null}
                    <CardHeader className="pb-3 sm:pb-3">
                      <CardTitle className="text-xl">{plan.name}</CardTitle>
                      <p>
                        <span className="text-3xl font-bold tracking-tight" data-testid={`price-${plan.id}`}>
                          {rupees(cycle === 'monthly' ? plan.monthlyPrice : plan.yearlyPrice, { decimals: false })}
                        </span>
                        <span className="text-sm text-muted-foreground">{cycle === 'monthly' ? T.perMonth : T.perYear}</span>
                      </p>
                      <p className="text-sm font-medium">{studentLimitText(plan.studentLimit)}</p>
                    </CardHeader>
                    <CardContent className="flex-1">
                      {own.length > 0 ? (
                        <ul className="grid gap-1.5 text-sm text-muted-foreground">
                          {own.map((f) => (
                            <li key={f} className="flex items-start gap-2">
                              <CheckIcon className="mt-0.5 size-4 shrink-0 text-success" />
                              {f}
                            </li>
                          ))}
                        </ul>
                      ) : null}
                    </CardContent>
                    <CardFooter>
                      <Button asChild className="w-full" variant={plan.recommended ? 'default' : 'outline'}>
                        <Link to="/register">{T.start}</Link>
                      </Button>
                    </CardFooter>
                  </Card>
                );
              })}
            </div>
            {shared.length > 0 ? (
              <section aria-labelledby="every-plan" className="mx-auto mt-10 max-w-3xl rounded-xl border bg-card p-5 sm:p-6">
                <h2 id="every-plan" className="font-semibold">{T.everyPlan}</h2>
                <ul className="mt-3 grid gap-2 text-sm text-muted-foreground sm:grid-cols-2">
                  {shared.map((f) => (
                    <li key={f} className="flex items-start gap-2">
                      <CheckIcon className="mt-0.5 size-4 shrink-0 text-success" />
                      {f}
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}
          </>
        )}

        <p className="mt-10 text-center text-sm text-muted-foreground">
          {T.questions}{' '}
          <Link to="/contact" className="font-medium text-primary hover:underline">{T.contact}</Link>
          {' · '}
          <Link to="/refunds" className="font-medium text-primary hover:underline">{T.refunds}</Link>
        </p>
      </main>
      <SiteFooter />
    </div>
  );
}
