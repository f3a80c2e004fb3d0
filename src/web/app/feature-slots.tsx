import { lazy } from 'react';

/**
 * Pieces of one feature shown inside another feature's screen. Features do not import each other;
 * the app puts them together here, as it does the dashboard panels (DASHBOARD_PANELS).
 */

/** Fee Status, beside Record Fee Payment: Send reminder (with Share on WhatsApp). */
export const FeeStatusStudentActions = lazy(() => import('@/web/features/reminders/send-reminder').then((m) => ({ default: m.SendReminderButton })));

/** Fee Status, below the receipts: the family's message log. */
export const FeeStatusStudentPanels = lazy(() => import('@/web/features/reminders/message-log').then((m) => ({ default: m.MessageLog })));

/** Fee Status, above the student picker: Remind defaulters of a class or the school. */
export const FeeStatusTools = lazy(() => import('@/web/features/reminders/remind-defaulters').then((m) => ({ default: m.RemindDefaultersButton })));

/** Account Settings: the monthly reminder schedule. */
export const SettingsExtraCards = lazy(() => import('@/web/features/reminders/schedule-card').then((m) => ({ default: m.ReminderScheduleCard })));
