/** The confirmation before fee entries are saved (operations §5 Monthly fee save). */
export const SAVE_QUESTION = 'Are you sure you want to save these fee entries? This action cannot be undone.';
