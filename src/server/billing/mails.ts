import { formatDateIN } from '../../domain/dates';
import { formatINR, paise } from '../../domain/money';
import type { MailMessage } from '../mail/mailer';
import { escapeHtml } from '../mail/templates';

/** The India calendar date of an instant, "2026-11-22". */
export function indiaDate(at: Date): string {
  return new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 10);
}

const lines = (to: string, subject: string, paragraphs: string[], link: { url: string; label: string }): MailMessage => ({
  to,
  subject,
  text: [...paragraphs, '', `${link.label}: ${link.url}`].join('\n\n'),
  html: `${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}\n<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
});

export function paymentReceivedMail(
  to: string,
  { schoolName, invoiceNumber, totalPaise, description, billingUrl }: { schoolName: string; invoiceNumber: string; totalPaise: number; description: string; billingUrl: string },
): MailMessage {
  return lines(
    to,
    `Payment received: tax invoice ${invoiceNumber}`,
    [
      `Thank you, ${schoolName}. We have received your payment of ${formatINR(paise(totalPaise))} for ${description}.`,
      `Your GST tax invoice ${invoiceNumber} is attached as a PDF; it stays in Settings → Billing to download again.`,
    ],
    { url: billingUrl, label: 'Open Billing' },
  );
}

export function renewalReminderMail(
  to: string,
  { schoolName, planName, endsOn, daysLeft, renewUrl }: { schoolName: string; planName: string; endsOn: Date; daysLeft: 7 | 1; renewUrl: string },
): MailMessage {
  const when = daysLeft === 1 ? 'tomorrow' : `in ${daysLeft} days`;
  return lines(
    to,
    `Your ${planName} plan ends ${when}`,
    [
      `${schoolName}: your School Ledger ${planName} plan ends on ${formatDateIN(indiaDate(endsOn))}.`,
      'Renew before then to keep adding and changing records without a break. Nothing is lost if it ends: your data stays readable, and you can renew at any time.',
    ],
    { url: renewUrl, label: 'Renew my plan' },
  );
}

export function expiredMail(to: string, { schoolName, endedOn, renewUrl }: { schoolName: string; endedOn: Date; renewUrl: string }): MailMessage {
  return lines(
    to,
    'Your School Ledger plan has ended',
    [
      `${schoolName}: your plan ended on ${formatDateIN(indiaDate(endedOn))}.`,
      'Your data is safe and stays readable: you can still sign in, view and print receipts and export everything. To add or change records again, renew your plan.',
    ],
    { url: renewUrl, label: 'Renew my plan' },
  );
}

/** The free trial's last day (ruling 12): what continues and what stops when it ends. */
export function trialEndingMail(to: string, { schoolName, endsAt, renewUrl }: { schoolName: string; endsAt: Date; renewUrl: string }): MailMessage {
  return lines(
    to,
    'Your free trial ends tomorrow',
    [
      `${schoolName}: your School Ledger free trial ends on ${formatDateIN(indiaDate(endsAt))}.`,
      'Choose a plan before then to keep collecting fees without a break. Nothing is lost if it ends: your data stays readable and you can subscribe at any time.',
    ],
    { url: renewUrl, label: 'Choose a plan' },
  );
}

export function trialEndedMail(to: string, { schoolName, endedAt, renewUrl }: { schoolName: string; endedAt: Date; renewUrl: string }): MailMessage {
  return lines(
    to,
    'Your free trial has ended',
    [
      `${schoolName}: your free trial ended on ${formatDateIN(indiaDate(endedAt))}.`,
      'Your data is safe and stays readable: you can still sign in, view and print receipts and export everything. To add or change records again, choose a plan.',
    ],
    { url: renewUrl, label: 'Choose a plan' },
  );
}
