import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip } from '../src/server/test/zip';
import { poll, registerConfirmedSchool, signInAtLogin } from './account-helpers';
import { skipReason, startE2E, type E2E } from './harness';

/**
 * A new school's first visit (issue 12 item 6 and 5): the welcome banner, the five-step tour with
 * Back and Next, the setup checklist ticking as the school sets itself up, and the whole-school
 * export downloaded from Settings.
 */
describe.skipIf(skipReason())('first run', () => {
  let e2e: E2E;
  let school: Awaited<ReturnType<typeof registerConfirmedSchool>>;
  let page: Page;
  let token: string;

  const call = async <T = Record<string, unknown>>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<T> => {
    const res = await e2e.app.inject({ method, url, payload: payload as object, headers: { authorization: `Bearer ${token}` } });
    if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
    return res.json() as T;
  };
  const tour = () => page.getByTestId('onboarding-tour');
  const checklist = () => page.getByTestId('setup-checklist');
  const stepDone = (id: string) => checklist().locator(`[data-step="${id}"]`).getAttribute('data-done');

  beforeAll(async () => {
    e2e = await startE2E();
    school = await registerConfirmedSchool(e2e, { schoolName: 'Nishat Bagh School' });
    page = await e2e.newPage();
    await signInAtLogin(page, school.email, school.password);
    await page.waitForURL('**/school/dashboard**');
    token = (await page.evaluate(() => localStorage.getItem('auth_token')))!;
  });
  afterAll(() => e2e?.close());

  it('a visitor sees the landing page at / and the catalogue on /pricing, with no promise nothing keeps', async () => {
    const visitor = await e2e.newPage();
    await visitor.goto('/');
    await visitor.getByRole('heading', { name: 'Fees, receipts and accounts for Indian schools' }).waitFor();
    expect(new URL(visitor.url()).pathname).toBe('/');
    await poll(() => visitor.getByText('₹250', { exact: true }).isVisible()).toBe(true);
    expect(await visitor.getByRole('img', { name: /Screenshot of School Ledger/ }).count()).toBe(3);
    const text = (await visitor.locator('body').textContent()) ?? '';
    for (const untrue of ['API integration', '24/7', 'Real-time analytics', 'Get new features first']) expect(text).not.toContain(untrue);

    await visitor.getByRole('link', { name: 'Compare plans' }).click();
    await visitor.waitForURL('**/pricing');
    await poll(() => visitor.getByTestId('price-premium').textContent()).toBe('₹12,000');
    await visitor.getByRole('radio', { name: 'Monthly' }).click();
    expect(await visitor.getByTestId('price-premium').textContent()).toBe('₹1,000');
    expect(await visitor.getByText('Up to 100 students').isVisible()).toBe(true);
    expect(await visitor.getByText('Every plan includes').isVisible()).toBe(true);
    // contact details only from configuration: none configured here, so no phone number is shown
    await visitor.goto('/contact');
    await visitor.getByRole('heading', { name: 'Contact us' }).waitFor();
    expect(await visitor.getByText('Phone support').count()).toBe(0);
    await visitor.close();
  });

  it('opens the dashboard without a preload link for each of its chunks: they load as their imports name them (decision 0068)', async () => {
    const fresh = await e2e.newPage();
    await signInAtLogin(fresh, school.email, school.password);
    await fresh.waitForURL('**/school/dashboard**');
    await poll(() => fresh.getByRole('button', { name: 'Add Student' }).first().isVisible()).toBe(true);
    const indexHtml = (await e2e.app.inject({ method: 'GET', url: '/' })).body;
    const inHtml = [...indexHtml.matchAll(/rel="modulepreload"/g)].length;
    expect(inHtml).toBeGreaterThan(0);
    // the first screen's chunks are still preloaded by index.html, and nothing is added to the page
    expect(await fresh.evaluate(() => document.querySelectorAll('link[rel="modulepreload"]').length)).toBe(inHtml);
    // while the route's own chunks did load, many more than index.html names
    const scripts = await fresh.evaluate(() => performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.startsWith('/assets/') && e.name.endsWith('.js')).length);
    expect(scripts).toBeGreaterThan(inHtml + 20);
    await fresh.close();
  });

  it('greets a first sign-in with the welcome banner and the setup checklist', async () => {
    const banner = page.getByTestId('welcome-banner');
    await poll(() => banner.isVisible()).toBe(true);
    expect(await banner.getByText('Welcome to School Ledger! 🎉').isVisible()).toBe(true);
    expect(await banner.getByText('School Ledger is best viewed on a desktop or on a tablet in landscape.').isVisible()).toBe(true);
    await poll(() => checklist().isVisible()).toBe(true);
    // registration opened the current session; nothing else is set up yet
    expect(await page.getByTestId('setup-progress').textContent()).toBe('1 of 5 done');
    expect(await stepDone('session')).toBe('true');
    expect(await stepDone('schoolDetails')).toBe('false');
    expect(await tour().count()).toBe(0);
  });

  it('offers the tour when the banner closes; Back and Next walk its five steps', async () => {
    await page.getByTestId('welcome-banner').getByRole('button', { name: 'Dismiss' }).click();
    await poll(() => tour().isVisible()).toBe(true);
    expect(await tour().getByText('Step 1 of 5').isVisible()).toBe(true);
    expect(await tour().getByRole('heading', { name: 'Your dashboard' }).isVisible()).toBe(true);
    expect(await tour().getByRole('button', { name: 'Back' }).isDisabled()).toBe(true);

    await tour().getByRole('button', { name: 'Next' }).click();
    expect(await tour().getByText('Step 2 of 5').isVisible()).toBe(true);
    expect(await tour().getByRole('heading', { name: 'Students' }).isVisible()).toBe(true);
    // the step points at the Students item of the menu
    const students = page.getByRole('navigation', { name: 'Dashboard' }).locator('[data-tour="students"]');
    await poll(() => students.evaluate((el) => el.classList.contains('ring-2'))).toBe(true);

    await tour().getByRole('button', { name: 'Back' }).click();
    expect(await tour().getByText('Step 1 of 5').isVisible()).toBe(true);
    await poll(() => students.evaluate((el) => el.classList.contains('ring-2'))).toBe(false);

    for (const [n, title] of [[2, 'Students'], [3, 'Fee Structure'], [4, 'Collect fees'], [5, 'Reports and Settings']] as const) {
      await tour().getByRole('button', { name: 'Next' }).click();
      expect(await tour().getByText(`Step ${n} of 5`).isVisible()).toBe(true);
      expect(await tour().getByRole('heading', { name: title }).isVisible()).toBe(true);
    }
    expect(await tour().getByRole('button', { name: 'Next' }).count()).toBe(0);
    expect(await tour().getByRole('button', { name: "Don't Show Again" }).isVisible()).toBe(true);
  });

  it('finishing the tour records it on the server, so it does not come back', async () => {
    await tour().getByRole('button', { name: 'Finish' }).click();
    await poll(() => page.locator('[data-sonner-toast]').filter({ hasText: 'Welcome to School Ledger!' }).isVisible()).toBe(true);
    await poll(() => tour().count()).toBe(0);
    const me = await call<{ user: { hasSeenOnboarding: boolean; isFirstLogin: boolean } }>('GET', '/api/auth/me');
    expect(me.user).toMatchObject({ hasSeenOnboarding: true, isFirstLogin: false });

    await page.reload();
    await poll(() => checklist().isVisible()).toBe(true);
    await page.waitForTimeout(800);
    expect(await page.getByTestId('welcome-banner').count()).toBe(0);
    expect(await tour().count()).toBe(0);
  });

  it('ticks the checklist as the school sets itself up, and hides it when all is done', async () => {
    // school details through the checklist's own link to Settings
    await checklist().getByRole('link', { name: 'Open Settings' }).click();
    await page.waitForURL('**/school/settings');
    const form = page.getByRole('form', { name: 'School Information' });
    await form.getByLabel('School code').fill('NBS01');
    await form.getByRole('button', { name: 'Update School Information' }).click();
    await poll(() => page.locator('[data-sonner-toast]').count()).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await poll(() => stepDone('schoolDetails')).toBe('true');
    expect(await page.getByTestId('setup-progress').textContent()).toBe('2 of 5 done');

    const session = await call<{ sessionName: string; startDate: string }>('GET', '/api/academic-sessions/active');
    await call('POST', '/api/class-fee-structures', {
      className: 'Class 5',
      academicYear: session.sessionName,
      monthlyTuitionFee: '1500',
      yearlyFee: '5000',
      examFee: '800',
      booksFee: '1200',
      uniformFee: '900',
      miscFee: '300',
    });
    const student = await call<{ id: string }>('POST', '/api/students', {
      name: 'Aarav Sharma',
      class: 'Class 5',
      section: 'A',
      monthlyBusFee: '0',
      feesFromMonth: session.startDate.slice(0, 7),
    });
    await page.reload();
    await poll(() => page.getByTestId('setup-progress').textContent()).toBe('4 of 5 done');
    expect(await stepDone('feeStructures')).toBe('true');
    expect(await stepDone('students')).toBe('true');
    expect(await stepDone('firstReceipt')).toBe('false');

    const month = session.startDate.slice(0, 7);
    await call('POST', '/api/monthly-fee-entries/bulk', {
      studentId: student.id,
      academicYear: session.sessionName,
      entries: [{ month: new Date(`${month}-01T00:00:00Z`).toLocaleString('en-IN', { month: 'long', timeZone: 'UTC' }), year: Number(month.slice(0, 4)), tuitionFee: '1500', tuitionDate: session.startDate }],
    });
    await page.reload();
    await page.getByRole('heading', { name: /Student/ }).first().waitFor();
    await page.waitForTimeout(800);
    expect(await checklist().count()).toBe(0);
  });

  it('exports the whole school from Settings and downloads the zip', async () => {
    await page.goto('/school/settings');
    const card = page.getByTestId('export-card');
    await card.getByRole('button', { name: 'Export all data' }).click();
    await poll(() => card.getByText('Your export is ready').isVisible()).toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download zip' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^school-ledger-nishat-bagh-school-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = readZip(readFileSync((await download.path())!));
    expect([...files.keys()]).toEqual(expect.arrayContaining(['README.txt', 'school-data.xlsx', 'csv/students.csv', 'csv/receipts.csv', 'csv/receipt-lines.csv', 'csv/audit-log.csv']));
    const students = files.get('csv/students.csv')!.toString('utf8');
    expect(students).toContain('Aarav Sharma');
    const receipts = files.get('csv/receipts.csv')!.toString('utf8').trim().split('\r\n');
    expect(receipts).toHaveLength(2);
    expect(receipts[1]).toContain(',1500.00,');
    // the card offers it again and names the next step
    expect(await card.getByRole('button', { name: 'Export again' }).isVisible()).toBe(true);
  });
});
