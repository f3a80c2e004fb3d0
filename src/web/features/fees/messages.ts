/** The confirmation before fee entries are saved (operations §5 Monthly fee save). */
export const SAVE_QUESTION = 'Are you sure you want to save these fee entries? This action cannot be undone.';

/** The yearly fee cards' texts (amounts arrive formatted through the en-IN helpers). */
export const yearlyTexts = {
  partial: (received: string, due: string) => `Partial ${received} of ${due}`,
  stillDue: (remaining: string) => `${remaining} still due: collect it here`,
  moreThanLeft: (remaining: string) => `Only ${remaining} is still due on this fee`,
  paidCount: (paid: number, partial: number) => (partial > 0 ? `Paid (${paid}/5, ${partial} partial)` : `Paid (${paid}/5)`),
} as const;
