import { z } from 'zod';
import { formatINR, type Paise } from './money';
import type { ReminderPreference } from './students';

/**
 * Fee reminders by WhatsApp and SMS (issue 13 item 6, ruling 35): who may be sent what, to which
 * number, and the words of the message. Pure rules shared by the server and the browser.
 */

export const MESSAGE_CHANNELS = ['sms', 'whatsapp'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** What a clerk asks for: one channel, or whatever the family chose. */
export const REQUESTED_CHANNELS = ['sms', 'whatsapp', 'preferred'] as const;
export type RequestedChannel = (typeof REQUESTED_CHANNELS)[number];

export const CHANNEL_LABELS: Record<MessageChannel, string> = { sms: 'SMS', whatsapp: 'WhatsApp' };

/**
 * An Indian mobile number as the providers want it: `91` and ten digits starting 6–9. Accepts what
 * people type (`98765 43210`, `+91-98765-43210`, `098765 43210`, `919876543210`); anything else is
 * no number at all, so a landline or a typo is never messaged.
 */
export function normaliseIndianMobile(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const digits = raw.replace(/[\s\-().]/g, '');
  const match = /^(?:\+?91|0)?([6-9]\d{9})$/.exec(digits);
  return match ? `91${match[1]}` : null;
}

/** `919876543210` → `+91 XXXXXX3210`: enough for the clerk to recognise, not to copy a list of numbers. */
export function maskMobile(normalised: string): string {
  return `+91 XXXXXX${normalised.slice(-4)}`;
}

/** The student fields that decide (operations §3 student fields). */
export interface ReminderConsent {
  parentPhone: string;
  parentWhatsApp: string;
  enableSmsReminders: boolean;
  enableWhatsappReminders: boolean;
  reminderPreference: ReminderPreference;
}

export type SkipReason = 'no_consent' | 'not_preferred' | 'no_number' | 'not_configured';

export const SKIP_MESSAGES: Record<SkipReason | 'nothing_due' | 'recently_sent' | 'passout', (channel?: MessageChannel) => string> = {
  no_consent: (c) => (c ? `The family has turned off ${CHANNEL_LABELS[c]} reminders` : 'The family has turned off reminders'),
  not_preferred: (c) => (c ? `The family prefers not to get reminders by ${CHANNEL_LABELS[c]}` : 'The family prefers another channel'),
  no_number: (c) => (c === 'whatsapp' ? 'No valid WhatsApp or phone number' : 'No valid mobile number'),
  nothing_due: () => 'Nothing is due',
  recently_sent: () => 'Already reminded in the last 10 minutes',
  not_configured: (c) => `${c ? CHANNEL_LABELS[c] : 'Messaging'} is not set up on this server`,
  passout: () => 'The student has left the school',
};

/**
 * The number a channel uses: the WhatsApp number for WhatsApp, the phone for SMS, each falling back
 * to the other (most families give one mobile for both).
 */
export function numberFor(consent: ReminderConsent, channel: MessageChannel): string | null {
  const [first, second] = channel === 'whatsapp' ? [consent.parentWhatsApp, consent.parentPhone] : [consent.parentPhone, consent.parentWhatsApp];
  return normaliseIndianMobile(first) ?? normaliseIndianMobile(second);
}

/** Why a channel may not be used for this family, or null when it may. */
export function channelRefusal(consent: ReminderConsent, channel: MessageChannel): Exclude<SkipReason, 'not_configured'> | null {
  const enabled = channel === 'sms' ? consent.enableSmsReminders : consent.enableWhatsappReminders;
  if (!enabled) return 'no_consent';
  if (consent.reminderPreference !== 'both' && consent.reminderPreference !== channel) return 'not_preferred';
  if (!numberFor(consent, channel)) return 'no_number';
  return null;
}

export type ReminderPlan =
  | { ok: true; sends: Array<{ channel: MessageChannel; to: string }> }
  | { ok: false; reason: SkipReason; channel: MessageChannel | undefined; message: string };

/**
 * What to send (ruling 35). An explicit channel is used only if the family allows it; `preferred`
 * sends on every channel the family's preference names and allows (both → SMS and WhatsApp). Nothing
 * is sent without consent or a number; the first refusal is the reason given.
 */
export function planReminder(consent: ReminderConsent, requested: RequestedChannel, available: readonly MessageChannel[] = MESSAGE_CHANNELS): ReminderPlan {
  const wanted: MessageChannel[] =
    requested !== 'preferred' ? [requested] : consent.reminderPreference === 'both' ? ['whatsapp', 'sms'] : [consent.reminderPreference];
  const sends: Array<{ channel: MessageChannel; to: string }> = [];
  let refusal: { reason: SkipReason; channel: MessageChannel } | null = null;
  for (const channel of wanted) {
    if (!available.includes(channel)) continue;
    const reason = channelRefusal(consent, channel);
    if (reason) refusal ??= { reason, channel };
    else sends.push({ channel, to: numberFor(consent, channel)! });
  }
  if (sends.length > 0) return { ok: true, sends };
  if (refusal) return { ok: false, reason: refusal.reason, channel: refusal.channel, message: SKIP_MESSAGES[refusal.reason](refusal.channel) };
  // every channel the family would take is off on this server
  const channel = wanted.length === 1 ? wanted[0] : undefined;
  return { ok: false, reason: 'not_configured', channel, message: SKIP_MESSAGES.not_configured(channel) };
}

export interface ReminderText {
  schoolName: string;
  studentName: string;
  amount: Paise;
  url: string;
}

/**
 * The words of a reminder. WhatsApp Cloud and DLT SMS send an approved template with these three
 * values; the development outbox and "Share on WhatsApp" send this text, which matches them.
 */
export function reminderText({ schoolName, studentName, amount, url }: ReminderText): string {
  return `Dear Parent, fees of ${formatINR(amount)} are due for ${studentName} at ${schoolName}. Pay online: ${url}`;
}

/** The values of the approved template, in order: {{1}} student, {{2}} amount, {{3}} link, {{4}} school. */
export function templateValues({ schoolName, studentName, amount, url }: ReminderText): [string, string, string, string] {
  return [studentName, formatINR(amount), url, schoolName];
}

/** The clerk's own phone opens WhatsApp with the text ready to send: needs no provider. */
export function whatsappShareUrl(normalisedNumber: string, text: string): string {
  return `https://wa.me/${normalisedNumber}?text=${encodeURIComponent(text)}`;
}

// ---------------------------------------------------------------------------------------------
// The monthly schedule ("on the 5th, remind everyone who owes")
// ---------------------------------------------------------------------------------------------

export const DAY_OF_MONTH_MESSAGE = 'Day of month must be a whole number from 1 to 28';

export const reminderSettingsSchema = z.object({
  enabled: z.boolean({ error: 'Enabled must be true or false' }),
  dayOfMonth: z.number({ error: DAY_OF_MONTH_MESSAGE }).int(DAY_OF_MONTH_MESSAGE).min(1, DAY_OF_MONTH_MESSAGE).max(28, DAY_OF_MONTH_MESSAGE),
  channel: z.enum(REQUESTED_CHANNELS, { error: 'Channel must be sms, whatsapp or preferred' }),
});
export type ReminderSettings = z.infer<typeof reminderSettingsSchema>;

export const DEFAULT_REMINDER_SETTINGS: ReminderSettings = { enabled: false, dayOfMonth: 5, channel: 'preferred' };

/**
 * Whether the schedule is due on India date `today` (`YYYY-MM-DD`): on or after the chosen day of a
 * month it has not yet run in. A server that was down on the 5th catches up on the 6th, once.
 */
export function scheduleDue(settings: ReminderSettings, lastRunMonth: string | null, today: string): boolean {
  if (!settings.enabled) return false;
  const month = today.slice(0, 7);
  if (lastRunMonth !== null && lastRunMonth >= month) return false;
  return Number(today.slice(8, 10)) >= settings.dayOfMonth;
}

/** The India date (`YYYY-MM-DD`) the schedule will next run, or null when it is off. */
export function nextScheduledRun(settings: ReminderSettings, lastRunMonth: string | null, today: string): string | null {
  if (!settings.enabled) return null;
  const day = String(settings.dayOfMonth).padStart(2, '0');
  const month = today.slice(0, 7);
  if (scheduleDue(settings, lastRunMonth, today)) return today;
  if ((lastRunMonth === null || lastRunMonth < month) && Number(today.slice(8, 10)) < settings.dayOfMonth) return `${month}-${day}`;
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  return `${next}-${day}`;
}

export const MAX_STUDENTS_PER_SEND = 100;

export const sendRemindersSchema = z.object({
  studentIds: z
    .array(z.string().trim().min(1).max(100), { error: 'Choose at least one student' })
    .min(1, 'Choose at least one student')
    .max(MAX_STUDENTS_PER_SEND, `Send to at most ${MAX_STUDENTS_PER_SEND} students at a time`),
  channel: z.enum(REQUESTED_CHANNELS, { error: 'Channel must be sms, whatsapp or preferred' }).default('preferred'),
});
export type SendRemindersInput = z.input<typeof sendRemindersSchema>;
