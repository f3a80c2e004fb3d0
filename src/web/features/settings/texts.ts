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

/** Settings → Online payments (issue 13 item 1). */
export const ONLINE_PAYMENTS_TEXTS = {
  title: 'Online payments',
  description: 'How parents pay fee links: through your own Razorpay account, directly to your UPI ID, or both.',
  adminOnly: 'Only the school administrator can change how the school collects online.',
  collectsThrough: 'Collecting through',
  through: {
    razorpay: 'Razorpay (your account)',
    sandbox: 'Sandbox: test payments, no money moves',
    upi: 'UPI only: you confirm each payment',
    none: 'Not set up: links cannot be paid yet',
  },
  keyId: 'Razorpay key id',
  keyIdHint: 'Starts with rzp_live_ or rzp_test_.',
  keySecret: 'Razorpay key secret',
  webhookSecret: 'Razorpay webhook secret',
  saved: 'Saved ••••',
  secretHint: 'Leave blank to keep the saved one.',
  clear: 'Remove',
  willClear: 'Will be removed when you save',
  upiVpa: 'UPI ID (VPA)',
  upiVpaHint: 'e.g. school@okaxis: parents pay this ID from the QR code.',
  payeeName: 'Payee name',
  payeeHint: 'The name a parent’s UPI app shows, as on the bank account.',
  webhookUrl: 'Webhook URL',
  webhookHint: 'In Razorpay’s dashboard, add this URL as a webhook for payment.captured and order.paid, with the webhook secret above.',
  copy: 'Copy',
  copied: 'Webhook URL copied',
  save: 'Save online payments',
  saving: 'Saving...',
  success: 'Online payments updated',
  failed: 'Update Failed',
  failedFallback: 'Unable to update online payments. Please try again.',
  loadFailed: 'Failed to fetch online payment settings',
  // validation (zod)
  keyIdFormat: 'The key id starts with rzp_live_ or rzp_test_ followed by letters and digits',
  secretShort: 'The secret looks too short: copy it again from Razorpay',
  secretLong: 'The secret can be at most 100 characters',
  secretSpaces: 'The secret cannot contain spaces',
  vpaFormat: 'A UPI ID looks like name@bank, e.g. school@okaxis',
  payeeRequired: 'Please give the payee name for your UPI ID',
  payeeLong: 'The payee name can be at most 100 characters',
  keysTogether: 'Give both the key id and the key secret',
} as const;
