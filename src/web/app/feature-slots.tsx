import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Deferred } from '@/web/components/deferred';
import { preloadable } from './preloadable';

/**
 * Pieces of one feature shown inside another feature's screen. Features do not import each other;
 * the app puts them together here, as it does the dashboard panels (DASHBOARD_PANELS). One file for
 * every such slot, so a newcomer finds where a screen gets its extra parts.
 */

/** Fee Status, beside Record Fee Payment: Send reminder (with Share on WhatsApp). */
export const FeeStatusStudentActions = preloadable(() => import('@/web/features/reminders/send-reminder').then((m) => m.SendReminderButton));

/** Fee Status, below the receipts: the family's message log. */
export const FeeStatusStudentPanels = lazy(() => import('@/web/features/reminders/message-log').then((m) => ({ default: m.MessageLog })));

/** Fee Status, above the student picker: Remind defaulters of a class or the school. */
export const FeeStatusTools = preloadable(() => import('@/web/features/reminders/remind-defaulters').then((m) => m.RemindDefaultersButton));

/** What Fee Status passes to the panels under a student's dues: what it already loaded. */
export interface FeeStatusPanelProps {
  student: { id: string; name: string; className: string; section: string; rollNumber: number };
  academicYear: string;
  /** what is due, per month and head, as Fee Status shows it (amounts are rupee strings) */
  account: {
    months: Array<{ key: string; label: string; due: boolean; tuition: { outstanding: string }; bus: { outstanding: string } }>;
    yearly: { heads: Array<{ head: string; label: string; outstanding: string; status: string }> };
  };
  previousBalance: { balance: string };
  ledger: { outstandingTillDate: string };
}

const FEE_STATUS_PANELS: Array<LazyExoticComponent<ComponentType<FeeStatusPanelProps>>> = [
  // payment links and the student's credit (issue 13, ruling 27)
  lazy(() => import('@/web/features/payment-links/student-online-panel').then((m) => ({ default: m.StudentOnlinePanel }))),
  // today's late fine, concessions, instalments and the session statement (issue 16)
  lazy(() => import('@/web/features/fee-policy/student-policy-panel').then((m) => ({ default: m.StudentPolicyPanel }))),
];

/**
 * Fee Status, under a student's dues: payment links and credit, fines, concessions and
 * instalments. They render after the dues have painted (decision 0044), each in its own Suspense.
 */
export function FeeStatusPanels(props: FeeStatusPanelProps) {
  return (
    <Deferred>
      {FEE_STATUS_PANELS.map((Panel, i) => (
        <Suspense key={i} fallback={null}>
          <Panel {...props} />
        </Suspense>
      ))}
    </Deferred>
  );
}

/** Account Settings, below the school's details: cards other features add. */
export const SETTINGS_CARDS: ReadonlyArray<LazyExoticComponent<ComponentType>> = [
  // whole-school data export (ruling 25)
  lazy(() => import('@/web/features/exports/export-card').then((m) => ({ default: m.ExportCard }))),
  // the monthly reminder schedule (ruling 35)
  lazy(() => import('@/web/features/reminders/schedule-card').then((m) => ({ default: m.ReminderScheduleCard }))),
  // staff and the audit log (issue 15 items 1 and 3); each shows itself to Administrators only
  lazy(() => import('@/web/features/staff/staff-card').then((m) => ({ default: m.StaffCard }))),
  lazy(() => import('@/web/features/staff/audit-log-card').then((m) => ({ default: m.AuditLogCard }))),
  // fee policy (issue 16): concession types, late fine rules, collection plans, Tally ledger names
  lazy(() => import('@/web/features/fee-policy/concession-types-card').then((m) => ({ default: m.ConcessionTypesCard }))),
  lazy(() => import('@/web/features/fee-policy/late-fine-card').then((m) => ({ default: m.LateFineCard }))),
  // instalment plans (issue 16 item 3): for those who set up fees
  lazy(() => import('@/web/features/fee-policy/instalment-plan-card').then((m) => ({ default: m.InstalmentPlanCard }))),
  lazy(() => import('@/web/features/fee-policy/tally-mapping-card').then((m) => ({ default: m.TallyMappingCard }))),
];

/** Fee Status, above the student picker: concessions and fine waivers waiting for approval (issue 16). */
export const FeeStatusQueue = preloadable(() => import('@/web/features/fee-policy/approvals-queue').then((m) => m.ApprovalsQueue));

/** Reports, after the report cards: concession register, outstanding by class and statements, Export to Tally (issue 16). */
export const ReportsExtraCards = lazy(() => import('@/web/features/fee-policy/report-cards').then((m) => ({ default: m.PolicyReportCards })));


