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
