import { useQuery } from '@tanstack/react-query';
import { LogOutIcon, ShieldCheckIcon } from 'lucide-react';
import { useState } from 'react';
import { useSession } from '@/web/app/session';
import { ThemeToggle } from '@/web/components/theme';
import { Button } from '@/web/components/ui/button';
import { Spinner } from '@/web/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs';
import { adminSchoolsQuery } from './api';
import { OverviewTab } from './overview-tab';
import { PlanCatalogueTab } from './plan-catalogue-tab';
import { SchoolsTab } from './schools-tab';
import { SubscriptionsTab } from './subscriptions-tab';
import { UsersTab } from './users-tab';

type Tab = 'overview' | 'schools' | 'subscriptions' | 'users' | 'plans';

/** The master administrator portal (platform §2), read-only for now. */
export function AdminDashboardPage() {
  const { me, signOut } = useSession();
  const [tab, setTab] = useState<Tab>('overview');
  const [leaving, setLeaving] = useState(false);
  const schools = useQuery(adminSchoolsQuery());

  const logout = async () => {
    setLeaving(true);
    let failed = false;
    try {
      await signOut();
    } catch {
      // the browser is signed out either way; only the server-side revoke failed
      failed = true;
    }
    // a full page load: the route guard would otherwise send a signed-out user to /login first,
    // and nothing of the portal's data stays in memory
    window.location.replace(failed ? '/admin-login?signedOut=failed' : '/admin-login?signedOut=1');
  };

  return (
    <div className="min-h-dvh bg-background">
      <header className="sticky top-0 z-10 border-b bg-card/90 backdrop-blur">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-2.5">
          <div className="flex min-w-0 items-center gap-2">
            <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground">
              <ShieldCheckIcon className="size-5" />
            </span>
            <h1 className="truncate font-semibold">
              <span className="max-sm:hidden">Master </span>Admin Portal
            </h1>
          </div>
          <div className="flex shrink-0 items-center gap-1 sm:gap-2">
            <span className="hidden text-sm text-muted-foreground md:inline">Welcome, {me?.user.username}</span>
            <ThemeToggle />
            <Button variant="outline" size="sm" onClick={logout} disabled={leaving}>
              <LogOutIcon />
              Logout
            </Button>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6">
        <p className="mb-4 text-sm text-muted-foreground md:hidden">Welcome, {me?.user.username}</p>
        <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)}>
          <TabsList>
            <TabsTrigger value="overview">Overview</TabsTrigger>
            <TabsTrigger value="schools">Schools</TabsTrigger>
            <TabsTrigger value="subscriptions">Subscription Management</TabsTrigger>
            <TabsTrigger value="users">Users</TabsTrigger>
            <TabsTrigger value="plans">Plans</TabsTrigger>
          </TabsList>
          {schools.isPending ? (
            <div className="flex justify-center py-16"><Spinner label="Loading schools" /></div>
          ) : schools.isError ? (
            <p role="alert" className="py-16 text-center text-sm text-destructive">Unable to load schools: {schools.error.message}</p>
          ) : (
            <>
              <TabsContent value="overview">
                <OverviewTab schools={schools.data} onOpen={setTab} />
              </TabsContent>
              <TabsContent value="schools">
                <SchoolsTab schools={schools.data} />
              </TabsContent>
            </>
          )}
          <TabsContent value="users">
            <UsersTab />
          </TabsContent>
          <TabsContent value="subscriptions">
            <SubscriptionsTab />
          </TabsContent>
          <TabsContent value="plans">
            <PlanCatalogueTab />
          </TabsContent>
        </Tabs>
      </main>
    </div>
  );
}
