import { useQuery } from '@tanstack/react-query';
import { AlertTriangleIcon, BanIcon, CheckCircle2Icon, ClockIcon, HourglassIcon, LockIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent } from '@/web/components/ui/card';
import { Spinner } from '@/web/components/ui/spinner';
import { linkState, payLinkQuery, payMethodsQuery } from './api';
import { Bi, DownloadReceiptButton, LinkSummary, PayFrame, StateCard } from './pay-parts';
import { both, PAY_LABELS, PAY_TEXTS } from './texts';
import { UpiPanel } from './upi-panel';

/** The public payment link page (operations §2 /pay/{linkToken}): loading, error, expired or inactive, or the details. */
export function PayLinkPage() {
  const { linkToken = '' } = useParams();
  const link = useQuery(payLinkQuery(linkToken));
  const [waiting, setWaiting] = useState(false);

  // operations §8: a load failure toasts "Error" with the message as well as showing the card
  const loadError = link.error?.message;
  useEffect(() => {
    if (loadError) toast.error({ title: PAY_TEXTS.errorToastTitle, description: loadError });
  }, [loadError]);

  if (link.isPending) {
    return (
      <PayFrame>
        <div className="flex min-h-[50dvh] flex-col items-center justify-center gap-3" role="status" aria-label={PAY_TEXTS.loading.en}>
          <Spinner className="size-8 text-primary" label={PAY_TEXTS.loading.en} />
          <Bi text={PAY_TEXTS.loading} className="text-center text-sm text-muted-foreground" />
        </div>
      </PayFrame>
    );
  }

  if (link.isError) {
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
          <p data-testid="pay-error">{link.error.message || PAY_TEXTS.errorFallback}</p>
          <p lang="hi">{PAY_TEXTS.errorHi}</p>
        </StateCard>
      </PayFrame>
    );
  }

  const data = link.data;
  const state = linkState(data, new Date());

  if (state === 'paid') {
    return (
      <PayFrame>
        <StateCard icon={CheckCircle2Icon} tone="success" label="Paid" title={<Bi text={PAY_TEXTS.paidTitle} />} actions={<DownloadReceiptButton token={linkToken} />}>
          <div className="text-left text-foreground">
            <LinkSummary link={data} showValidity={false} />
          </div>
        </StateCard>
      </PayFrame>
    );
  }
  if (state === 'expired') {
    return (
      <PayFrame>
        <StateCard icon={ClockIcon} tone="warning" label={PAY_TEXTS.expiredTitle} title={PAY_TEXTS.expiredTitle}>
          <p>{PAY_TEXTS.expiredBody}</p>
          <p lang="hi">{PAY_TEXTS.expiredHi}</p>
        </StateCard>
      </PayFrame>
    );
  }
  if (state === 'inactive') {
    return (
      <PayFrame>
        <StateCard icon={BanIcon} tone="warning" label={PAY_TEXTS.inactiveTitle} title={PAY_TEXTS.inactiveBody}>
          <p lang="hi">{PAY_TEXTS.inactiveHi}</p>
        </StateCard>
      </PayFrame>
    );
  }
  if (waiting) {
    return (
      <PayFrame>
        <StateCard icon={HourglassIcon} tone="info" label="Waiting for the school" title={<Bi text={PAY_TEXTS.waitingTitle} />}>
          <Bi text={PAY_TEXTS.waitingBody} />
          <div className="mt-2 text-left text-foreground">
            <LinkSummary link={data} showValidity={false} />
          </div>
        </StateCard>
      </PayFrame>
    );
  }
  return (
    <PayFrame>
      <Card className="mt-2" role="region" aria-label="Payment details">
        <CardContent className="grid gap-5 p-5 pt-5 sm:p-6 sm:pt-6">
          <h1 className="sr-only">{PAY_TEXTS.pageTitle.en}</h1>
          <LinkSummary link={data} />
          <PayMethods token={linkToken} />
          <p className="flex items-center justify-center gap-1.5 text-center text-xs text-muted-foreground">
            <LockIcon className="size-3.5" aria-hidden />
            {both(PAY_TEXTS.secure)}
          </p>
        </CardContent>
      </Card>
      {waiting ? null : <UpiSection token={linkToken} onSubmitted={() => setWaiting(true)} />}
    </PayFrame>
  );
}

/** The gateway's Pay button, when the school collects through one. */
function PayMethods({ token }: { token: string }) {
  const methods = useQuery(payMethodsQuery(token));
  const navigate = useNavigate();
  // while the methods load, or if they fail, the Pay button of operations §2 is still offered
  const gateway = methods.isSuccess ? methods.data.gateway : 'unknown';
  if (gateway === null) return null;
  const pay = () => {
    toast.info({ title: PAY_TEXTS.processingTitle, description: PAY_TEXTS.processingBody });
    navigate(`/payment?linkToken=${encodeURIComponent(token)}`);
  };
  return (
    <Button size="lg" className="h-auto min-h-14 w-full whitespace-normal py-2 text-lg" onClick={pay}>
      {both(PAY_LABELS.pay)}
    </Button>
  );
}

function UpiSection({ token, onSubmitted }: { token: string; onSubmitted: () => void }) {
  const methods = useQuery(payMethodsQuery(token));
  const upi = methods.data?.upi;
  if (!upi) return null;
  return (
    <Card className="mt-4">
      <CardContent className="grid gap-4 p-5 pt-5 sm:p-6 sm:pt-6">
        <Bi text={PAY_TEXTS.orUpi} className="text-center text-sm font-semibold" />
        <UpiPanel token={token} upi={upi} onSubmitted={onSubmitted} />
      </CardContent>
    </Card>
  );
}
