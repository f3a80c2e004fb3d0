import { ClockIcon, LockIcon } from 'lucide-react';
import { Link } from 'react-router';
import { useCan } from '@/web/app/permissions';
import type { School } from '@/web/features/auth/api';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { SUBSCRIPTION_PATH } from '@/web/lib/plans-api';
import { cn } from '@/web/lib/utils';
import { trialBannerState } from './trial-banner-state';

/** The trial messages of operations §8: ending soon (2 days or less) and expired (read-only). */
export function TrialBanner({ school }: { school: School }) {
  const can = useCan();
  const banner = trialBannerState(school, can('billing.manage'));
  if (!banner) return null;
  return (
    <Alert variant={banner.tone}>
      {banner.icon === 'lock' ? <LockIcon /> : <ClockIcon />}
      <AlertTitle>{banner.title}</AlertTitle>
      <AlertDescription>
        {banner.lines.map((line, i) => (
          <p key={i} className={cn(line.strong && 'font-medium', i > 0 && 'mt-1')}>
            {line.text}
          </p>
        ))}
        {banner.action ? (
          <Button asChild size="sm" className="mt-3">
            <Link to={SUBSCRIPTION_PATH}>{banner.action}</Link>
          </Button>
        ) : null}
      </AlertDescription>
    </Alert>
  );
}
