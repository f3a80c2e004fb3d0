import type { SetupStepId } from '@/domain/setup-checklist';

/** Texts of the dashboard's setup checklist (issue 12 item 6). */
export const CHECKLIST_TEXTS = {
  title: 'Get your school ready',
  progress: (done: number, total: number) => `${done} of ${total} done`,
  progressLabel: 'Setup progress',
  done: 'Done',
  steps: {
    schoolDetails: { label: 'Add your school details', hint: 'School code, address and phone, printed on receipts.', action: 'Open Settings' },
    session: { label: 'Set up the academic session', hint: 'The session your fees and classes belong to.', action: 'Sessions' },
    feeStructures: { label: 'Set the fee structures', hint: "Each class's monthly tuition and yearly fees.", action: 'Fee Structure' },
    students: { label: 'Add your students', hint: 'One by one, or import a class from a spreadsheet.', action: 'Students' },
    firstReceipt: { label: 'Collect the first fee', hint: 'Record a payment and print its receipt.', action: 'Submit Monthly Fee' },
  } satisfies Record<SetupStepId, { label: string; hint: string; action: string }>,
} as const;

/** Texts of the trial and plan banners (operations §8, ruling 14). */
export const TRIAL_TEXTS = {
  trialExpiredTitle: 'Trial Period Expired',
  trialExpired: 'Your 5-day trial has expired. To continue using the system, please upgrade to a paid plan.',
  readOnly: 'Your data is read-only until then: you can view everything, but adding or changing records is blocked.',
  planExpiredTitle: (endedOn: string | null) => (endedOn ? `Subscription Expired on ${endedOn}` : 'Subscription Expired'),
  planExpired: 'Your plan has ended. Renew it to keep adding and changing records; until then your data is read-only: receipts, reports and exports still work.',
  endingTitle: 'Trial Period Ending Soon',
  daysLeft: (days: number) => `${days} day(s) remaining`,
  ending: (days: number) => `Your trial period will expire in ${days} ${days === 1 ? 'day' : 'days'}. Upgrade now to avoid service interruption.`,
  upgrade: 'Upgrade Plan',
  renew: 'Renew Plan',
  /** said instead of the buttons to a role that cannot manage the plan (ruling 32: billing.manage) */
  askOwner: "Only the school's owner or an administrator can change the plan: ask them to.",
} as const;
