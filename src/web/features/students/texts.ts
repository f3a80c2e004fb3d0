/** Texts of the student screens added since mid-year admissions (a Hindi screen adds a file like this). */
export const studentTexts = {
  feesFromLabel: 'Fees From (month)',
  feesFromHint: 'Monthly fees are due from this month. Blank: from the start of the session.',
  feesFrom: 'Fees From',
  feesFromSession: 'Start of session',
  /** the Student Database while the picked student's record loads, and when it cannot */
  loadingStudent: 'Loading student',
  studentFailed: 'Failed to fetch the student',
} as const;
