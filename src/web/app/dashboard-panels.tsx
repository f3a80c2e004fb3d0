import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { can, type Permission } from '@/domain/permissions';
import type { DashboardTabId } from '@/web/features/dashboard/tabs';
import { meQuery, type Me } from '@/web/lib/me-api';
import { trialStatusQuery } from '@/web/lib/plans-api';
import { classSummaryQuery, feeStructuresQuery, sessionsQuery } from '@/web/lib/school-data';
import { schoolStatsQuery } from '@/web/lib/school-stats';
import { checklistQuery } from '@/web/lib/setup-checklist-api';
import { FeeStatusQueue, FeeStatusTools } from './feature-slots';
import { schoolRoleOf } from './permissions';
import { preloadable, type Preloadable } from './preloadable';

type PanelModule = { default: ComponentType };

/**
 * How each tab's code is fetched. The dashboard route's loader fetches the open tab's code together
 * with the dashboard's own chunk (prefetchDashboard), so the tab does not wait for the dashboard to
 * render before its code is requested (decision 0044). A loader runs once; preloadable keeps its promise.
 */
const PANEL_LOADERS: Partial<Record<DashboardTabId, () => Promise<PanelModule>>> = {
  // the school stats cards and collection progress sit above the student lookup (operations §2)
  students: () =>
    Promise.all([import('@/web/features/stats/school-stats-panel'), import('@/web/features/students/students-tab')]).then(([stats, tab]) => ({
      default: function StudentsPanel() {
        return (
          <div className="grid gap-6">
            <stats.SchoolStatsPanel />
            <tab.StudentsTab />
          </div>
        );
      },
    })),
  'academic-sessions': () => import('@/web/features/sessions/sessions-tab').then((m) => ({ default: m.SessionsTab })),
  'fee-structure': () => import('@/web/features/fee-structures/fee-structure-tab').then((m) => ({ default: m.FeeStructureTab })),
  expenses: () => import('@/web/features/expenses/expenses-tab').then((m) => ({ default: m.ExpensesTab })),
  reports: () => import('@/web/features/reports/reports-tab').then((m) => ({ default: m.ReportsTab })),
  'monthly-fees': () => import('@/web/features/fees/monthly-fees-tab').then((m) => ({ default: m.MonthlyFeesTab })),
  'yearly-fees': () => import('@/web/features/fees/yearly-fees-tab').then((m) => ({ default: m.YearlyFeesTab })),
  // opening balances (decision 0027) sit under the fee status: where a school looks for a student's dues
  'student-fee-status': () =>
    Promise.all([import('@/web/features/fees/fee-status-tab'), import('@/web/features/opening/opening-panel')]).then(([status, opening]) => ({
      default: function FeeStatusPanel() {
        return (
          <div className="grid gap-8">
            <status.FeeStatusTab />
            <opening.OpeningPanel />
          </div>
        );
      },
    })),
  'online-payments': () => import('@/web/features/payment-links/online-payments-tab').then((m) => ({ default: () => <m.OnlinePaymentsTab /> })),
  passouts: () => import('@/web/features/passouts/passouts-tab').then((m) => ({ default: m.PassoutsTab })),
  // the office's day (issue 15 items 4–6)
  'close-day': () => import('@/web/features/office/close-day-tab').then((m) => ({ default: m.CloseDayTab })),
  registers: () => import('@/web/features/office/registers-tab').then((m) => ({ default: m.RegistersTab })),
};


/**
 * Which feature fills which dashboard tab. The dashboard shell and the features do not import each
 * other; they are put together here, at the app level. A later feature plugs in with one entry in
 * PANEL_LOADERS; a tab without one shows a short note that it is not part of this version.
 */
export const DASHBOARD_PANELS: Partial<Record<DashboardTabId, Preloadable<object>>> = Object.fromEntries(
  Object.entries(PANEL_LOADERS).map(([id, loader]) => [id, preloadable(() => loader().then((m) => m.default))]),
);

