import {
  BanknoteIcon,
  BarChart3Icon,
  BookCheckIcon,
  CalendarCheckIcon,
  CalendarRangeIcon,
  ClipboardListIcon,
  GlobeIcon,
  GraduationCapIcon,
  LayersIcon,
  ReceiptTextIcon,
  SettingsIcon,
  UserRoundCheckIcon,
  UsersIcon,
  WalletIcon,
  type LucideIcon,
} from 'lucide-react';
import type { Permission } from '@/web/app/permissions';

/** What a tab needs before it opens (operations §2 guards). */
export type TabRequirement = 'students' | 'fee-structures';

export interface DashboardTab {
  id: string;
  label: string;
  icon: LucideIcon;
  /** a tab that is another page (Results, Settings) */
  href?: string;
  requires?: readonly TabRequirement[];
  /** what the tab lets a school do, as a verb phrase; shown while its screen is not part of this version */
  purpose: string;
  /** the role permission that shows the tab (ruling 32); none: everyone signed in to the school */
  capability?: Permission;
}

/** The dashboard tabs of operations §2, in their order. */
export const DASHBOARD_TABS = [
  { id: 'students', label: 'Students', icon: UsersIcon, purpose: 'Look up, add, edit and import students.', capability: 'students.view' },
  { id: 'academic-sessions', label: 'Session Management', icon: CalendarRangeIcon, purpose: 'Create and activate academic sessions.', capability: 'settings.manage' },
  { id: 'fee-structure', label: 'Fee Structure', icon: LayersIcon, purpose: 'Set the tuition and yearly fees of each class.', capability: 'fees.setup' },
  {
    id: 'monthly-fees',
    label: 'Submit Monthly Fee',
    icon: CalendarCheckIcon,
    requires: ['students', 'fee-structures'],
    purpose: 'Record tuition and bus fees month by month and print receipts.',
    capability: 'fees.collect',
  },
  {
    id: 'yearly-fees',
    label: 'Submit Yearly Fee',
    icon: ReceiptTextIcon,
    requires: ['students', 'fee-structures'],
    purpose: 'Record admission, exam, books, uniform and misc fees and print receipts.',
    capability: 'fees.collect',
  },
  {
    id: 'student-fee-status',
    label: 'Student Fee Status',
    icon: ClipboardListIcon,
    requires: ['students'],
    purpose: "See each student's paid and pending months, yearly fees and outstanding balance.",
    capability: 'fees.view',
  },
  {
    id: 'online-payments',
    label: 'Online Payments',
    icon: GlobeIcon,
    requires: ['students'],
    purpose: 'Send payment links, confirm UPI payments and see every online payment of a day.',
    capability: 'payments.reconcile',
  },
  { id: 'results', label: 'Results', icon: GraduationCapIcon, href: '/school/results', purpose: 'Enter marks and print marksheets.', capability: 'results.view' },
  {
    id: 'reports',
    label: 'Reports',
    icon: BarChart3Icon,
    requires: ['students', 'fee-structures'],
    purpose: 'Print monthly, yearly, class-wise, pending fee and income versus expense reports.',
    capability: 'reports.view',
  },
  { id: 'expenses', label: 'Expenses', icon: WalletIcon, purpose: "Record and review the school's expenses by category.", capability: 'expenses.manage' },
  { id: 'passouts', label: 'Passouts', icon: UserRoundCheckIcon, purpose: 'Follow up graduated and discharged students and their outstanding balances.', capability: 'students.view' },
  // the office's day (issue 15 items 4–6)
  {
    id: 'close-day',
    label: 'Close the Day',
    icon: BanknoteIcon,
    purpose: 'Count the cash of your collections and close the day; acknowledge closings.',
    capability: 'cash.close',
  },
  {
    id: 'registers',
    label: 'Registers',
    icon: BookCheckIcon,
    purpose: 'Closings per day and collector, the cheque register and the cancellation register.',
    capability: 'cash.acknowledge',
  },
  { id: 'settings', label: 'Settings', icon: SettingsIcon, href: '/school/settings', purpose: 'Manage your account and school information.' },
] as const satisfies readonly DashboardTab[];

export type DashboardTabId = (typeof DASHBOARD_TABS)[number]['id'];

export const DEFAULT_TAB: DashboardTabId = 'students';

export function findTab(id: string | null): DashboardTab | undefined {
  return DASHBOARD_TABS.find((t) => t.id === id);
}
