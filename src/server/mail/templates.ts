import type { MailMessage } from './mailer';

export function confirmationMail(to: string, schoolName: string, link: string): MailMessage {
  return {
    to,
    subject: `Confirm your email for ${schoolName}`,
    text: [
      `Welcome to School Ledger, ${schoolName}.`,
      '',
      'Please confirm your email address to activate your account:',
      link,
      '',
      'Your 5-day free trial starts once your email is confirmed. No card is needed.',
      'If you did not register, you can ignore this message.',
    ].join('\n'),
    html: `<p>Welcome to School Ledger, <strong>${escapeHtml(schoolName)}</strong>.</p>
<p>Please confirm your email address to activate your account:</p>
<p><a href="${escapeHtml(link)}">Confirm my email</a></p>
<p>Your 5-day free trial starts once your email is confirmed. No card is needed.</p>
<p>If you did not register, you can ignore this message.</p>`,
  };
}

export function resetMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Reset your School Ledger password',
    text: [
      'We received a request to reset your password. Open this link to choose a new one:',
      link,
      '',
      'The link works once and expires in 60 minutes. If you did not ask for it, ignore this message: your password stays as it is.',
    ].join('\n'),
    html: `<p>We received a request to reset your password. Open this link to choose a new one:</p>
<p><a href="${escapeHtml(link)}">Reset my password</a></p>
<p>The link works once and expires in 60 minutes. If you did not ask for it, ignore this message: your password stays as it is.</p>`,
  };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Someone registered with an address that already has an account: the owner hears, the stranger does not. */
export function existingAccountMail(to: string, loginUrl: string, forgotUrl: string): MailMessage {
  const lines = [
    'Someone tried to register a new school on School Ledger with this email address, which already has an account.',
    '',
    `If it was you, sign in here: ${loginUrl}`,
    `Forgot your password? Choose a new one here: ${forgotUrl}`,
    '',
    'If it was not you, you can ignore this message: nothing has changed.',
  ];
  return {
    to,
    subject: 'You already have a School Ledger account',
    text: lines.join('\n'),
    html: `<p>${escapeHtml(lines[0]!)}</p>
<p>If it was you, <a href="${escapeHtml(loginUrl)}">sign in</a>. Forgot your password? <a href="${escapeHtml(forgotUrl)}">Choose a new one</a>.</p>
<p>If it was not you, you can ignore this message: nothing has changed.</p>`,
  };
}

/** Sent to the new address: the change happens only when this link is opened. */
export function emailChangeConfirmMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Confirm your new School Ledger sign-in email',
    text: [
      'You asked to use this address to sign in to School Ledger. Open this link to confirm it:',
      link,
      '',
      'The link works once and expires in 24 hours. Until then you keep signing in with your current address.',
      'If you did not ask for this, ignore this message.',
    ].join('\n'),
    html: `<p>You asked to use this address to sign in to School Ledger. Open this link to confirm it:</p>
<p><a href="${escapeHtml(link)}">Confirm my new email</a></p>
<p>The link works once and expires in 24 hours. Until then you keep signing in with your current address.</p>
<p>If you did not ask for this, ignore this message.</p>`,
  };
}

/** Sent to the current address when a change is requested, so an intruder's change does not go unseen. */
export function emailChangeNoticeMail(to: string, newEmail: string, forgotUrl: string): MailMessage {
  const text = [
    `A change of your School Ledger sign-in email to ${newEmail} was requested. It takes effect only when the link sent to ${newEmail} is opened.`,
    '',
    `If this was not you, change your password now: ${forgotUrl}`,
  ].join('\n');
  return {
    to,
    subject: 'Your School Ledger sign-in email is about to change',
    text,
    html: `<p>A change of your School Ledger sign-in email to <strong>${escapeHtml(newEmail)}</strong> was requested. It takes effect only when the link sent to that address is opened.</p>
<p>If this was not you, <a href="${escapeHtml(forgotUrl)}">change your password now</a>.</p>`,
  };
}

/** The requested new address belongs to another account: its owner is told, the requester is not. */
export function emailInUseMail(to: string): MailMessage {
  return {
    to,
    subject: 'Someone tried to use your email on School Ledger',
    text: [
      'Another School Ledger account asked to change its sign-in email to this address, which already has an account. Nothing has changed.',
      'If you know about this, you can ignore this message.',
    ].join('\n'),
  };
}
