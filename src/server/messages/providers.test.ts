import { createHmac } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureMasterAdmin } from '../auth/master-admin';
import { loadConfig } from '../config';
import { messageOutbox } from '../db/schema';
import { seedSession, seedStudent } from '../fees/test-fixtures';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { createMessageProvider } from './create';
import { createDevOutboxProvider } from './dev-outbox';
import { startFakeProvider } from './fake-provider-server';
import { messageOutboxHealth, queueMessages } from './outbox';
import { ProviderError } from './provider';
import { createSmsGatewayProvider } from './sms-gateway';
import { createWhatsAppCloudProvider } from './whatsapp-cloud';

const message = { id: 'm-1', channel: 'whatsapp' as const, to: '919876543210', body: 'Dear Parent, …', templateValues: ['Aarav Sharma', '₹1,500.00', 'http://school.test/pay/abc', 'Green Valley'] };
const signal = () => new AbortController().signal;

describe('WhatsApp Cloud API adapter (against a local fake)', () => {
  let fake: Awaited<ReturnType<typeof startFakeProvider>>;
  beforeAll(async () => {
    fake = await startFakeProvider((n) => ({ messaging_product: 'whatsapp', contacts: [{ wa_id: '919876543210' }], messages: [{ id: `wamid.${n}` }] }));
  });
  afterAll(() => fake.close());
  const provider = () =>
    createWhatsAppCloudProvider({ token: 'EAAG-test-token', phoneNumberId: '1234567890', template: 'fee_reminder', language: 'en', apiUrl: fake.url, appSecret: undefined, verifyToken: undefined });

  it('sends the approved template with the four values and returns the wamid', async () => {
    const result = await provider().send(message, signal());
    const request = fake.requests.at(-1)!;
    expect(request.path).toBe('/1234567890/messages');
    expect(request.headers.authorization).toBe('Bearer EAAG-test-token');
    expect(request.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '919876543210',
      type: 'template',
      template: {
        name: 'fee_reminder',
        language: { code: 'en' },
        components: [
          {
            type: 'body',
            parameters: message.templateValues.map((text) => ({ type: 'text', text })),
          },
        ],
      },
    });
    expect(result.providerMessageId).toMatch(/^wamid\.\d+$/);
  });

  it('a 4xx is a permanent refusal quoting the provider; a 5xx and a 429 are retried', async () => {
    fake.answer({ status: 400, body: { error: { message: '(#132001) Template name does not exist in the translation' } } });
    const refused = await provider().send(message, signal()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProviderError);
    expect((refused as ProviderError).permanent).toBe(true);
    expect((refused as ProviderError).message).toContain('Template name does not exist');
    fake.answer({ status: 503, body: 'busy' }, { status: 429, body: { error: 'slow down' } });
    for (let i = 0; i < 2; i++) {
      const error = (await provider().send(message, signal()).catch((e: unknown) => e)) as ProviderError;
      expect(error.permanent).toBe(false);
    }
  });
});

describe('SMS gateway adapter, MSG91 flow shape (against a local fake)', () => {
  let fake: Awaited<ReturnType<typeof startFakeProvider>>;
  beforeAll(async () => {
    fake = await startFakeProvider((n) => ({ type: 'success', message: `req-${n}` }));
  });
  afterAll(() => fake.close());
  const provider = () =>
    createSmsGatewayProvider({ apiUrl: `${fake.url}/api/v5/flow`, apiKey: 'msg91-auth-key', senderId: 'SCHOOL', dltTemplateId: '1107161234567890123', dltEntityId: '1201159876543210', webhookToken: undefined });

  it('posts the DLT template id, sender, entity id and the values as var1…var4', async () => {
    const result = await provider().send({ ...message, channel: 'sms' }, signal());
    const request = fake.requests.at(-1)!;
    expect(request.path).toBe('/api/v5/flow');
    expect(request.headers.authkey).toBe('msg91-auth-key');
    expect(request.body).toEqual({
      template_id: '1107161234567890123',
      sender: 'SCHOOL',
      DLT_TE_ID: '1107161234567890123',
      PE_ID: '1201159876543210',
      short_url: '0',
      recipients: [{ mobiles: '919876543210', var1: 'Aarav Sharma', var2: '₹1,500.00', var3: 'http://school.test/pay/abc', var4: 'Green Valley' }],
    });
    expect(result.providerMessageId).toMatch(/^req-\d+$/);
  });

  it('an error answer with status 200 is a refusal', async () => {
    fake.answer({ status: 200, body: { type: 'error', message: 'Template ID Missing or Invalid' } });
    const error = (await provider().send({ ...message, channel: 'sms' }, signal()).catch((e: unknown) => e)) as ProviderError;
    expect(error.permanent).toBe(true);
    expect(error.message).toContain('Template ID Missing or Invalid');
  });
});

