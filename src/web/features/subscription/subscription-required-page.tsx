import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeftIcon, CalendarXIcon, CheckCircle2Icon, FlaskConicalIcon, LockKeyholeIcon, RefreshCwIcon, ShieldCheckIcon, ZapIcon } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { paise, parseRupees } from '@/domain/money';
import type { BillingCycle } from '@/domain/plans';
import { useSession } from '@/web/app/session';
import { AuthLayout } from '@/web/components/auth-layout';
import { useCheckout } from '@/web/components/checkout-dialog';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { FullPageSpinner, Spinner } from '@/web/components/ui/spinner';
import { CheckoutUnavailableError, orderIdOf } from '@/web/lib/checkout';
import type { School } from '@/web/lib/me-api';
import { ME_KEY } from '@/web/lib/me-api';
import { planHighlights } from '@/web/lib/plan-features';
import { plansQuery, type Plan } from '@/web/lib/plans-api';
import { ApiError } from '@/web/lib/request';
import { cn } from '@/web/lib/utils';
import { QUOTES_KEY, subscriptionApi, type PlanQuote } from './api';
import { PlanCard, type CardPrice } from './plan-card';
import { planPrice } from './pricing';
import { changeText, currentPlanText, queuedPlanText, TEXTS } from './texts';

/** Platform §9: after a successful payment the page moves on after 2 s. */
const SUCCESS_REDIRECT_MS = 2_000;

/**
 * Plan and payment (platform §2). The school pays from its own session: a school whose trial or
 * plan has ended signs in to a read-only session that may still pay (rulings 14, 29), so the page
 * never needs a school id from its link.
 */
export function SubscriptionRequiredPage() {
  const { status, me } = useSession();
  const [paid, setPaid] = useState<string | null>(null);

  if (paid) return <PaymentSuccess planName={paid} />;
  if (status === 'loading') return <FullPageSpinner text="Checking authentication..." />;

  const school = me?.user.role === 'school_admin' ? me.school : null;
  if (school) return <PlanChooser school={school} email={me?.user.email} onPaid={setPaid} />;
  return <Unauthenticated />;
}

function Unauthenticated() {
  return (
    <AuthLayout>
      <Card>
        <CardHeader className="items-center text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <LockKeyholeIcon className="size-6" />
          </span>
          <CardTitle className="text-2xl">{TEXTS.authTitle}</CardTitle>
          <CardDescription>{TEXTS.authText}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-2">
          <p className="text-center text-sm text-muted-foreground">{TEXTS.authHint}</p>
          <Button asChild size="lg">
            <Link to="/login">{TEXTS.goToLogin}</Link>
          </Button>
          <Button variant="ghost" onClick={() => window.location.reload()}>
            <RefreshCwIcon />
            {TEXTS.refresh}
          </Button>
        </CardContent>
      </Card>
    </AuthLayout>
  );
}

const toPaise = (amount: string) => parseRupees(amount) ?? paise(0);

/** The card's lines from the server's quote, or from the catalogue while the quote loads. */
function cardPrice(plan: Plan, cycle: BillingCycle, firstSubscription: boolean, quote: PlanQuote | undefined): CardPrice {
  if (quote?.price) {
    const p = quote.price;
    return {
      base: toPaise(p.base),
      discount: toPaise(p.discount),
      credit: toPaise(p.credit),
      gst: toPaise(p.gst),
      total: toPaise(p.total),
      undiscountedTotal: toPaise(p.undiscountedTotal),
    };
  }
  const { breakdown } = planPrice(plan, cycle, firstSubscription);
  return { ...breakdown, credit: paise(0) };
}

