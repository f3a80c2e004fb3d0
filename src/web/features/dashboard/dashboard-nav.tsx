import { ExternalLinkIcon } from 'lucide-react';
import { Suspense } from 'react';
import { Link } from 'react-router';
import { DASHBOARD_NAV_BADGES } from '@/web/app/dashboard-panels';
import { useCan } from '@/web/app/permissions';
import { cn } from '@/web/lib/utils';
import { DASHBOARD_TABS, type DashboardTab } from './tabs';

const itemClass =
  'flex w-full items-center gap-3 rounded-md px-3 py-2 text-left text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring cursor-pointer';

/** The tab list, shared by the desktop sidebar and the mobile slide-out menu. */
export function DashboardNav({ activeId, onSelect, onNavigate }: { activeId: string; onSelect: (tab: DashboardTab) => void; onNavigate?: () => void }) {
  const can = useCan();
  return (
    <nav aria-label="Dashboard" className="grid gap-1">
      {DASHBOARD_TABS.filter((tab) => !('capability' in tab) || can(tab.capability)).map((tab) => {
        const Icon = tab.icon;
        if ('href' in tab) {
          return (
            <Link key={tab.id} to={tab.href} className={itemClass} onClick={onNavigate} data-tour={tab.id}>
              <Icon className="size-4 shrink-0" />
              <span className="flex-1">{tab.label}</span>
              <ExternalLinkIcon className="size-3.5 opacity-60" aria-hidden />
            </Link>
          );
        }
        const active = tab.id === activeId;
        const Count = DASHBOARD_NAV_BADGES[tab.id];
        return (
          <button
            key={tab.id}
            type="button"
            aria-current={active ? 'page' : undefined}
            data-tour={tab.id}
            className={cn(itemClass, active && 'bg-primary/10 text-primary hover:bg-primary/15 hover:text-primary')}
            onClick={() => onSelect(tab)}
          >
            <Icon className="size-4 shrink-0" />
            <span className="flex-1">{tab.label}</span>
            {Count ? (
              <Suspense fallback={null}>
                <Count />
              </Suspense>
            ) : null}
          </button>
        );
      })}
    </nav>
  );
}
