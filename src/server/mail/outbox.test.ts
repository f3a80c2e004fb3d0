import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMasterAdmin } from '../auth/master-admin';
import { mailOutbox, schools } from '../db/schema';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { createSmtpMailer } from './mailer';
import { DEFAULT_RETRY_DELAYS_MS, MailWorker, queueMail } from './outbox';

const registration = (email: string, schoolName = 'Outbox Public School') => ({
  schoolName,
  email,
  phone: '9876543210',
  address: 'Lal Chowk, Srinagar',
  password: 'Outbox-pass-2026',
  selectedPlan: 'basic',
});

const rowsTo = (ctx: TestContext, to: string) => ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));

/** The worker sends in the background here, as in production. */
describe('with the mail worker running', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  it('registration answers at once while the SMTP server is slow, and the mail arrives later', async () => {
    const smtpDelayMs = 6_000;
    ctx.smtp.slowDown(smtpDelayMs);
    try {
      const started = Date.now();
      const res = await client(ctx.app).post('/api/school-registration', registration('slow@school.test'));
      const answeredInMs = Date.now() - started;
      expect(res.statusCode).toBe(201);
      expect(answeredInMs).toBeLessThan(smtpDelayMs);
      expect(ctx.smtp.countTo('slow@school.test')).toBe(0);

      const mail = await ctx.smtp.waitFor('slow@school.test', /Confirm your email/, smtpDelayMs + 10_000);
      expect(mail.subject).toBe('Confirm your email for Outbox Public School');
      await expect.poll(async () => (await rowsTo(ctx, 'slow@school.test'))[0]?.status).toBe('sent');
    } finally {
      ctx.smtp.recover();
    }
  });
});

