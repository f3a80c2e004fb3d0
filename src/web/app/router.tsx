import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Outlet, useRouteError } from 'react-router';
import { ErrorScreen } from '@/web/components/error-boundary';
import { FullPageSpinner } from '@/web/components/ui/spinner';
import { getToken } from '@/web/lib/auth-storage';
import { prefetchDashboard } from './dashboard-panels';
import { HomeRedirect, RedirectIfSignedIn, RequireRole } from './guards';
import type { Permission } from './permissions';
import { RequireCan } from './require-can';

function RouteError() {
  return <ErrorScreen error={useRouteError()} />;
}

/**
 * Every page is a lazy route: its code (and what only it imports — charts, spreadsheets, CSV
 * parsing) is fetched when the route is first visited, so the entry stays within the initial
 * JavaScript budget that `npm run size` checks (docs/decisions/0044-web-weight-and-accessibility.md).
 * A new page slots in the same way, one line:
 *   { path: '/school/things', lazy: page(() => import('@/web/features/things/things-page'), 'ThingsPage') },
 * and a new dashboard tab with one React.lazy entry in ./dashboard-panels.tsx. Never import a
 * feature statically from this file, main.tsx or ./session.tsx: that puts it in every first load.
 */
const page = <T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T) => async () => {
  const module = await load();
  return { Component: module[name] as React.ComponentType };
};

/** How long the dashboard's loader may hold the first paint for its data; after that the screen shows its own spinners. */
const LOADER_PATIENCE_MS = 2_500;

/**
 * The dashboard's data: its loader runs beside its lazy chunk and fetches the open tab's code and
 * the first screen's queries into the query cache (decision 0044), so the screen renders once with
 * them. Signed out, it fetches nothing (the guard sends the visitor to sign in). It never fails:
 * a query that fails is shown by its screen as before.
 */
const dashboardLoader =
  (queryClient: QueryClient) =>
  async ({ request }: { request: Request }) => {
    if (!getToken()) return null;
    const tab = new URL(request.url).searchParams.get('tab');
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      prefetchDashboard(queryClient, tab).catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, LOADER_PATIENCE_MS))),
    ]);
    clearTimeout(timer);
    return null;
  };
const dashboard = page(() => import('@/web/features/dashboard/dashboard-page'), 'DashboardPage');

/** A school page only some roles may open (ruling 32): the others see "You don't have access". */
const only = (capability: Permission) => ({ element: <RequireCan capability={capability}><Outlet /></RequireCan> });

/** The route table of platform §2 and operations §2; the query cache is the one the screens read. */
export const createAppRouter = (queryClient: QueryClient) => {
  // a spinner, not a blank page, while the first load waits for the code and the data
  const dashboardRoute = { lazy: dashboard, loader: dashboardLoader(queryClient), shouldRevalidate: () => false, HydrateFallback: FullPageSpinner };
  return createBrowserRouter([
    {
      element: <Outlet />,
      errorElement: <RouteError />,
      children: [
        { path: '/', element: <HomeRedirect /> },
        {
          path: '/login',
          element: <RedirectIfSignedIn><Outlet /></RedirectIfSignedIn>,
          children: [{ index: true, lazy: page(() => import('@/web/features/auth/login-page'), 'LoginPage') }],
        },
        {
          path: '/admin-login',
          element: <RedirectIfSignedIn><Outlet /></RedirectIfSignedIn>,
          children: [{ index: true, lazy: page(() => import('@/web/features/auth/admin-login-page'), 'AdminLoginPage') }],
        },
        { path: '/register', lazy: page(() => import('@/web/features/auth/register-page'), 'RegisterPage') },
        { path: '/forgot-password', lazy: page(() => import('@/web/features/auth/forgot-password-page'), 'ForgotPasswordPage') },
        { path: '/reset-password', lazy: page(() => import('@/web/features/auth/reset-password-page'), 'ResetPasswordPage') },
        { path: '/confirm-email', lazy: page(() => import('@/web/features/auth/confirm-email-page'), 'ConfirmEmailPage') },
        // a staff member's invitation (issue 15): set a password, then sign in
        { path: '/accept-invite', lazy: page(() => import('@/web/features/staff/accept-invite-page'), 'AcceptInvitePage') },
        { path: '/confirm-email-change', lazy: page(() => import('@/web/features/auth/confirm-email-change-page'), 'ConfirmEmailChangePage') },
        {
          path: '/subscription-required/:schoolId?',
          lazy: page(() => import('@/web/features/subscription/subscription-required-page'), 'SubscriptionRequiredPage'),
        },
        { path: '/pricing', lazy: page(() => import('@/web/features/public/pricing-page'), 'PricingPage') },
        { path: '/contact', lazy: page(() => import('@/web/features/public/contact-page'), 'ContactPage') },
        { path: '/privacy', lazy: page(() => import('@/web/features/public/policy-pages'), 'PrivacyPage') },
        { path: '/terms', lazy: page(() => import('@/web/features/public/policy-pages'), 'TermsPage') },
        { path: '/refunds', lazy: page(() => import('@/web/features/public/policy-pages'), 'RefundsPage') },
        { path: '/shipping', lazy: page(() => import('@/web/features/public/policy-pages'), 'ShippingPage') },
        // the public payment link (operations §2, ruling 34): no sign-in
        { path: '/pay/:linkToken', lazy: page(() => import('@/web/features/pay/pay-link-page'), 'PayLinkPage') },
        { path: '/pay/:linkToken/success', lazy: page(() => import('@/web/features/pay/pay-success-page'), 'PaySuccessPage') },
        { path: '/payment', lazy: page(() => import('@/web/features/pay/payment-page'), 'PaymentPage') },
        {
          element: <RequireRole role="master_admin"><Outlet /></RequireRole>,
          children: [
            { path: '/admin/dashboard', lazy: page(() => import('@/web/features/admin/admin-dashboard-page'), 'AdminDashboardPage') },
            { path: '/admin/schools/:id', lazy: page(() => import('@/web/features/admin/school-detail-page'), 'SchoolDetailPage') },
          ],
        },
        {
          element: <RequireRole role="school_admin"><Outlet /></RequireRole>,
          children: [
            { path: '/school/dashboard', ...dashboardRoute },
            { path: '/dashboard', ...dashboardRoute },
            { path: '/school/settings', lazy: page(() => import('@/web/features/settings/settings-page'), 'SettingsPage') },
            { path: '/school/receipts/:id/print', lazy: page(() => import('@/web/features/fees/receipt-print-page'), 'ReceiptPrintPage') },
            // issue 15: pages of one role's reach
            { ...only('results.view'), children: [{ path: '/school/results', lazy: page(() => import('@/web/features/results/results-page'), 'ResultsPage') }] },
            { ...only('billing.manage'), children: [{ path: '/school/settings/billing', lazy: page(() => import('@/web/features/billing/billing-page'), 'BillingPage') }] },
            { ...only('audit.view'), children: [{ path: '/school/settings/audit', lazy: page(() => import('@/web/features/staff/audit-log-page'), 'AuditLogPage') }] },
            {
              ...only('reports.view'),
              children: [
                { path: '/school/reports/print', lazy: page(() => import('@/web/features/reports/report-print-page'), 'ReportPrintPage') },
                { path: '/school/registers/cancellations/print', lazy: page(() => import('@/web/features/office/cancellation-print-page'), 'CancellationPrintPage') },
              ],
            },
          ],
        },
        { path: '*', lazy: page(() => import('@/web/features/public/not-found-page'), 'NotFoundPage') },
      ],
    },
  ]);
};