function PlanChooser({ school, email, onPaid }: { school: School; email?: string; onPaid: (planName: string) => void }) {
  const plans = useQuery(plansQuery());
  const [cycle, setCycle] = useState<BillingCycle>('yearly');
  const quotes = useQuery(subscriptionApi.quotes(cycle));
  const queryClient = useQueryClient();
  const [processing, setProcessing] = useState<Plan['id'] | null>(null);
  const checkout = useCheckout();
  const expired = school.isExpired;
  const firstSubscription = !school.hasPaidSubscription;
  const planName = (id: string) => plans.data?.find((p) => p.id === id)?.name ?? id;

  const pay = async (plan: Plan, price: CardPrice) => {
    setProcessing(plan.id);
    try {
      let order;
      try {
        order = await subscriptionApi.createOrder({ planType: plan.id, amount: price.total, billingCycle: cycle });
      } catch (error) {
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) toast.error(TEXTS.sessionExpired);
        else if (error instanceof ApiError && error.status === 409) toast.error({ title: TEXTS.paymentError.title, description: error.message });
        else toast.error(TEXTS.paymentError);
        return;
      }
      if (!orderIdOf(order)) {
        toast.error(TEXTS.orderFailed);
        return;
      }
      let outcome;
      try {
        outcome = await checkout.open(order, { name: 'School Ledger', email, schoolName: school.name });
      } catch (error) {
        const description =
          error instanceof CheckoutUnavailableError || (error instanceof ApiError && error.status === 409) ? error.message : TEXTS.paymentError.description;
        toast.error({ title: TEXTS.paymentError.title, description });
        return;
      }
      // closing the payment window only clears the processing state (platform §4)
      if (outcome === 'dismissed') return;
      try {
        await subscriptionApi.verify({ ...outcome, planType: plan.id });
      } catch (error) {
        const description = error instanceof ApiError && error.status === 409 ? error.message : TEXTS.verifyFailed.description;
        toast.error({ title: TEXTS.verifyFailed.title, description });
        return;
      } finally {
        await queryClient.invalidateQueries({ queryKey: QUOTES_KEY });
      }
      await queryClient.invalidateQueries({ queryKey: ME_KEY });
      onPaid(plan.name);
    } finally {
      setProcessing(null);
    }
  };

  const byPlan = new Map((quotes.data?.quotes ?? []).map((q) => [q.planId, q]));
  const running = !expired && school.subscriptionStatus !== 'trial';
  return (
    <AuthLayout width="wide">
      <div className="mx-auto mb-8 max-w-2xl text-center">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{expired ? TEXTS.expiredTitle : TEXTS.chooseTitle}</h1>
        <p className="mt-2 text-muted-foreground">{expired ? TEXTS.expiredText : TEXTS.chooseText}</p>
        <p className="mt-1 text-sm">
          For <span className="font-semibold">{school.name}</span>
        </p>
        {running ? (
          <p className="mt-1 text-sm text-muted-foreground">
            {currentPlanText(planName(school.subscriptionPlan), school.planEndDate)}
            {school.queuedPlan ? <> {queuedPlanText(planName(school.queuedPlan.plan), school.queuedPlan.startDate)}</> : null}
          </p>
        ) : null}
        <CycleToggle value={cycle} onChange={setCycle} />
      </div>

      {quotes.data?.testMode ? (
        <Alert variant="info" className="mx-auto mb-6 max-w-2xl">
          <FlaskConicalIcon />
          <AlertTitle>{TEXTS.testTitle}</AlertTitle>
          <AlertDescription>{TEXTS.testText}</AlertDescription>
        </Alert>
      ) : null}

      {plans.isPending ? (
        <div className="flex justify-center py-16"><Spinner label="Loading plans" /></div>
      ) : plans.isError ? (
        <p role="alert" className="py-16 text-center text-sm text-destructive">{TEXTS.plansFailed}</p>
      ) : (
        <div className="grid gap-6 pt-3 md:grid-cols-3">
          {planHighlights(plans.data).map(({ plan, includes, extras }) => {
            const quote = byPlan.get(plan.id);
            const price = cardPrice(plan, cycle, firstSubscription, quote);
            return (
              <PlanCard
                key={plan.id}
                plan={plan}
                includes={includes}
                extras={extras}
                cycle={cycle}
                price={price}
                note={quote?.change ? changeText(plan.name, quote.change, price.credit, cycle) : null}
                refused={quote?.refused ?? null}
                busy={processing === plan.id}
                disabled={processing !== null || !quote}
                onPay={() => void pay(plan, price)}
              />
            );
          })}
        </div>
      )}

      <div className="mt-8 grid gap-3 sm:grid-cols-3">
        <Tile icon={<ShieldCheckIcon />} title="Secure Payments" text="UPI, Cards, NetBanking" />
        <Tile icon={<ZapIcon />} title="Instant Activation" text="Your plan starts the moment the payment succeeds" />
        <Tile icon={<CalendarXIcon />} title="Cancel Anytime" text="No renewal after you cancel; access runs to the end of the period" />
      </div>

      <div className="mt-8 flex justify-center">
        <Button variant="ghost" asChild>
          <Link to="/school/dashboard">
            <ArrowLeftIcon />
            {TEXTS.backToDashboard}
          </Link>
        </Button>
      </div>
      {checkout.dialog}
    </AuthLayout>
  );
}

function CycleToggle({ value, onChange }: { value: BillingCycle; onChange: (c: BillingCycle) => void }) {
  const option = (cycle: BillingCycle, label: string) => (
    <button
      type="button"
      aria-pressed={value === cycle}
      onClick={() => onChange(cycle)}
      className={cn(
        'cursor-pointer rounded-md px-4 py-1.5 text-sm font-medium transition-colors',
        value === cycle ? 'bg-card text-foreground shadow-sm' : 'text-muted-foreground hover:text-foreground',
      )}
    >
      {label}
    </button>
  );
  return (
    <div role="group" aria-label="Billing cycle" className="mt-5 inline-flex rounded-lg bg-muted p-1">
      {option('monthly', 'Monthly')}
      {option('yearly', 'Yearly')}
    </div>
  );
}

function Tile({ icon, title, text }: { icon: ReactNode; title: string; text: string }) {
  return (
    <div className="flex items-start gap-3 rounded-lg border bg-card p-4 shadow-sm">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary [&_svg]:size-4">{icon}</span>
      <div>
        <p className="font-medium">{title}</p>
        <p className="text-sm text-muted-foreground">{text}</p>
      </div>
    </div>
  );
}

function PaymentSuccess({ planName }: { planName: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate('/login'), SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <AuthLayout>
      <Card>
        <CardHeader className="items-center text-center">
          <CheckCircle2Icon className="size-12 text-success" />
          <CardTitle className="text-2xl">{TEXTS.successTitle}</CardTitle>
          <CardDescription>{TEXTS.success(planName)}</CardDescription>
        </CardHeader>
      </Card>
    </AuthLayout>
  );
}
