import { ROLE_LABELS, type StaffRole } from '../../domain/permissions';
import { INVITE_VALID_DAYS } from '../../domain/staff';
import { escapeHtml } from '../mail/templates';
import type { MailMessage } from '../mail/mailer';

/** The invitation (ruling 32): the link sets the password; it works once, for a week. */
export function inviteMail(o: { to: string; name: string; schoolName: string; invitedBy: string; role: StaffRole; link: string }): MailMessage {
  const role = ROLE_LABELS[o.role];
  return {
    to: o.to,
    subject: `${o.schoolName} invites you to School Ledger`,
    text: [
      `Hello ${o.name},`,
      '',
      `${o.invitedBy} has invited you to ${o.schoolName} on School Ledger as ${role}.`,
      'Set your password to start:',
      o.link,
      '',
      `The link works once and expires in ${INVITE_VALID_DAYS} days. If you did not expect this, you can ignore this message.`,
    ].join('\n'),
    html: `<p>Hello ${escapeHtml(o.name)},</p>
<p>${escapeHtml(o.invitedBy)} has invited you to <strong>${escapeHtml(o.schoolName)}</strong> on School Ledger as ${escapeHtml(role)}.</p>
<p><a href="${escapeHtml(o.link)}">Set my password</a></p>
<p>The link works once and expires in ${INVITE_VALID_DAYS} days. If you did not expect this, you can ignore this message.</p>`,
  };
}
