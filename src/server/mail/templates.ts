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
