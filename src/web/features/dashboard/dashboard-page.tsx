import { CircleHelpIcon, LogOutIcon, ReceiptIndianRupeeIcon, SparklesIcon } from 'lucide-react';
import { Suspense, useCallback, useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { DASHBOARD_PANELS, FirstRunGuide } from '@/web/app/dashboard-panels';
import { useCan } from '@/web/app/permissions';
import { NoAccess } from '@/web/components/no-access';
import { useSchoolSession, useSession } from '@/web/app/session';
import { GuardAlert, type GuardMessage } from '@/web/components/guard-alert';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Sheet, SheetContent, SheetTitle } from '@/web/components/ui/sheet';
import { Spinner } from '@/web/components/ui/spinner';
import { DashboardHeader, SchoolBadges } from './dashboard-header';
import { DashboardNav } from './dashboard-nav';
import { DASHBOARD_TABS, DEFAULT_TAB, findTab, type DashboardTab } from './tabs';
import { SetupChecklist } from './setup-checklist';
import { TrialBanner } from './trial-banner';
import { UnavailablePanel } from './unavailable-panel';
import { useTabGuard } from './use-tab-guard';
import { SUBSCRIPTION_PATH } from '@/web/lib/plans-api';

const HELP_TEXT = 'Navigate through the tabs to manage students, fees, expenses and reports. Contact support if you need assistance.';

/**
 * The school dashboard (operations §2) at /school/dashboard and /dashboard. The open tab is kept in
 * `?tab=` so reload and the back button return to it.
 */
export function DashboardPage() {
  const { school } = useSchoolSession();
  const { signOut } = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [menuOpen, setMenuOpen] = useState(false);
  const [alert, setAlert] = useState<GuardMessage | null>(null);
  const [loggingOut, setLoggingOut] = useState(false);
  const guard = useTabGuard();
  const can = useCan();
  const allowed = (t: DashboardTab) => !t.capability || can(t.capability);
  // a role's home is its first tab: the Students tab for the counter, Results for a teacher
  const home: DashboardTab | undefined = allowed(findTab(DEFAULT_TAB)!) ? findTab(DEFAULT_TAB)! : DASHBOARD_TABS.find((t) => allowed(t) && t.id !== 'settings');

  const requested = findTab(params.get('tab'));
  const tab = requested && !requested.href ? requested : home && !home.href ? home : findTab(DEFAULT_TAB)!;
  const forbidden = !allowed(tab);

  const goTo = useCallback((id: string, replace = false) => setParams({ tab: id }, { replace }), [setParams]);

  // A tab opened from the URL (reload, back, a link) is refused the same way as a click.
  const refusal = guard.ready && !forbidden ? guard.refusal(tab) : null;
  useEffect(() => {
    if (!refusal) return;
    setAlert(refusal);
    goTo(refusal.tab, true);
  }, [refusal, goTo]);

  const select = (next: DashboardTab) => {
    setMenuOpen(false);
    if (next.href) {
      navigate(next.href);
      return;
    }
    const refused = guard.ready ? guard.refusal(next) : null;
    if (refused) {
      setAlert(refused);
      goTo(refused.tab);
      return;
    }
    goTo(next.id);
  };

  const help = () => toast.info({ title: 'Help', description: HELP_TEXT });

  const logout = async () => {
    setLoggingOut(true);
    try {
      await signOut();
      toast.success({ title: 'Logged out successfully' });
      navigate('/login', { replace: true });
    } catch {
      toast.error({ title: 'Logout failed', description: 'There was an error logging out. Please try again.' });
    } finally {
      setLoggingOut(false);
    }
  };

  const Panel = DASHBOARD_PANELS[tab.id as keyof typeof DASHBOARD_PANELS];
  const waiting = Boolean(tab.requires?.length) && !guard.ready && !forbidden;
  if (!requested && home?.href) return <Navigate to={home.href} replace />;

  return (
    <div className="min-h-dvh bg-background">
      <DashboardHeader school={school} onOpenMenu={() => setMenuOpen(true)} onHelp={help} onLogout={logout} loggingOut={loggingOut} />
      <div className="flex">
        <aside className="sticky top-16 hidden h-[calc(100dvh-4rem)] w-60 shrink-0 overflow-y-auto border-r bg-card/50 p-3 md:block">
          <DashboardNav activeId={tab.id} onSelect={select} />
        </aside>
        <main className="min-w-0 flex-1 px-3 py-4 sm:px-4 md:px-6 md:py-6">
          <div className="mx-auto grid max-w-6xl gap-4">
            <TrialBanner school={school} />
            <Suspense fallback={null}>
              <FirstRunGuide />
            </Suspense>
            <SetupChecklist />
            {forbidden ? (
              <NoAccess back={false} />
            ) : waiting || refusal ? (
              <div className="flex justify-center py-16">
                <Spinner className="size-7" />
              </div>
            ) : Panel ? (
              <Suspense
                fallback={
                  <div className="flex justify-center py-16">
                    <Spinner className="size-7" />
                  </div>
                }
              >
                <Panel />
              </Suspense>
            ) : (
              <UnavailablePanel tab={tab} />
            )}
          </div>
        </main>
      </div>

      <Sheet open={menuOpen} onOpenChange={setMenuOpen}>
        <SheetContent>
          <div className="flex items-center gap-2 pr-8">
            <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground">
              <ReceiptIndianRupeeIcon className="size-5" />
            </span>
            <SheetTitle className="truncate font-semibold">{school.name}</SheetTitle>
          </div>
          <SchoolBadges school={school} />
          <DashboardNav activeId={tab.id} onSelect={select} onNavigate={() => setMenuOpen(false)} />
          <div className="mt-auto grid gap-2 border-t pt-4">
            {school.subscriptionStatus === 'trial' ? (
              <Button asChild>
                <Link to={SUBSCRIPTION_PATH} onClick={() => setMenuOpen(false)}>
                  <SparklesIcon />
                  Upgrade Instantly
                </Link>
              </Button>
            ) : null}
            <Button
              variant="outline"
              onClick={() => {
                setMenuOpen(false);
                help();
              }}
            >
              <CircleHelpIcon />
              Help
            </Button>
            <Button variant="outline" onClick={logout} disabled={loggingOut}>
              <LogOutIcon />
              Logout
            </Button>
          </div>
        </SheetContent>
      </Sheet>

      <GuardAlert
        message={alert}
        onClose={() => setAlert(null)}
        onAction={(message) => {
          setAlert(null);
          goTo(message.tab);
        }}
      />
    </div>
  );
}
