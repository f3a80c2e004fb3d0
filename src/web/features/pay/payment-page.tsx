import { useQuery } from '@tanstack/react-query';
import { AlertTriangleIcon, XCircleIcon } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useCheckout } from '@/web/components/checkout-dialog';
import { Button } from '@/web/components/ui/button';
import { Spinner } from '@/web/components/ui/spinner';
import { openRazorpayCheckout, type CheckoutOrder } from '@/web/lib/checkout';
import { refusalMessage } from '@/web/lib/form-errors';
import { orderPaise, payApi, payLinkQuery, payMethodsQuery, type PaidAnswer } from './api';
import { Bi, PayFrame, StateCard } from './pay-parts';
import { both, feeTypeLabel, PAY_LABELS, PAY_TEXTS } from './texts';

type Step = { kind: 'preparing' } | { kind: 'verifying' } | { kind: 'dismissed' } | { kind: 'failed'; message: string };

/**
 * /payment?linkToken= (operations §2): creates the order, opens the school's gateway (Razorpay's
 * Checkout, or the sandbox's test dialog), verifies the signed answer and shows the receipt.
 */
export function PaymentPage() {
  const [params] = useSearchParams();
  const token = params.get('linkToken') ?? '';
  const navigate = useNavigate();
  const link = useQuery({ ...payLinkQuery(token), enabled: token !== '' });
  const methods = useQuery({ ...payMethodsQuery(token), enabled: token !== '' });
  // a parent has no session: the link's own sandbox checkout signs the test payment
  const sandbox = useCheckout({ pay: (orderId) => payApi.sandboxCheckout(token, orderId), notice: both(PAY_TEXTS.sandboxNotice) });
  const openSandbox = sandbox.open;
  const [step, setStep] = useState<Step>({ kind: 'preparing' });
  const started = useRef(false);

  const run = useCallback(async () => {
    if (!link.data || !methods.data) return;
    const gateway = methods.data.gateway;
    if (!gateway) {
      setStep({ kind: 'failed', message: PAY_TEXTS.noGateway });
      return;
    }
    setStep({ kind: 'preparing' });
    try {
      const order = await payApi.order(token);
      const fee = feeTypeLabel(link.data.paymentLink.feeType).en;
      const checkoutOrder: CheckoutOrder = {
        orderId: order.orderId,
        amount: orderPaise(order),
        currency: order.currency,
        keyId: order.keyId,
        provider: order.provider,
        description: `${fee} · ${link.data.student.name}`,
        testMode: order.provider === 'sandbox',
      };
      const outcome =
        order.provider === 'razorpay'
          ? await openRazorpayCheckout(checkoutOrder, { name: link.data.school.name, schoolName: link.data.student.name })
          : await openSandbox(checkoutOrder, { name: link.data.school.name });
      if (outcome === 'dismissed') {
        setStep({ kind: 'dismissed' });
        return;
      }
      setStep({ kind: 'verifying' });
      const paid: PaidAnswer = await payApi.verify(token, outcome);
      navigate(`/pay/${encodeURIComponent(token)}/success`, { replace: true, state: { paid } });
    } catch (error) {
      setStep({ kind: 'failed', message: refusalMessage(error, error instanceof Error && error.message ? error.message : PAY_TEXTS.fetchFailed) });
    }
  }, [link.data, methods.data, token, navigate, openSandbox]);

  useEffect(() => {
    if (started.current || !link.data || !methods.data) return;
    started.current = true;
    void run();
  }, [link.data, methods.data, run]);

  const back = (
    <Button asChild variant="outline" size="lg" className="h-auto min-h-12 w-full whitespace-normal py-2 text-center">
      <Link to={`/pay/${encodeURIComponent(token)}`}>{both(PAY_LABELS.backToLink)}</Link>
    </Button>
  );

  if (!token || link.isError || methods.isError) {
    return (
      <PayFrame>
        <StateCard
          icon={AlertTriangleIcon}
          tone="error"
          label={PAY_TEXTS.errorTitle}
          title={PAY_TEXTS.errorTitle}
          actions={
            <Button asChild size="lg" className="h-auto min-h-12 w-full whitespace-normal py-2 text-center">
              <Link to="/">{both(PAY_LABELS.home)}</Link>
            </Button>
          }
        >
          <p>{link.error?.message ?? methods.error?.message ?? PAY_TEXTS.missingToken}</p>
        </StateCard>
      </PayFrame>
    );
  }

  if (step.kind === 'dismissed' || step.kind === 'failed') {
    return (
      <PayFrame>
        <StateCard
          icon={XCircleIcon}
          tone={step.kind === 'failed' ? 'error' : 'warning'}
          label={step.kind === 'failed' ? PAY_TEXTS.failedTitle.en : PAY_TEXTS.cancelled.en}
          title={<Bi text={step.kind === 'failed' ? PAY_TEXTS.failedTitle : PAY_TEXTS.cancelled} />}
          actions={
            <>
              <Button size="lg" className="h-auto min-h-12 w-full whitespace-normal py-2 text-center" onClick={() => void run()}>
                {both(PAY_LABELS.tryAgain)}
              </Button>
              {back}
            </>
          }
        >
          {step.kind === 'failed' ? <p data-testid="pay-failure">{step.message}</p> : <Bi text={PAY_TEXTS.cancelledBody} />}
        </StateCard>
        {sandbox.dialog}
      </PayFrame>
    );
  }

  return (
    <PayFrame>
      <div className="flex min-h-[50dvh] flex-col items-center justify-center gap-3" role="status">
        <Spinner className="size-8 text-primary" label={step.kind === 'verifying' ? PAY_TEXTS.verifying.en : PAY_TEXTS.preparing.en} />
        <Bi text={step.kind === 'verifying' ? PAY_TEXTS.verifying : PAY_TEXTS.preparing} className="text-center text-sm text-muted-foreground" />
      </div>
      {sandbox.dialog}
    </PayFrame>
  );
}
