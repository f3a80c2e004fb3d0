import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { DashboardTabId } from '@/web/features/dashboard/tabs';

type PanelModule = { default: ComponentType };

/**
 * How each tab's code is fetched. The router calls the open tab's loader together with the
 * dashboard's own chunk (preloadDashboardPanel), so the tab does not wait for the dashboard to render
 * before its code is requested (decision 0044). A loader runs once; React.lazy reuses its promise.
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

const loaded = new Map<string, Promise<PanelModule>>();
const loadPanel = (id: DashboardTabId, loader: () => Promise<PanelModule>) => () => {
  if (!loaded.has(id)) loaded.set(id, loader());
  return loaded.get(id)!;
};

/**
 * Which feature fills which dashboard tab. The dashboard shell and the features do not import each
 * other; they are put together here, at the app level. A later feature plugs in with one entry in
 * PANEL_LOADERS; a tab without one shows a short note that it is not part of this version.
 */
export const DASHBOARD_PANELS: Partial<Record<DashboardTabId, LazyExoticComponent<ComponentType>>> = Object.fromEntries(
  Object.entries(PANEL_LOADERS).map(([id, loader]) => [id, lazy(loadPanel(id as DashboardTabId, loader))]),
);

/** The dashboard's DEFAULT_TAB (features/dashboard/tabs.ts, kept equal by dashboard-panels.test.ts): not imported, its icons would join the entry. */
export const DEFAULT_PANEL: DashboardTabId = 'students';

/** Starts fetching the code of the tab a dashboard URL opens (`?tab=`, or the default tab). */
export function preloadDashboardPanel(tab: string | null): void {
  const id = (tab ?? DEFAULT_PANEL) as DashboardTabId;
  const loader = PANEL_LOADERS[id];
  if (loader) void loadPanel(id, loader)().catch(() => {});
}

/** The welcome banner and onboarding tour (platform §2, §4), shown on the dashboard above the open tab. */
export const FirstRunGuide = lazy(() => import('@/web/features/onboarding/first-run-guide').then((m) => ({ default: m.FirstRunGuide })));

/**
 * A small count beside a tab's name in the menu (the UPI payments waiting for the clerk), put
 * together here for the same reason as the panels.
 */
export const DASHBOARD_NAV_BADGES: Partial<Record<DashboardTabId, LazyExoticComponent<ComponentType>>> = {
  'online-payments': lazy(() => import('@/web/features/payment-links/upi-confirmations').then((m) => ({ default: m.UpiPendingCount }))),
};
