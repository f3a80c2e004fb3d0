import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeftIcon, CalendarXIcon, CheckCircle2Icon, LockKeyholeIcon, RefreshCwIcon, ShieldCheckIcon, ZapIcon } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { BillingCycle, PlanId } from '@/domain/plans';
import { useSession } from '@/web/app/session';
import { AuthLayout } from '@/web/components/auth-layout';
import { useCheckout } from '@/web/components/checkout-dialog';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { FullPageSpinner, Spinner } from '@/web/components/ui/spinner';
import { CheckoutUnavailableError, orderIdOf } from '@/web/lib/checkout';
import { ME_KEY } from '@/web/lib/me-api';
import { planHighlights } from '@/web/lib/plan-features';
import { plansQuery, type Plan } from '@/web/lib/plans-api';
import { ApiError } from '@/web/lib/request';
import { cn } from '@/web/lib/utils';
import { subscriptionApi, type QuickSession } from './api';
import { PlanCard } from './plan-card';
import { planPrice } from './pricing';

/** Platform §9: after a successful payment the page goes to /login after 2 s. */
const SUCCESS_REDIRECT_MS = 2_000;

/** Plan and payment for a school whose trial or plan has ended (platform §2). */
export function SubscriptionRequiredPage() {
  const { schoolId } = useParams();
  const { status, me } = useSession();
  // the quick-login token is kept in memory only: it pays, and dies with the page
  const [quick, setQuick] = useState<QuickSession | null>(null);
  const [paid, setPaid] = useState<string | null>(null);

  if (paid) return <PaymentSuccess planName={paid} />;
  if (status === 'loading') return <FullPageSpinner text="Checking authentication..." />;

  const school = me?.user.role === 'school_admin' ? me.school : null;
  if (school) {
    return (
      <PlanChooser
        schoolName={school.name}
        email={me?.user.email}
        expired={school.isExpired}
        firstSubscription={!school.hasPaidSubscription}
        onPaid={setPaid}
      />
    );
  }
  if (quick) {
    return (
      <PlanChooser
        schoolName={quick.schoolName}
        quick={quick}
        expired
        firstSubscription={!quick.hasPaidSubscription}
        onPaid={setPaid}
        onSessionLost={() => setQuick(null)}
      />
    );
  }
  return <Unauthenticated schoolId={schoolId} onQuickSession={setQuick} />;
}

