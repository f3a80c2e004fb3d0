/** Texts of the student screens added with mid-year admissions (a Hindi screen adds a file like this). */
export const studentTexts = {
  feesFromLabel: 'Fees From (month)',
  feesFromHint: 'Monthly fees are due from this month. Blank: from the start of the session.',
  feesFrom: 'Fees From',
  feesFromSession: 'Start of session',
} as const;
