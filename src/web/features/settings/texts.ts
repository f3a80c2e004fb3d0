import { MIN_PASSWORD_LENGTH } from '@/domain/auth';

/** Texts of the account settings cards that the server does not send. */
export const SETTINGS_TEXTS = {
  passwordDescription: `Use at least ${MIN_PASSWORD_LENGTH} characters; a commonly used password is refused. Other devices are signed out.`,
  emailDescription: 'You sign in with this address and receive account emails there. A new address is used once you confirm it from its inbox.',
  emailSentTitle: 'Check your new inbox',
  emailSentToast: 'Confirmation Email Sent',
  emailFailedToast: 'Email Change Failed',
  emailFailed: 'Unable to change email. Please verify your password and try again.',
} as const;
