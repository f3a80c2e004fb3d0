import { ClockIcon, LockIcon } from 'lucide-react';
import { Link } from 'react-router';
import type { School } from '@/web/features/auth/api';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { formatDate } from '@/web/lib/format';
import { SUBSCRIPTION_PATH } from '@/web/lib/plans-api';

/** The trial messages of operations §8: ending soon (2 days or less) and expired (read-only). */
export function TrialBanner({ school }: { school: School }) {
  const upgrade = (
    <Button asChild size="sm" className="mt-3">
      <Link to={SUBSCRIPTION_PATH}>Upgrade Plan</Link>
    </Button>
  );
  if (school.subscriptionStatus === 'trial' && school.trialStatus.isExpired) {
    return (
      <Alert variant="destructive">
        <LockIcon />
        <AlertTitle>Trial Period Expired</AlertTitle>
        <AlertDescription>
          <p>Your 5-day trial has expired. To continue using the system, please upgrade to a paid plan.</p>
          <p className="mt-1">Your data is read-only until then: you can view everything, but adding or changing records is blocked.</p>
          {upgrade}
        </AlertDescription>
      </Alert>
    );
  }
  // a plan that ran out counts, whatever its stored status still says (ruling 14: the session is read-only)
  if (school.subscriptionStatus !== 'trial' && school.isExpired) {
    return (
      <Alert variant="destructive">
        <LockIcon />
        <AlertTitle>Subscription Expired{school.planEndDate ? ` on ${formatDate(school.planEndDate)}` : ''}</AlertTitle>
        <AlertDescription>
          <p>Your plan has ended. Renew it to keep adding and changing records; until then your data is read-only: receipts, reports and exports still work.</p>
          <Button asChild size="sm" className="mt-3">
            <Link to={SUBSCRIPTION_PATH}>Renew Plan</Link>
          </Button>
        </AlertDescription>
      </Alert>
    );
  }
  const days = school.trialStatus.daysRemaining;
  if (school.subscriptionStatus === 'trial' && days !== null && days <= 2) {
    return (
      <Alert variant="warning">
        <ClockIcon />
        <AlertTitle>Trial Period Ending Soon</AlertTitle>
        <AlertDescription>
          <p className="font-medium">{days} day(s) remaining</p>
          <p>
            Your trial period will expire in {days} {days === 1 ? 'day' : 'days'}. Upgrade now to avoid service interruption.
          </p>
          {upgrade}
        </AlertDescription>
      </Alert>
    );
  }
  return null;
}