/** The worker is driven by hand (`flushMail`), and the app clock moves through the backoff. */
describe('with the mail worker driven by hand', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ mailWorker: { start: false } });
    await ensureMasterAdmin(ctx.database.db, { email: 'master@ledger.test', password: 'MasterPass123', now: ctx.clock.now() });
  });
  /** signs in afresh each time: the tests move the clock past a session's lifetime */
  const masterApi = {
    async get(url: string) {
      const login = await client(ctx.app).post('/api/auth/admin-login', { email: 'master@ledger.test', password: 'MasterPass123' });
      return client(ctx.app, login.json().token).get(url);
    },
  };
  afterAll(() => ctx.close());

  it('shows an empty, healthy outbox to the master administrator', async () => {
    const res = await masterApi.get('/api/admin/mail-outbox');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ queued: 0, failed: 0, oldestQueuedAt: null, lastFailure: null });
  });

  it('a refused send is retried after the backoff and arrives once SMTP comes back', async () => {
    ctx.smtp.refuse(451, 'Greylisted, try again later');
    const res = await client(ctx.app).post('/api/school-registration', registration('retry@school.test'));
    expect(res.statusCode).toBe(201);

    expect(await ctx.flushMail()).toBe(1);
    expect(ctx.smtp.countTo('retry@school.test')).toBe(0);
    const [waiting] = await rowsTo(ctx, 'retry@school.test');
    expect(waiting).toMatchObject({ kind: 'confirm-email', status: 'queued', attempts: 1 });
    expect(waiting!.lastError).toContain('451');
    expect(waiting!.nextAttemptAt).toEqual(new Date(ctx.clock.now().getTime() + 30_000));

    const health = (await masterApi.get('/api/admin/mail-outbox')).json();
    expect(health).toMatchObject({ queued: 1, failed: 0, lastFailure: { to: 'r***@school.test', status: 'queued' } });
    expect(health.lastFailure.error).toContain('Greylisted');

    ctx.smtp.recover();
    expect(await ctx.flushMail()).toBe(0); // not before the backoff has passed
    ctx.clock.advance(30_000);
    expect(await ctx.flushMail()).toBe(1);
    const mail = await ctx.smtp.waitFor('retry@school.test', /Confirm your email/);
    expect(mail.links[0]).toMatch(/^http:\/\/school\.test\/confirm-email\?token=/);
    expect(ctx.smtp.countTo('retry@school.test')).toBe(1);

    const [sent] = await rowsTo(ctx, 'retry@school.test');
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, text: '', html: null });
    expect(sent!.sentAt).toEqual(ctx.clock.now());
    expect((await masterApi.get('/api/admin/mail-outbox')).json()).toMatchObject({ queued: 0, oldestQueuedAt: null });
  });

  it('after the last attempt the mail is failed and shows in the mail-outbox health', async () => {
    const school = await signUpSchool(ctx);
    ctx.smtp.refuse(550, `<${school.email}>: Recipient address rejected`);
    try {
      await client(ctx.app).post('/api/auth/forgot-password', { email: school.email });
      for (const delay of DEFAULT_RETRY_DELAYS_MS) {
        expect(await ctx.flushMail()).toBe(1);
        ctx.clock.advance(delay);
      }
      expect(await ctx.flushMail()).toBe(1);
      ctx.clock.advance(24 * 60 * 60_000);
      expect(await ctx.flushMail()).toBe(0); // a failed mail is not tried again
    } finally {
      ctx.smtp.recover();
    }
    const rows = (await rowsTo(ctx, school.email)).filter((r) => r.kind === 'reset-password');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'failed', attempts: DEFAULT_RETRY_DELAYS_MS.length + 1, schoolId: school.schoolId });
    expect(ctx.smtp.inbox.filter((m) => /Reset your/.test(m.subject))).toHaveLength(0);

    const res = await masterApi.get('/api/admin/mail-outbox');
    expect(res.statusCode).toBe(200);
    const health = res.json();
    expect(health.failed).toBe(1);
    expect(health.lastFailure).toEqual({
      at: new Date(ctx.clock.now().getTime() - 24 * 60 * 60_000).toISOString(),
      error: expect.stringMatching(/550.*<a\*\*\*@school\.test>: Recipient address rejected/),
      to: `${school.email[0]}***@school.test`,
      status: 'failed',
    });
    expect(JSON.stringify(health)).not.toContain(school.email);
  });

  it('keeps the outbox health from school administrators and strangers', async () => {
    const school = await signUpSchool(ctx);
    const asSchool = await school.api.get('/api/admin/mail-outbox');
    expect(asSchool.statusCode).toBe(403);
    expect(asSchool.json().error).toBe('Master administrator access required');
    expect((await client(ctx.app).get('/api/admin/mail-outbox')).statusCode).toBe(401);
  });

  it('a rolled-back registration queues nothing and sends nothing', async () => {
    // the commit itself fails, after the mail was written: as a lost connection or a serialization failure would
    await ctx.database.db.execute(sql`
      create function fail_outbox_commit() returns trigger language plpgsql as $$
      begin raise exception 'commit refused for the test'; end $$`);
    await ctx.database.db.execute(sql`
      create constraint trigger fail_outbox_commit after insert on mail_outbox
        deferrable initially deferred for each row
        when (new.to_address = 'rollback@school.test') execute function fail_outbox_commit();
    `);
    try {
      const res = await client(ctx.app).post('/api/school-registration', registration('rollback@school.test', 'Rolled Back School'));
      expect(res.statusCode).toBe(500);
      expect(res.json().error).toBe('Something went wrong on our side. Please try again.');
    } finally {
      await ctx.database.db.execute(sql`drop trigger fail_outbox_commit on mail_outbox`);
      await ctx.database.db.execute(sql`drop function fail_outbox_commit()`);
    }
    expect(await ctx.database.db.select().from(schools).where(eq(schools.email, 'rollback@school.test'))).toHaveLength(0);
    expect(await rowsTo(ctx, 'rollback@school.test')).toHaveLength(0);
    await ctx.flushMail();
    expect(ctx.smtp.countTo('rollback@school.test')).toBe(0);
  });

  it('two workers never send one row twice', async () => {
    const addresses = Array.from({ length: 12 }, (_, i) => `pair-${i}-of-12@school.test`);
    await ctx.database.db.transaction(async (tx) => {
      for (const to of addresses) await queueMail(tx, { to, subject: 'Fee reminder', text: 'Please pay the April fee.', kind: 'test' });
    });
    const other = new MailWorker({ db: ctx.database.db, mailer: createSmtpMailer(ctx.smtp.url, ctx.config.mailFrom), clock: ctx.clock });
    const [mine, theirs] = await Promise.all([ctx.flushMail(), other.runOnce()]);
    expect(mine + theirs).toBe(addresses.length);
    for (const to of addresses) expect(ctx.smtp.countTo(to)).toBe(1);
    const rows = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'test'));
    expect(rows.map((r) => [r.status, r.attempts])).toEqual(addresses.map(() => ['sent', 1]));
  });

  it('a hung SMTP server fails the attempt after the timeout instead of stalling the worker', async () => {
    const worker = new MailWorker({
      db: ctx.database.db,
      mailer: createSmtpMailer(ctx.smtp.url, ctx.config.mailFrom, { connectMs: 1_000, greetingMs: 1_000, socketMs: 1_000 }),
      clock: ctx.clock,
    });
    const backstop = new MailWorker({
      db: ctx.database.db,
      mailer: createSmtpMailer(ctx.smtp.url, ctx.config.mailFrom),
      clock: ctx.clock,
      sendTimeoutMs: 1_000,
    });
    ctx.smtp.hang();
    try {
      await queueMail(ctx.database.db, { to: 'hung@school.test', subject: 'Hello', text: 'Hello', kind: 'test-hung' });
      const started = Date.now();
      expect(await worker.runOnce()).toBe(1);
      const [first] = await rowsTo(ctx, 'hung@school.test');
      expect(first).toMatchObject({ status: 'queued', attempts: 1 });
      expect(first!.lastError).toMatch(/timeout/i);

      // the worker's own limit holds even when the SMTP client would wait longer
      ctx.clock.advance(30_000);
      expect(await backstop.runOnce()).toBe(1);
      const [second] = await rowsTo(ctx, 'hung@school.test');
      expect(second).toMatchObject({ status: 'queued', attempts: 2, lastError: 'sending took longer than 1 s' });
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      ctx.smtp.recover();
    }
    ctx.clock.advance(2 * 60_000);
    expect(await worker.runOnce()).toBe(1);
    expect(ctx.smtp.countTo('hung@school.test')).toBe(1);
  });

  it('stopping the worker lets the mail being sent finish, and sends nothing more', async () => {
    const worker = new MailWorker({ db: ctx.database.db, mailer: createSmtpMailer(ctx.smtp.url, ctx.config.mailFrom), clock: ctx.clock });
    ctx.smtp.slowDown(1_000);
    try {
      await queueMail(ctx.database.db, { to: 'stop1@school.test', subject: 'First', text: 'First', kind: 'test-stop' });
      await queueMail(ctx.database.db, { to: 'stop2@school.test', subject: 'Second', text: 'Second', kind: 'test-stop' });
      worker.start();
      await expect.poll(async () => (await rowsTo(ctx, 'stop1@school.test'))[0]?.status, { interval: 20 }).toBe('sending');
      await worker.stop();
    } finally {
      ctx.smtp.recover();
    }
    expect((await rowsTo(ctx, 'stop1@school.test'))[0]?.status).toBe('sent');
    expect(ctx.smtp.countTo('stop1@school.test')).toBe(1);
    expect((await rowsTo(ctx, 'stop2@school.test'))[0]).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await worker.runOnce()).toBe(0); // a stopped worker stays stopped
    expect(await ctx.flushMail()).toBe(1); // the app's worker picks the rest up
    expect(ctx.smtp.countTo('stop2@school.test')).toBe(1);
  });
});
