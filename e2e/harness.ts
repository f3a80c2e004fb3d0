import { createServer } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { buildApp } from '../src/server/app';
import { MovableClock } from '../src/server/clock';
import { loadConfig } from '../src/server/config';
import { createSmtpMailer } from '../src/server/mail/mailer';
import { seedPlans } from '../src/server/plans/queries';
import { ensureMasterAdmin } from '../src/server/auth/master-admin';
import { openTestDatabase } from '../src/server/test/harness';
import { startTestSmtp } from '../src/server/test/smtp';
import { chromiumPath, CHROMIUM_ARGS } from './browser';

/** Why browser journeys are skipped on this machine, or '' when they run. */
export const skipReason = () => inject('e2eSkipReason');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export const ADMIN = { email: 'master@ledger.test', password: 'MasterPass123' };

/**
 * The whole product on a loopback port: the built web app, the API on a fresh database, a real
 * SMTP server for mail, and headless Chromium. One per journey file.
 */
export async function startE2E() {
  process.env.WEB_DIST = inject('webDist');
  const database = await openTestDatabase();
  await seedPlans(database.db);
  await ensureMasterAdmin(database.db, { ...ADMIN, now: new Date() });
  const smtp = await startTestSmtp();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    NODE_ENV: 'development',
    PORT: String(port),
    APP_URL: baseUrl,
    SESSION_SECRET: 'e2e-secret-that-is-long-enough-for-hs256-signing',
    ENCRYPTION_KEY: 'e2e-encryption-key-that-is-long-enough-000',
    SMTP_URL: smtp.url,
    DATA_DIR: '/tmp/ledger-e2e-unused',
  });
  const clock = new MovableClock();
  const app = await buildApp({ db: database.db, dbKind: database.kind, config, clock, mailer: createSmtpMailer(smtp.url, config.mailFrom), web: true });
  await app.listen({ port, host: '127.0.0.1' });
  const browser: Browser = await chromium.launch({ executablePath: chromiumPath()!, args: CHROMIUM_ARGS });
  const pages: Page[] = [];
  return {
    baseUrl,
    app,
    database,
    smtp,
    clock,
    browser,
    /** A fresh browser context (no storage) at 1280 px, or 375 px with `mobile`. */
    async newPage(options: { mobile?: boolean } = {}): Promise<Page> {
      const context = await browser.newContext({
        viewport: options.mobile ? { width: 375, height: 812 } : { width: 1280, height: 900 },
        baseURL: baseUrl,
        acceptDownloads: true,
      });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      pages.push(page);
      return page;
    },
    async close() {
      await browser.close();
      await app.close();
      await smtp.close();
      await database.close();
    },
  };
}

export type E2E = Awaited<ReturnType<typeof startE2E>>;