describe('the development outbox', () => {
  it('writes a file with the number, the values and the text', async () => {
    const dir = '/tmp/ledger-test-messages-dev';
    await rm(dir, { recursive: true, force: true });
    const lines: string[] = [];
    await createDevOutboxProvider(dir, (l) => lines.push(l)).send({ ...message, body: 'Dear Parent, pay at http://school.test/pay/abc' }, signal());
    const [file] = await readdir(dir);
    expect(file).toMatch(/-whatsapp-m-1\.txt$/);
    const text = await readFile(`${dir}/${file}`, 'utf8');
    expect(text).toContain('To: +919876543210');
    expect(text).toContain('http://school.test/pay/abc');
    expect(lines[0]).toContain('WhatsApp to +919876543210');
  });
});

describe('configuration', () => {
  const base = { SESSION_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'y'.repeat(40), DATA_DIR: '/tmp/ledger-test-unused' };
  it('development without settings: the outbox; production: none (reminders refused, logged at start); explicit outbox wins', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).messages.provider).toBe('outbox');
    expect(loadConfig({ ...base, NODE_ENV: 'production', RAZORPAY_KEY_ID: 'rzp_live_abc', RAZORPAY_KEY_SECRET: 'secret-123' }).messages.provider).toBe('none');
    expect(loadConfig({ ...base, NODE_ENV: 'production', PAYMENTS_PROVIDER: 'sandbox', MESSAGES_PROVIDER: 'outbox' }).messages.provider).toBe('outbox');
    const live = loadConfig({ ...base, NODE_ENV: 'production', PAYMENTS_PROVIDER: 'sandbox', SMS_API_KEY: 'msg91-auth-key', SMS_SENDER_ID: 'SCHOOL', SMS_DLT_TEMPLATE_ID: '1107161234567890123' });
    expect(live.messages.provider).toBe('gateways');
    expect(createMessageProvider(live).channels).toEqual(['sms']);
  });
  it('half a channel stops the start with a message naming the settings', () => {
    expect(() => loadConfig({ ...base, WHATSAPP_TOKEN: 'EAAG-test-token' })).toThrow('Set WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_TEMPLATE together');
    expect(() => loadConfig({ ...base, MESSAGES_PROVIDER: 'gateways' })).toThrow('MESSAGES_PROVIDER=gateways needs');
    expect(() => loadConfig({ ...base, SMS_API_KEY: 'msg91-auth-key', SMS_SENDER_ID: 'school', SMS_DLT_TEMPLATE_ID: '1107161234567890123' })).toThrow('SMS_SENDER_ID must be the six capital letters');
  });
});