function Unauthenticated({ schoolId, onQuickSession }: { schoolId: string | undefined; onQuickSession: (q: QuickSession) => void }) {
  const [busy, setBusy] = useState(false);
  const quickPay = async () => {
    if (!schoolId) return;
    setBusy(true);
    try {
      const session = await subscriptionApi.quickLogin(schoolId);
      toast.success({ title: 'Authentication Success', description: `You can now choose a plan for ${session.schoolName}.` });
      onQuickSession(session);
    } catch {
      toast.error({ title: 'Authentication Failed', description: 'Unable to create temporary session' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthLayout>
      <Card>
        <CardHeader className="items-center text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <LockKeyholeIcon className="size-6" />
          </span>
          <CardTitle className="text-2xl">Authentication Required</CardTitle>
          <CardDescription>Please log in to renew your subscription and continue using the school management system.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-2">
          <Button onClick={quickPay} disabled={!schoolId || busy} size="lg">
            <ZapIcon />
            {busy ? 'Connecting...' : 'Quick Pay Now'}
          </Button>
          {!schoolId ? (
            <p className="text-center text-xs text-muted-foreground">Quick Pay works from the link shown when you sign in. Otherwise, sign in first.</p>
          ) : null}
          <Button variant="outline" asChild>
            <Link to="/login">Go to Login</Link>
          </Button>
          <Button variant="ghost" onClick={() => window.location.reload()}>
            <RefreshCwIcon />
            Refresh Page
          </Button>
        </CardContent>
      </Card>
    </AuthLayout>
  );
}

function PlanChooser({
  schoolName,
  email,
  quick,
  expired,
  firstSubscription,
  onPaid,
  onSessionLost,
}: {
  schoolName: string;
  email?: string;
  quick?: QuickSession;
  expired: boolean;
  firstSubscription: boolean;
  onPaid: (planName: string) => void;
  onSessionLost?: () => void;
}) {
  const plans = useQuery(plansQuery());
  const queryClient = useQueryClient();
  const [cycle, setCycle] = useState<BillingCycle>('yearly');
  const [processing, setProcessing] = useState<PlanId | null>(null);

  const checkout = useCheckout();

  const pay = async (plan: Plan) => {
    setProcessing(plan.id);
    const { breakdown } = planPrice(plan, cycle, firstSubscription);
    try {
      let order;
      try {
        order = await subscriptionApi.createOrder({ planType: plan.id, amount: breakdown.total, billingCycle: cycle }, quick?.token);
      } catch (error) {
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
          toast.error({ title: 'Session Expired', description: 'Please sign in again to continue with payment.' });
          onSessionLost?.();
        } else {
          toast.error({ title: 'Payment Error', description: 'Failed to initiate payment. Please try again.' });
        }
        return;
      }
      if (!orderIdOf(order)) {
        toast.error({ title: 'Payment Error', description: 'Failed to create payment order' });
        return;
      }
      let outcome;
      try {
        outcome = await checkout.open(order, { name: 'School Ledger', email, schoolName, token: quick?.token });
      } catch (error) {
        const description = error instanceof CheckoutUnavailableError ? error.message : 'Failed to initiate payment. Please try again.';
        toast.error({ title: 'Payment Error', description });
        return;
      }
      // closing the payment window only clears the processing state (platform §4)
      if (outcome === 'dismissed') return;
      try {
        await subscriptionApi.verify({ ...outcome, planType: plan.id, schoolId: quick?.schoolId }, quick?.token);
      } catch {
        toast.error({ title: 'Payment Verification Failed', description: 'Please contact support if payment was deducted.' });
        return;
      }
      await queryClient.invalidateQueries({ queryKey: ME_KEY });
      onPaid(plan.name);
    } finally {
      setProcessing(null);
    }
  };

  return (
    <AuthLayout width="wide">
      <div className="mx-auto mb-8 max-w-2xl text-center">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{expired ? 'Subscription Required' : 'Choose Your Plan'}</h1>
        <p className="mt-2 text-muted-foreground">
          {expired
            ? 'Your trial period has ended. Choose a plan to continue using our services.'
            : 'Pick the plan that fits your school. It starts as soon as the payment succeeds.'}
        </p>
        <p className="mt-1 text-sm">
          For <span className="font-semibold">{schoolName}</span>
        </p>
        <CycleToggle value={cycle} onChange={setCycle} />
      </div>

      {plans.isPending ? (
        <div className="flex justify-center py-16"><Spinner label="Loading plans" /></div>
      ) : plans.isError ? (
        <p role="alert" className="py-16 text-center text-sm text-destructive">Unable to load the plans. Please refresh the page.</p>
      ) : (
        <div className="grid gap-6 pt-3 md:grid-cols-3">
          {planHighlights(plans.data).map(({ plan, includes, extras }) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              includes={includes}
              extras={extras}
              cycle={cycle}
              firstSubscription={firstSubscription}
              busy={processing === plan.id}
              disabled={processing !== null}
              onPay={() => void pay(plan)}
            />
          ))}
        </div>
      )}

      <div className="mt-8 grid gap-3 sm:grid-cols-3">
        <Tile icon={<ShieldCheckIcon />} title="Secure Payments" text="UPI, Cards, NetBanking" />
        <Tile icon={<ZapIcon />} title="Instant Activation" text="Your plan starts the moment the payment succeeds" />
        <Tile icon={<CalendarXIcon />} title="Cancel Anytime" text="No renewal after you cancel; access runs to the end of the period" />
      </div>

      <div className="mt-8 flex justify-center">
        <Button variant="ghost" asChild>
          <Link to="/login">
            <ArrowLeftIcon />
            Back to Login
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
          <CardTitle className="text-2xl">Payment Successful!</CardTitle>
          <CardDescription>Your {planName} plan is active. Taking you to sign in…</CardDescription>
        </CardHeader>
      </Card>
    </AuthLayout>
  );
}
