import { MIN_PASSWORD_LENGTH } from '@/domain/auth';

/** Texts of the sign-in, registration and recovery pages that are not in the spec's message lists. */
export const PASSWORD_TEXTS = {
  hint: `At least ${MIN_PASSWORD_LENGTH} characters; not a commonly used password.`,
  requirementPolicy: `At least ${MIN_PASSWORD_LENGTH} characters, not a commonly used one`,
  requirementMatch: 'Both passwords match',
  requirementsTitle: 'Password requirements',
  advice: 'A longer password, or a few unrelated words, is stronger than one with symbols swapped in.',
  mismatch: 'Passwords do not match',
  met: '(met)',
  notMet: '(not met yet)',
} as const;

/** /reset-password: the new-password form's words there. */
export const RESET_PASSWORD_TEXTS = {
  title: 'Choose a new password',
  description: 'The link works once. After the reset you sign in again on every device.',
  doneTitle: 'Password Reset Successful',
  doneBody: 'Your password has been changed and you have been signed out everywhere. Sign in with your new password.',
  signIn: 'Continue to Login',
  backToLogin: 'Back to Login',
  password: 'New password',
  confirm: 'Confirm new password',
  submit: 'Reset Password',
  submitting: 'Resetting...',
  failed: 'Failed to reset password',
  failedRetry: 'Failed to reset password. Please try again.',
} as const;

export const EMAIL_CHANGE_TEXTS = {
  confirming: 'Confirming your new email...',
  doneTitle: 'Email Changed',
  failedTitle: 'Email Change Failed',
  missingToken: 'This link is incomplete. Open the link from your email again, or ask for the change again from Settings.',
  network: 'Network error. Please check your connection and try again.',
  signIn: 'Go to Login',
  settings: 'Back to Settings',
} as const;

/** The master sign-in's second step (decision 0035): the server's messages are shown as sent. */
export const TWO_STEP_TEXTS = {
  codeLabel: 'Authentication code',
  codeHint: 'The 6-digit code your authenticator app shows for School Ledger.',
  title: 'Two-step sign-in',
  description: 'Your password is right. Enter the code from your authenticator app to finish signing in.',
  verify: 'Verify and Sign In',
  verifying: 'Verifying...',
  startOver: 'Use a different account',
} as const;
