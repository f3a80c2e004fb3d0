import { useQuery } from '@tanstack/react-query';
import { CheckCircle2Icon } from 'lucide-react';
import { useEffect } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import { parseRupees } from '@/domain/money';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Spinner } from '@/web/components/ui/spinner';
import { rupees } from '@/web/lib/format';
import { paidSchema, payLinkQuery } from './api';
import { Bi, DownloadReceiptButton, LinkSummary, PayFrame, StateCard } from './pay-parts';
import { both, PAY_LABELS, PAY_TEXTS } from './texts';

/**
 * /pay/{linkToken}/success: the receipt number, the amount and any credit, with the receipt PDF.
 * Opened again later (no verify answer in hand), it shows the paid link and its receipt.
 */
export function PaySuccessPage() {
  const { linkToken = '' } = useParams();
  const location = useLocation();
  const paid = paidSchema.safeParse((location.state as { paid?: unknown } | null)?.paid);
  const link = useQuery(payLinkQuery(linkToken));
  // "Redirecting to payment gateway..." from the Pay button is over: it must not cover the receipt
  useEffect(() => toast.dismiss(), []);

  if (link.isPending) {
    return (
      <PayFrame>
        <div className="flex min-h-[50dvh] items-center justify-center">
          <Spinner className="size-8 text-primary" label={PAY_TEXTS.loading.en} />
        </div>
      </PayFrame>
    );
  }
  // not paid (or not a link): the link page says why
  if (!paid.success && (link.isError || link.data.paymentLink.status !== 'paid')) return <Navigate to={`/pay/${encodeURIComponent(linkToken)}`} replace />;

  const answer = paid.success ? paid.data : null;
  const credit = answer && (parseRupees(answer.credit) ?? 0) > 0 ? answer.credit : null;
  // all of it became credit: there is no receipt to show or download (ruling 27)
  const creditOnly = answer !== null && answer.receiptNumber === null;
  return (
    <PayFrame>
      <StateCard
        icon={CheckCircle2Icon}
        tone="success"
        label={PAY_TEXTS.successTitle.en}
        title={<Bi text={PAY_TEXTS.successTitle} />}
        actions={creditOnly ? undefined : <DownloadReceiptButton token={linkToken} />}
      >
        <Bi text={PAY_TEXTS.successBody} />
        {answer ? (
          <dl className="mt-2 grid gap-2 rounded-xl bg-muted/60 p-4 text-left text-sm text-foreground">
            {answer.receiptNumber ? (
              <div className="flex justify-between gap-3">
                <dt className="text-muted-foreground">{both(PAY_LABELS.receiptNumber)}</dt>
                <dd className="whitespace-nowrap font-mono font-semibold" data-testid="pay-receipt-number">
                  {answer.receiptNumber}
                </dd>
              </div>
            ) : null}
            <div className="flex justify-between gap-3">
              <dt className="text-muted-foreground">{both(PAY_LABELS.amountPaid)}</dt>
              <dd className="text-lg font-bold tabular-nums" data-testid="pay-paid-amount">
                {rupees(answer.amount)}
              </dd>
            </div>
          </dl>
        ) : null}
        {credit ? (
          <Alert variant="info" className="text-left" data-testid="pay-credit-note">
            <AlertDescription>
              <Bi text={creditOnly ? PAY_TEXTS.creditOnly(rupees(credit)) : PAY_TEXTS.creditNote(rupees(credit))} />
            </AlertDescription>
          </Alert>
        ) : null}
        {link.isSuccess ? (
          <div className="mt-2 text-left text-foreground">
            <LinkSummary link={link.data} showValidity={false} />
          </div>
        ) : null}
      </StateCard>
    </PayFrame>
  );
}
