import { describe, expect, it } from 'vitest';
import { paise } from './money';
import {
  maskMobile,
  nextScheduledRun,
  normaliseIndianMobile,
  planReminder,
  reminderText,
  scheduleDue,
  whatsappShareUrl,
  type ReminderConsent,
} from './reminders';
import { REMINDER_PREFERENCES } from './students';

const family = (over: Partial<ReminderConsent> = {}): ReminderConsent => ({
  parentPhone: '98765 43210',
  parentWhatsApp: '+91 91234 56789',
  enableSmsReminders: true,
  enableWhatsappReminders: true,
  reminderPreference: 'both',
  ...over,
});

describe('Indian mobile numbers', () => {
  it.each([
    ['9876543210', '919876543210'],
    ['98765 43210', '919876543210'],
    ['+91-98765-43210', '919876543210'],
    ['098765 43210', '919876543210'],
    ['919876543210', '919876543210'],
    ['(+91) 6123456789', '916123456789'],
  ])('%s → %s', (raw, expected) => expect(normaliseIndianMobile(raw)).toBe(expected));

  it.each(['', '12345', '5876543210', '0194 2452345', '+1 415 555 0100', '98765432101', 'call me'])('%s is no number', (raw) =>
    expect(normaliseIndianMobile(raw)).toBeNull(),
  );

  it('is shown masked', () => expect(maskMobile('919876543210')).toBe('+91 XXXXXX3210'));
});

describe('consent matrix (ruling 35): every combination of the three fields and the numbers', () => {
  const numbers = [
    { name: 'both numbers', parentPhone: '9876543210', parentWhatsApp: '9123456789' },
    { name: 'phone only', parentPhone: '9876543210', parentWhatsApp: '' },
    { name: 'WhatsApp only', parentPhone: '', parentWhatsApp: '9123456789' },
    { name: 'no number', parentPhone: '', parentWhatsApp: '' },
    { name: 'an invalid number', parentPhone: '12345', parentWhatsApp: '' },
  ];
  for (const n of numbers)
    for (const sms of [true, false])
      for (const wa of [true, false])
        for (const pref of REMINDER_PREFERENCES)
          for (const requested of ['sms', 'whatsapp', 'preferred'] as const) {
            const consent = family({ parentPhone: n.parentPhone, parentWhatsApp: n.parentWhatsApp, enableSmsReminders: sms, enableWhatsappReminders: wa, reminderPreference: pref });
            const hasNumber = Boolean(normaliseIndianMobile(n.parentPhone) ?? normaliseIndianMobile(n.parentWhatsApp));
            const allowed = (c: 'sms' | 'whatsapp') => (c === 'sms' ? sms : wa) && (pref === 'both' || pref === c) && hasNumber;
            const wanted: Array<'sms' | 'whatsapp'> = requested !== 'preferred' ? [requested] : pref === 'both' ? ['whatsapp', 'sms'] : [pref];
            const expected = wanted.filter(allowed);
            it(`${n.name}, sms ${sms ? 'on' : 'off'}, WhatsApp ${wa ? 'on' : 'off'}, prefers ${pref}, asked ${requested} → ${expected.join('+') || 'nothing'}`, () => {
              const plan = planReminder(consent, requested);
              if (expected.length === 0) {
                expect(plan.ok).toBe(false);
              } else {
                expect(plan.ok && plan.sends.map((s) => s.channel)).toEqual(expected);
              }
            });
          }

  it('names the reason it sends nothing', () => {
    expect(planReminder(family({ enableSmsReminders: false }), 'sms')).toMatchObject({ ok: false, message: 'The family has turned off SMS reminders' });
    expect(planReminder(family({ reminderPreference: 'whatsapp' }), 'sms')).toMatchObject({ ok: false, message: 'The family prefers not to get reminders by SMS' });
    expect(planReminder(family({ parentPhone: '', parentWhatsApp: '' }), 'whatsapp')).toMatchObject({ ok: false, message: 'No valid WhatsApp or phone number' });
    expect(planReminder(family(), 'sms', ['whatsapp'])).toMatchObject({ ok: false, message: 'SMS is not set up on this server' });
  });

  it('WhatsApp goes to the WhatsApp number, SMS to the phone, each falling back to the other', () => {
    expect(planReminder(family(), 'preferred')).toEqual({
      ok: true,
      sends: [
        { channel: 'whatsapp', to: '919123456789' },
        { channel: 'sms', to: '919876543210' },
      ],
    });
    expect(planReminder(family({ parentWhatsApp: '' }), 'whatsapp')).toEqual({ ok: true, sends: [{ channel: 'whatsapp', to: '919876543210' }] });
  });
});

describe('the words', () => {
  it('name the amount in en-IN rupees, the student, the school and the link', () => {
    expect(reminderText({ schoolName: 'Green Valley School', studentName: 'Aarav Sharma', amount: paise(1_234_550), url: 'https://fees.test/pay/abc' })).toBe(
      'Dear Parent, fees of ₹12,345.50 are due for Aarav Sharma at Green Valley School. Pay online: https://fees.test/pay/abc',
    );
  });

  it('wa.me carries the text encoded', () => {
    expect(whatsappShareUrl('919876543210', 'Fees of ₹1,500.00 & more: https://x.test/pay/a?b=1')).toBe(
      'https://wa.me/919876543210?text=Fees%20of%20%E2%82%B91%2C500.00%20%26%20more%3A%20https%3A%2F%2Fx.test%2Fpay%2Fa%3Fb%3D1',
    );
  });
});

describe('the monthly schedule', () => {
  const on5th = { enabled: true, dayOfMonth: 5, channel: 'preferred' as const };
  it('is due on or after its day, once a month', () => {
    expect(scheduleDue(on5th, null, '2026-12-04')).toBe(false);
    expect(scheduleDue(on5th, null, '2026-12-05')).toBe(true);
    expect(scheduleDue(on5th, '2026-11', '2026-12-06')).toBe(true);
    expect(scheduleDue(on5th, '2026-12', '2026-12-20')).toBe(false);
    expect(scheduleDue({ ...on5th, enabled: false }, null, '2026-12-05')).toBe(false);
  });
  it('tells the next run', () => {
    expect(nextScheduledRun(on5th, '2026-11', '2026-11-22')).toBe('2026-12-05');
    expect(nextScheduledRun(on5th, '2026-11', '2026-12-02')).toBe('2026-12-05');
    expect(nextScheduledRun(on5th, '2026-12', '2026-12-22')).toBe('2027-01-05');
    expect(nextScheduledRun({ ...on5th, enabled: false }, null, '2026-12-02')).toBeNull();
  });
});
