import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageOutbox, reminderSettings, students } from '../db/schema';
import { activatePlan, seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import type { MessageProvider, OutgoingMessage } from '../messages/provider';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';

/** A provider that keeps what it was given: the sender's side is tested against fake HTTP servers in messages/. */
function memoryProvider(): MessageProvider & { sent: OutgoingMessage[] } {
  const sent: OutgoingMessage[] = [];
  return { name: 'memory', channels: ['whatsapp', 'sms'], sent, async send(m) { sent.push(m); return { providerMessageId: `mem-${m.id}` }; } };
}

const NOW = new Date('2026-11-22T05:30:00.000Z'); // 22 Nov 2026, 11:00 in India

describe('reminders (ruling 35)', () => {
  let ctx: TestContext;
  let school: Awaited<ReturnType<typeof signUpSchool>>;
  const provider = memoryProvider();
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ctx = await createTestApp({ now: NOW, messages: provider, messageWorker: { start: false } });
    school = await signUpSchool(ctx, { schoolName: 'Green Valley School' });
    const db = ctx.database.db;
    await activatePlan(db, { schoolId: school.schoolId });
    const session = await seedSession(db, { schoolId: school.schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31' });
    await seedStructure(db, { schoolId: school.schoolId, className: 'Class 5', academicYear: '2026-2027', tuition: 1500 });
    const people = [
      { key: 'aarav', name: 'Aarav Sharma', className: 'Class 5', set: { parentPhone: '98765 43210', parentWhatsApp: '91234 56789' } },
      { key: 'meera', name: 'Meera Iyer', className: 'Class 5', set: { parentPhone: '9811122233', enableSmsReminders: false } },
      { key: 'kabir', name: 'Kabir Singh', className: 'Class 5', set: { parentPhone: '' } },
      { key: 'isha', name: 'Isha Rao', className: 'Class 5', set: { parentPhone: '9822233344', reminderPreference: 'sms' as const } },
      { key: 'dev', name: 'Dev Patel', className: 'Class 6', set: { parentPhone: '9833344455' } },
    ];
    for (const p of people) {
      const row = await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: p.name, className: p.className });
      await db.update(students).set(p.set).where(eq(students.id, row.id));
      ids[p.key] = row.id;
    }
  });
  afterAll(() => ctx.close());

  const messagesOf = async (key: string) => (await school.api.get(`/api/students/${ids[key]}/messages`)).json().messages as Array<Record<string, unknown>>;

  it('from Fee Status: the preview shows the amount, the words with the link, and a wa.me share link', async () => {
    const res = await school.api.post('/api/reminders/preview', { studentId: ids.aarav });
    expect(res.statusCode).toBe(200);
    const p = res.json();
    // April to November, ₹1,500 a month
    expect(p.amount).toBe('12000.00');
    expect(p.text).toBe(`Dear Parent, fees of ₹12,000.00 are due for Aarav Sharma at Green Valley School. Pay online: ${p.linkUrl}`);
    expect(p.shareUrl).toBe(`https://wa.me/919123456789?text=${encodeURIComponent(p.text)}`);
    expect(p.channels).toEqual([
      { channel: 'whatsapp', to: '919123456789', allowed: true, reason: null },
      { channel: 'sms', to: '919876543210', allowed: true, reason: null },
    ]);
  });

  it('sends by the family’s choice (both → WhatsApp and SMS), once even on a double click; the log shows sent', async () => {
    const [first, second] = await Promise.all([
      school.api.post('/api/reminders/send', { studentIds: [ids.aarav] }),
      school.api.post('/api/reminders/send', { studentIds: [ids.aarav] }),
    ]);
    const bodies = [first!.json(), second!.json()];
    expect(bodies.flatMap((b) => b.queued)).toEqual([
      { studentId: ids.aarav, channel: 'whatsapp' },
      { studentId: ids.aarav, channel: 'sms' },
    ]);
    expect(bodies.flatMap((b) => b.skipped)).toEqual([{ studentId: ids.aarav, studentName: 'Aarav Sharma', reason: 'Already reminded in the last 10 minutes' }]);
    expect(await ctx.app.messageWorker.runOnce()).toBe(2);
    expect(provider.sent.map((m) => [m.channel, m.to])).toEqual([
      ['whatsapp', '919123456789'],
      ['sms', '919876543210'],
    ]);
    expect(provider.sent[0]!.templateValues).toEqual(['Aarav Sharma', '₹12,000.00', expect.stringMatching(/^http:\/\/school\.test\/pay\//), 'Green Valley School']);
    const log = await messagesOf('aarav');
    expect(log.map((m) => [m.channel, m.status, m.to, m.origin])).toEqual(
      expect.arrayContaining([
        ['whatsapp', 'sent', '+91 XXXXXX6789', 'single'],
        ['sms', 'sent', '+91 XXXXXX3210', 'single'],
      ]),
    );
    expect(log[0]!.linkUrl).toMatch(/^http:\/\/school\.test\/pay\//);
    // the preview's link is reused while it still asks for what is owed: one link, not one per message
    expect(new Set(log.map((m) => m.linkUrl)).size).toBe(1);
    // ten minutes on, a new reminder is a new send
    ctx.clock.advance(11 * 60_000);
    expect((await school.api.post('/api/reminders/send', { studentIds: [ids.aarav], channel: 'sms' })).json().queued).toEqual([{ studentId: ids.aarav, channel: 'sms' }]);
  });

  it('bulk to a class’s defaulters: one message per allowed channel, the rest skipped with the reason', async () => {
    ctx.clock.advance(11 * 60_000);
    const found = (await school.api.get('/api/reminders/defaulters?className=Class 5')).json().students as Array<{ id: string; name: string; outstanding: string }>;
    expect(found.map((s) => [s.name, s.outstanding])).toEqual([
      ['Aarav Sharma', '12000.00'],
      ['Meera Iyer', '12000.00'],
      ['Kabir Singh', '12000.00'],
      ['Isha Rao', '12000.00'],
    ]);
    const res = await school.api.post('/api/reminders/send', { studentIds: [...found.map((s) => s.id), ids.dev], channel: 'preferred' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.queued).toEqual([
      { studentId: ids.aarav, channel: 'whatsapp' },
      { studentId: ids.aarav, channel: 'sms' },
      { studentId: ids.meera, channel: 'whatsapp' },
      { studentId: ids.isha, channel: 'sms' },
    ]);
    expect(body.skipped).toEqual([
      { studentId: ids.kabir, studentName: 'Kabir Singh', reason: 'No valid WhatsApp or phone number' },
      { studentId: ids.dev, studentName: 'Dev Patel', reason: 'Nothing is due' },
    ]);
    expect((await messagesOf('meera')).map((m) => [m.channel, m.origin])).toEqual([['whatsapp', 'bulk']]);
    expect(await messagesOf('kabir')).toEqual([]);
  });

  it('an explicit channel the family refused is skipped, never sent another way', async () => {
    ctx.clock.advance(11 * 60_000);
    const body = (await school.api.post('/api/reminders/send', { studentIds: [ids.meera, ids.isha], channel: 'sms' })).json();
    expect(body.queued).toEqual([{ studentId: ids.isha, channel: 'sms' }]);
    expect(body.skipped).toEqual([{ studentId: ids.meera, studentName: 'Meera Iyer', reason: 'The family has turned off SMS reminders' }]);
    const wa = (await school.api.post('/api/reminders/send', { studentIds: [ids.isha], channel: 'whatsapp' })).json();
    expect(wa.skipped[0].reason).toBe('The family prefers not to get reminders by WhatsApp');
  });

  it('Share on WhatsApp is logged as shared from the clerk’s phone', async () => {
    const res = await school.api.post('/api/reminders/share', { studentId: ids.meera });
    expect(res.json()).toMatchObject({ channel: 'whatsapp', status: 'shared', origin: 'share', to: '+91 XXXXXX2233' });
    expect((await school.api.post('/api/reminders/share', { studentId: ids.isha })).statusCode).toBe(409);
  });

  it('bad input is a 400 with the message', async () => {
    const tooMany = await school.api.post('/api/reminders/send', { studentIds: Array.from({ length: 101 }, () => ids.aarav) });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.body).toContain('Send to at most 100 students at a time');
    expect((await school.api.post('/api/reminders/send', { studentIds: [] })).body).toContain('Choose at least one student');
    const day = await school.api.put('/api/settings/reminders', { enabled: true, dayOfMonth: 29, channel: 'preferred' });
    expect(day.statusCode).toBe(400);
    expect(day.body).toContain('Day of month must be a whole number from 1 to 28');
  });

  it("another school's student is not found, and nothing is queued", async () => {
    const other = await signUpSchool(ctx);
    const before = await ctx.database.db.select().from(messageOutbox).where(eq(messageOutbox.studentId, ids.aarav!));
    for (const res of [
      await other.api.post('/api/reminders/send', { studentIds: [ids.aarav] }),
      await other.api.post('/api/reminders/preview', { studentId: ids.aarav }),
      await other.api.post('/api/reminders/share', { studentId: ids.aarav }),
      await other.api.get(`/api/students/${ids.aarav}/messages`),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    expect((await other.api.get('/api/reminders/defaulters')).json().students).toEqual([]);
    expect(await ctx.database.db.select().from(messageOutbox).where(eq(messageOutbox.studentId, ids.aarav!))).toHaveLength(before.length);
  });

  it('the monthly schedule runs once a month, on or after its day; switched on after the day, it starts next month', async () => {
    ctx.clock.set(NOW);
    const saved = (await school.api.put('/api/settings/reminders', { enabled: true, dayOfMonth: 5, channel: 'preferred' })).json();
    expect(saved).toMatchObject({ enabled: true, dayOfMonth: 5, channel: 'preferred', lastRunMonth: '2026-11', nextRunDate: '2026-12-05', channelsAvailable: ['whatsapp', 'sms'] });
    expect(await ctx.app.reminderScheduler.runOnce()).toEqual([]);
    ctx.clock.set(new Date('2026-12-04T12:00:00.000Z'));
    expect(await ctx.app.reminderScheduler.runOnce()).toEqual([]);
    ctx.clock.set(new Date('2026-12-05T03:00:00.000Z')); // 08:30 in India on the 5th
    const [run] = await ctx.app.reminderScheduler.runOnce();
    // Aarav, Meera, Isha reminded; Kabir has no number (Dev owes nothing: not a defaulter)
    expect(run).toEqual({ schoolId: school.schoolId, month: '2026-12', queued: 3, skipped: 1 });
    const scheduled = await ctx.database.db.select().from(messageOutbox).where(and(eq(messageOutbox.schoolId, school.schoolId), eq(messageOutbox.origin, 'schedule')));
    expect(scheduled).toHaveLength(4);
    ctx.clock.set(new Date('2026-12-20T03:00:00.000Z'));
    expect(await ctx.app.reminderScheduler.runOnce()).toEqual([]);
    const [settings] = await ctx.database.db.select().from(reminderSettings).where(eq(reminderSettings.schoolId, school.schoolId));
    expect(settings).toMatchObject({ lastRunMonth: '2026-12', lastRunSummary: { queued: 3, skipped: 1 } });
    ctx.clock.set(new Date('2027-01-06T03:00:00.000Z'));
    expect((await ctx.app.reminderScheduler.runOnce()).map((r) => r.month)).toEqual(['2027-01']);
  });

  it('a school whose plan has ended reads its log but cannot send (402), and its schedule does not run', async () => {
    ctx.clock.set(new Date('2027-02-10T03:00:00.000Z'));
    await activatePlan(ctx.database.db, { schoolId: school.schoolId, until: new Date('2027-02-01T00:00:00.000Z') });
    // weeks later the old sign-in has lapsed: sign in again (ruling 14's read-only session)
    const login = await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password });
    const api = client(ctx.app, login.json().token);
    const res = await api.post('/api/reminders/send', { studentIds: [ids.isha] });
    expect(res.statusCode).toBe(402);
    expect((await api.get(`/api/students/${ids.isha}/messages`)).statusCode).toBe(200);
    expect(await ctx.app.reminderScheduler.runOnce()).toEqual([]);
  });
});

describe('a server without a way to send', () => {
  it('refuses reminders with a message naming the settings, and queues nothing', async () => {
    const ctx = await createTestApp({ now: NOW, messages: { name: 'none', channels: [], send: async () => ({ providerMessageId: null }) }, messageWorker: { start: false } });
    try {
      const school = await signUpSchool(ctx);
      const res = await school.api.post('/api/reminders/send', { studentIds: ['00000000-0000-4000-8000-000000000000'] });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toContain('MESSAGES_PROVIDER');
      expect((await school.api.get('/api/settings/reminders')).json().channelsAvailable).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