/** The dashboard's DEFAULT_TAB (features/dashboard/tabs.ts, kept equal by dashboard-panels.test.ts): not imported, its icons would join the entry. */
export const DEFAULT_PANEL: DashboardTabId = 'students';

/** Starts fetching the code of the tab a dashboard URL opens (`?tab=`, or the default tab). */
export function preloadDashboardPanel(tab: string | null): Promise<void> {
  return DASHBOARD_PANELS[(tab ?? DEFAULT_PANEL) as DashboardTabId]?.preload() ?? Promise.resolve();
}

/** The welcome banner and onboarding tour (platform §2, §4), shown on the dashboard above the open tab. */
export const FirstRunGuide = preloadable(() => import('@/web/features/onboarding/first-run-guide').then((m) => m.FirstRunGuide));

/**
 * A small count beside a tab's name in the menu (the UPI payments waiting for the clerk), put
 * together here for the same reason as the panels.
 */
export const DASHBOARD_NAV_BADGES: Partial<Record<DashboardTabId, Preloadable<object>>> = {
  'online-payments': preloadable(() => import('@/web/features/payment-links/upi-confirmations').then((m) => m.UpiPendingCount)),
};

type Can = (permission: Permission) => boolean;

/**
 * What the open tab reads on its first screen, fetched by the route loader beside the code
 * (decision 0044): the screen then renders once with its figures instead of once per answer.
 * Panels lower on the page (opening balances, a student's policy and payment-link panels) are not
 * here: they load after the first paint. A fetch that fails is left to the screen, which shows
 * its own error as before.
 */
const PANEL_DATA: Partial<Record<DashboardTabId, (client: QueryClient, allowed: Can) => Array<Promise<unknown>>>> = {
  students: (client) => [client.prefetchQuery(schoolStatsQuery())],
  'student-fee-status': (client, allowed) => [
    client.prefetchQuery(sessionsQuery()),
    FeeStatusTools.preload(),
    FeeStatusQueue.preload(),
    allowed('concessions.approve') || allowed('fines.waive')
      ? import('@/web/features/fee-policy/api').then((m) => client.prefetchQuery({ ...m.queueQuery, retry: false }))
      : Promise.resolve(),
  ],
};

/**
 * The dashboard route's loader: the signed-in person, the tab guards' counts, the setup
 * checklist, the menu's badge and the open tab's own reads and code, all at once. Resolves when
 * they are in the query cache (or failed); the components read them with useQuery as before.
 */
export async function prefetchDashboard(client: QueryClient, tab: string | null): Promise<void> {
  const id = (tab ?? DEFAULT_PANEL) as DashboardTabId;
  const code = [preloadDashboardPanel(id), FirstRunGuide.preload()];
  const shared = [
    client.prefetchQuery(classSummaryQuery()),
    client.prefetchQuery(feeStructuresQuery()),
    client.prefetchQuery(checklistQuery()),
  ];
  const me = await client.ensureQueryData(meQuery()).catch(() => null);
  const role = schoolRoleOf(me ? { ...me.user, schoolRole: me.user.schoolRole ?? me.schoolRole } : null);
  const allowed: Can = (permission) => can(role, permission);
  await Promise.all([
    ...code,
    ...shared,
    ...(me ? forTheHeader(client, me, allowed) : []),
    ...(me ? (PANEL_DATA[id]?.(client, allowed) ?? []) : []),
  ]);
}

function forTheHeader(client: QueryClient, me: Me, allowed: Can): Array<Promise<unknown>> {
  const badge = DASHBOARD_NAV_BADGES['online-payments'];
  return [
    me.school?.subscriptionStatus === 'trial' ? client.prefetchQuery(trialStatusQuery()) : Promise.resolve(),
    allowed('payments.reconcile') && badge
      ? Promise.all([badge.preload(), import('@/web/features/payment-links/api').then((m) => client.prefetchQuery(m.upiQuery('pending')))])
      : Promise.resolve(),
  ];
}
