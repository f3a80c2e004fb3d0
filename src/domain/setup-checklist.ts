/** The steps of the dashboard's setup checklist, in the order a new school takes them. */
export const SETUP_STEPS = ['schoolDetails', 'session', 'feeStructures', 'students', 'firstReceipt'] as const;
export type SetupStepId = (typeof SETUP_STEPS)[number];
