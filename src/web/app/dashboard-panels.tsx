import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { DashboardTabId } from '@/web/features/dashboard/tabs';

/**
 * Which feature fills which dashboard tab. The dashboard shell and the features do not import each
 * other; they are put together here, at the app level. A later feature plugs in with one entry;
 * a tab without one shows a short note that it is not part of this version.
 */
export const DASHBOARD_PANELS: Partial<Record<DashboardTabId, LazyExoticComponent<ComponentType>>> = {
  // the school stats cards and collection progress sit above the student lookup (operations §2)
  students: lazy(() =>
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
  ),
  'academic-sessions': lazy(() => import('@/web/features/sessions/sessions-tab').then((m) => ({ default: m.SessionsTab }))),
  'fee-structure': lazy(() => import('@/web/features/fee-structures/fee-structure-tab').then((m) => ({ default: m.FeeStructureTab }))),
  expenses: lazy(() => import('@/web/features/expenses/expenses-tab').then((m) => ({ default: m.ExpensesTab }))),
  reports: lazy(() => import('@/web/features/reports/reports-tab').then((m) => ({ default: m.ReportsTab }))),
  'monthly-fees': lazy(() => import('@/web/features/fees/monthly-fees-tab').then((m) => ({ default: m.MonthlyFeesTab }))),
  'yearly-fees': lazy(() => import('@/web/features/fees/yearly-fees-tab').then((m) => ({ default: m.YearlyFeesTab }))),
  // opening balances (decision 0027) sit under the fee status: where a school looks for a student's dues
  'student-fee-status': lazy(() =>
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
  ),
  'online-payments': lazy(() => import('@/web/features/payment-links/online-payments-tab').then((m) => ({ default: () => <m.OnlinePaymentsTab /> }))),
  passouts: lazy(() => import('@/web/features/passouts/passouts-tab').then((m) => ({ default: m.PassoutsTab }))),
  // the office's day (issue 15 items 4–6)
  'close-day': lazy(() => import('@/web/features/office/close-day-tab').then((m) => ({ default: m.CloseDayTab }))),
  registers: lazy(() => import('@/web/features/office/registers-tab').then((m) => ({ default: m.RegistersTab }))),
};

/** The welcome banner and onboarding tour (platform §2, §4), shown on the dashboard above the open tab. */
export const FirstRunGuide = lazy(() => import('@/web/features/onboarding/first-run-guide').then((m) => ({ default: m.FirstRunGuide })));

/**
 * A small count beside a tab's name in the menu (the UPI payments waiting for the clerk), put
 * together here for the same reason as the panels.
 */
export const DASHBOARD_NAV_BADGES: Partial<Record<DashboardTabId, LazyExoticComponent<ComponentType>>> = {
  'online-payments': lazy(() => import('@/web/features/payment-links/upi-confirmations').then((m) => ({ default: m.UpiPendingCount }))),
};
