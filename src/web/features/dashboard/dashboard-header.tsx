import { useQuery } from '@tanstack/react-query';
import { CircleHelpIcon, LogOutIcon, MenuIcon, SparklesIcon } from 'lucide-react';
import { Link } from 'react-router';
import { useCan } from '@/web/app/permissions';
import type { School } from '@/web/features/auth/api';
import { ThemeToggle } from '@/web/components/theme';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { accessBadge, planLabel } from './plan-labels';
import { SUBSCRIPTION_PATH, trialStatusQuery } from '@/web/lib/plans-api';

export interface HeaderActions {
  onHelp: () => void;
  onLogout: () => void;
  loggingOut: boolean;
}

export function SchoolBadges({ school }: { school: School }) {
  // the trial countdown comes from GET /api/trial-status, refreshed every 5 minutes (issue 12)
  const trial = useQuery({ ...trialStatusQuery(), enabled: school.subscriptionStatus === 'trial' });
  const live = trial.data && trial.data.status === 'trial' ? { ...school, trialStatus: { isExpired: trial.data.isExpired, daysRemaining: trial.data.daysRemaining } } : school;
  const access = accessBadge(live);
  return (
    <div className="flex flex-wrap items-center gap-1.5">
      <Badge variant="outline">{planLabel(school.subscriptionPlan)}</Badge>
      <Badge variant={access.tone}>{access.text}</Badge>
    </div>
  );
}

/** The dashboard header of operations §2: school, plan, trial or active-till, upgrade, theme, help, logout. */
export function DashboardHeader({ school, onOpenMenu, onHelp, onLogout, loggingOut }: { school: School; onOpenMenu: () => void } & HeaderActions) {
  const can = useCan();
  return (
    <header className="sticky top-0 z-40 border-b bg-card/95 backdrop-blur supports-[backdrop-filter]:bg-card/80">
      <div className="flex h-16 items-center gap-2 px-3 md:gap-3 md:px-6">
        <Button variant="ghost" size="icon" className="md:hidden" onClick={onOpenMenu} aria-label="Open menu">
          <MenuIcon />
        </Button>
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-base font-semibold leading-tight md:text-lg">{school.name}</h1>
          <div className="mt-0.5 md:hidden">
            <SchoolBadges school={school} />
          </div>
        </div>
        <div className="hidden md:block">
          <SchoolBadges school={school} />
        </div>
        <Button asChild size="sm" className={can('billing.manage') ? 'hidden md:inline-flex' : 'hidden'}>
          <Link to={SUBSCRIPTION_PATH}>
            <SparklesIcon />
            {school.isExpired ? 'Renew Plan' : 'Upgrade Plan'}
          </Link>
        </Button>
        <ThemeToggle />
        <Button variant="ghost" size="icon" onClick={onHelp} aria-label="Help" className="hidden md:inline-flex">
          <CircleHelpIcon />
        </Button>
        <Button variant="outline" size="sm" onClick={onLogout} disabled={loggingOut} aria-label="Logout" className="max-md:size-10 max-md:px-0">
          <LogOutIcon />
          <span className="hidden md:inline">Logout</span>
        </Button>
      </div>
    </header>
  );
}
