import { CheckIcon, CreditCardIcon } from 'lucide-react';
import { formatINR, type Paise } from '@/domain/money';
import type { BillingCycle } from '@/domain/plans';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/web/components/ui/card';
import { studentLimitText, type Plan } from '@/web/lib/plans-api';
import { cn } from '@/web/lib/utils';
import { TEXTS } from './texts';

/** A card's price lines, in paise: the server's quote once it has arrived, the catalogue's until then. */
export interface CardPrice {
  base: Paise;
  discount: Paise;
  credit: Paise;
  gst: Paise;
  total: Paise;
  undiscountedTotal: Paise;
}

const T = TEXTS.card;

export function PlanCard({
  plan,
  includes,
  extras,
  cycle,
  price,
  note,
  refused,
  busy,
  disabled,
  onPay,
}: {
  plan: Plan;
  /** the cheaper plan this one contains, so the card lists only what it adds */
  includes: Plan | null;
  extras: string[];
  cycle: BillingCycle;
  price: CardPrice;
  /** what buying it would do ("Basic from 22 Nov 2027") */
  note: string | null;
  /** why it cannot be bought now */
  refused: string | null;
  busy: boolean;
  disabled: boolean;
  onPay: () => void;
}) {
  const breakdown = price;
  // the catalogue's lines only: platform §2's hard-coded "Get new features first" promised what nothing provides (issue 12 item 7)
  const features = extras;
  return (
    <Card className={cn('relative flex flex-col', plan.recommended && 'border-primary shadow-md ring-1 ring-primary')}>
      {plan.recommended ? <Badge className="absolute -top-3 left-1/2 -translate-x-1/2 shadow-sm">{T.mostPopular}</Badge> : null}
      <CardHeader className="pb-3 sm:pb-3">
        <CardTitle className="text-xl">{plan.name}</CardTitle>
        <p>
          <span className="text-3xl font-bold tracking-tight">{formatINR(breakdown.base, { decimals: false })}</span>
          <span className="text-muted-foreground">{T.per(cycle)}</span>
        </p>
        <p className="text-sm font-medium text-muted-foreground">{studentLimitText(plan.studentLimit)}</p>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">
        {includes ? <p className="-mb-2 text-sm font-medium">{T.everythingIn(includes.name, features.length > 0)}</p> : null}
        <ul className="grid gap-1.5 text-sm">
          {features.map((f) => (
            <li key={f} className="flex items-start gap-2">
              <CheckIcon className="mt-0.5 size-4 shrink-0 text-success" />
              <span>{f}</span>
            </li>
          ))}
        </ul>
        <dl className="mt-auto grid gap-1 rounded-lg bg-muted/60 p-3 text-sm" aria-label={T.breakdown(plan.name)}>
          <Row label={T.planPrice(cycle)} value={formatINR(breakdown.base)} />
          {breakdown.discount > 0 ? (
            <Row label={T.discount} value={`−${formatINR(breakdown.discount)}`} className="text-success" />
          ) : null}
          {breakdown.credit > 0 ? (
            <Row label={T.credit} value={`−${formatINR(breakdown.credit)}`} className="text-success" />
          ) : null}
          <Row label={T.gst} value={formatINR(breakdown.gst)} />
          <div className="mt-1 flex items-baseline justify-between gap-2 border-t pt-2 font-semibold">
            <dt>{T.total}</dt>
            <dd className="text-right">
              {breakdown.discount > 0 ? (
                <s className="mr-2 text-xs font-normal text-muted-foreground" aria-label={T.fullPrice(formatINR(breakdown.undiscountedTotal))}>
                  {formatINR(breakdown.undiscountedTotal)}
                </s>
              ) : null}
              <span className="text-base">{formatINR(breakdown.total)}</span>
            </dd>
          </div>
        </dl>
        {refused ? (
          <p className="text-sm text-muted-foreground">{refused}</p>
        ) : note ? (
          <p className="text-sm font-medium text-primary">{note}</p>
        ) : null}
      </CardContent>
      <CardFooter>
        <Button className="w-full" size="lg" variant={plan.recommended ? 'default' : 'outline'} onClick={onPay} disabled={disabled || refused !== null}>
          <CreditCardIcon />
          {busy ? T.processing : T.pay}
        </Button>
      </CardFooter>
    </Card>
  );
}

function Row({ label, value, className }: { label: string; value: string; className?: string }) {
  return (
    <div className={cn('flex justify-between gap-2', className)}>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}
