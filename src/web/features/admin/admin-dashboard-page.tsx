import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Spinner } from '@/web/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs';
import { adminSchoolsQuery } from './api';
import { OverviewTab } from './overview-tab';
import { PlanCatalogueTab } from './plan-catalogue-tab';
import { PortalShell } from './portal-shell';
import { SchoolsTab } from './schools-tab';
import { SecurityTab } from './security-tab';
import { SubscriptionsTab } from './subscriptions-tab';
import { SystemTab } from './system-tab';
import { TABS, type Tab } from './tabs';
import { TAB_LABELS } from './texts';
import { UsersTab } from './users-tab';

// recharts (over 100 kB gzip) loads only when Analytics is opened (decision 0044)
const AnalyticsTab = lazy(() => import('./analytics-tab').then((m) => ({ default: m.AnalyticsTab })));

/**
 * The master administrator portal (platform §2, ruling 22): seven tabs. The open tab is in the
 * address (`?tab=security`), so a school page's Back and a reload return to it.
 */
export function AdminDashboardPage() {
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(asked ?? '') ? (asked as Tab) : 'overview';
  const setTab = (next: Tab) => setParams(next === 'overview' ? {} : { tab: next }, { replace: true });
  const schools = useQuery(adminSchoolsQuery());

  const schoolsView = (render: (data: NonNullable<typeof schools.data>) => ReactNode) =>
    schools.isPending ? (
      <div className="flex justify-center py-16"><Spinner label="Loading schools" /></div>
    ) : schools.isError ? (
      <p role="alert" className="py-16 text-center text-sm text-destructive">Unable to load schools: {schools.error.message}</p>
    ) : (
      render(schools.data)
    );

  return (
    <PortalShell>
      <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)}>
        <TabsList className="h-auto w-full flex-wrap justify-start sm:w-auto">
          {TABS.map((t) => (
            <TabsTrigger key={t} value={t}>
              {TAB_LABELS[t]}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="overview">
          {schoolsView((data) => <OverviewTab schools={data} onOpen={setTab} />)}
        </TabsContent>
        <TabsContent value="schools">{schoolsView((data) => <SchoolsTab schools={data} />)}</TabsContent>
        <TabsContent value="subscriptions">
          <SubscriptionsTab />
        </TabsContent>
        <TabsContent value="users">
          <UsersTab />
        </TabsContent>
        <TabsContent value="analytics">
          <Suspense fallback={<Spinner className="mx-auto my-12 size-7" />}>
            <AnalyticsTab />
          </Suspense>
        </TabsContent>
        <TabsContent value="system">
          <SystemTab />
        </TabsContent>
        <TabsContent value="security">
          <SecurityTab />
        </TabsContent>
        <TabsContent value="plans">
          <PlanCatalogueTab />
        </TabsContent>
      </Tabs>
    </PortalShell>
  );
}