describe('the sender: retries with backoff, fails after the last try, delivery webhooks', () => {
  let fake: Awaited<ReturnType<typeof startFakeProvider>>;
  let ctx: TestContext;
  let school: Awaited<ReturnType<typeof signUpSchool>>;
  let studentId: string;
  const APP_SECRET = 'whatsapp-app-secret';

  beforeAll(async () => {
    fake = await startFakeProvider((n) => ({ messages: [{ id: `wamid.${n}` }] }));
    ctx = await createTestApp({
      now: new Date('2026-11-22T05:30:00.000Z'),
      env: { WHATSAPP_TOKEN: 'EAAG-test-token', WHATSAPP_PHONE_NUMBER_ID: '1234567890', WHATSAPP_TEMPLATE: 'fee_reminder', WHATSAPP_API_URL: fake.url, WHATSAPP_APP_SECRET: APP_SECRET, WHATSAPP_VERIFY_TOKEN: 'verify-me-please', SMS_API_KEY: 'msg91-auth-key', SMS_SENDER_ID: 'SCHOOL', SMS_DLT_TEMPLATE_ID: '1107161234567890123', SMS_API_URL: `${fake.url}/api/v5/flow`, SMS_WEBHOOK_TOKEN: 'sms-webhook-token-0123456789' },
      messageWorker: { start: false, retryDelaysMs: [30_000, 120_000], sendTimeoutMs: 500 },
    });
    school = await signUpSchool(ctx);
    const session = await seedSession(ctx.database.db, { schoolId: school.schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31' });
    studentId = (await seedStudent(ctx.database.db, { schoolId: school.schoolId, sessionId: session.id, name: 'Aarav Sharma', className: 'Class 5' })).id;
  });
  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });
  beforeEach(() => ctx.clock.set(new Date('2026-11-22T05:30:00.000Z')));

  const queue = async () => {
    const [row] = await queueMessages(ctx.database.db, [
      { schoolId: school.schoolId, studentId, channel: 'whatsapp', to: '919876543210', body: 'Dear Parent…', templateValues: message.templateValues, linkId: null, linkUrl: 'http://school.test/pay/abc', origin: 'single', createdBy: null, now: ctx.clock.now() },
    ]);
    return row!.id;
  };
  const row = async (id: string) => (await ctx.database.db.select().from(messageOutbox).where(eq(messageOutbox.id, id)))[0]!;
  const log = async () => (await school.api.get(`/api/students/${studentId}/messages`)).json().messages as Array<{ id: string; status: string; error: string | null; to: string }>;

  it('success: sent, with the provider id; the log shows it with the number masked', async () => {
    const id = await queue();
    expect(await ctx.app.messageWorker.runOnce()).toBe(1);
    const sent = await row(id);
    expect(sent.status).toBe('sent');
    expect(sent.providerMessageId).toMatch(/^wamid\./);
    expect((await log()).find((m) => m.id === id)).toMatchObject({ status: 'sent', to: '+91 XXXXXX3210', error: null });
  });

  it('5xx, then a timeout: retried after 30 s and 2 min; failed after the third try; health shows it', async () => {
    fake.answer({ status: 502, body: 'bad gateway' }, 'hang', { status: 500, body: 'oops' });
    const id = await queue();
    await ctx.app.messageWorker.runOnce();
    expect(await row(id)).toMatchObject({ status: 'queued', attempts: 1, lastError: expect.stringContaining('answered 502') });
    expect(await ctx.app.messageWorker.runOnce()).toBe(0); // not before the backoff
    ctx.clock.advance(30_000);
    await ctx.app.messageWorker.runOnce();
    expect(await row(id)).toMatchObject({ status: 'queued', attempts: 2, lastError: 'no answer within 0.5 s' });
    ctx.clock.advance(120_000);
    await ctx.app.messageWorker.runOnce();
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: 3, lastError: expect.stringContaining('answered 500') });
    expect((await log()).find((m) => m.id === id)).toMatchObject({ status: 'failed', error: expect.stringContaining('500') });
    const health = await messageOutboxHealth(ctx.database.db);
    expect(health).toMatchObject({ pending: 0, failed: 1, lastError: expect.stringContaining('500') });
    expect(health.lastFailureAt).toEqual(ctx.clock.now());
    // and the master administrator's System tab shows it (ruling 31: failures are visible)
    await ensureMasterAdmin(ctx.database.db, { email: 'master@ledger.test', password: 'MasterPass123', now: ctx.clock.now() });
    const master = client(ctx.app, (await client(ctx.app).post('/api/auth/admin-login', { email: 'master@ledger.test', password: 'MasterPass123' })).json().token);
    const system = (await master.get('/api/admin/system')).json();
    expect(system.messages).toMatchObject({ status: 'warning', provider: 'gateways', pending: 0, failed: 1, lastError: expect.stringContaining('500') });
  });

  it('a 4xx fails at once, without retries', async () => {
    fake.answer({ status: 400, body: { error: { message: 'Recipient phone number not in allowed list' } } });
    const id = await queue();
    await ctx.app.messageWorker.runOnce();
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: 1, lastError: expect.stringContaining('not in allowed list') });
  });

  const signed = (payload: unknown, secret = APP_SECRET) => {
    const raw = JSON.stringify(payload);
    return { raw, signature: `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}` };
  };
  const statusEvent = (id: string, status: string, errors?: unknown[]) => ({
    object: 'whatsapp_business_account',
    entry: [{ id: 'waba', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', statuses: [{ id, status, timestamp: '1795000000', recipient_id: '919876543210', ...(errors ? { errors } : {}) }] } }] }],
  });
  const post = (raw: string, signature?: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/messages/webhook/whatsapp', headers: { 'content-type': 'application/json', ...(signature ? { 'x-hub-signature-256': signature } : {}) }, payload: raw });

  it('the delivery webhook marks it delivered (signature checked; a late "sent" does not step back)', async () => {
    const id = await queue();
    await ctx.app.messageWorker.runOnce();
    const wamid = (await row(id)).providerMessageId!;
    const forged = signed(statusEvent(wamid, 'delivered'), 'not-the-secret');
    expect((await post(forged.raw, forged.signature)).statusCode).toBe(400);
    expect((await post(forged.raw)).statusCode).toBe(400);
    expect((await row(id)).status).toBe('sent');
    const good = signed(statusEvent(wamid, 'delivered'));
    const answer = await post(good.raw, good.signature);
    expect(answer.json()).toEqual({ ok: true, updated: 1 });
    const late = signed(statusEvent(wamid, 'sent'));
    await post(late.raw, late.signature);
    expect(await row(id)).toMatchObject({ status: 'delivered', deliveredAt: ctx.clock.now() });
    expect((await log()).find((m) => m.id === id)?.status).toBe('delivered');
  });

  it('a failed status from WhatsApp is logged with its reason', async () => {
    const id = await queue();
    await ctx.app.messageWorker.runOnce();
    const wamid = (await row(id)).providerMessageId!;
    const event = signed(statusEvent(wamid, 'failed', [{ code: 131026, title: 'Message undeliverable' }]));
    await post(event.raw, event.signature);
    expect(await row(id)).toMatchObject({ status: 'failed', lastError: '131026 Message undeliverable' });
  });

  it('the webhook check echoes the challenge only for the verify token', async () => {
    const api = client(ctx.app);
    const ok = await api.get('/api/messages/webhook/whatsapp?hub.mode=subscribe&hub.verify_token=verify-me-please&hub.challenge=12345');
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('12345');
    expect((await api.get('/api/messages/webhook/whatsapp?hub.mode=subscribe&hub.verify_token=wrong-token&hub.challenge=1')).statusCode).toBe(403);
  });

  it('the SMS gateway’s delivery report is taken only at the URL with the token', async () => {
    const id = await queue();
    await ctx.database.db.update(messageOutbox).set({ channel: 'sms', status: 'sent', providerMessageId: 'req-sms-1' }).where(eq(messageOutbox.id, id));
    const report = [{ requestId: 'req-sms-1', status: 'delivered', number: '919876543210' }];
    const wrong = await ctx.app.inject({ method: 'POST', url: '/api/messages/webhook/sms/not-the-token-at-all', payload: report });
    expect(wrong.statusCode).toBe(404);
    expect((await row(id)).status).toBe('sent');
    const right = await ctx.app.inject({ method: 'POST', url: '/api/messages/webhook/sms/sms-webhook-token-0123456789', payload: report });
    expect(right.json()).toEqual({ ok: true, updated: 1 });
    expect((await row(id)).status).toBe('delivered');
  });

  it("another school's message log is not found", async () => {
    const other = await signUpSchool(ctx);
    expect((await other.api.get(`/api/students/${studentId}/messages`)).statusCode).toBe(404);
  });
});
