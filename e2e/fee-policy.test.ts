import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classStructure, feeSchool, inr, openDashboard, soon, toast, type FeeSchool } from './fee-helpers';
import { skipReason, startE2E, type E2E } from './harness';

const SHOTS = '/tmp/shots-fee-policy';

/** All values under `key` anywhere in a parsed XML tree. */
function collect(node: unknown, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(node)) for (const n of node) collect(n, key, out);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === key) out.push(...(Array.isArray(v) ? v : [v]));
      else collect(v, key, out);
    }
  }
  return out;
}

/** Rupees in a Tally AMOUNT ("-1350.00") as paise, without floats. */
const paiseOf = (amount: unknown) => {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(String(amount).trim());
  if (!m) throw new Error(`not an amount: ${String(amount)}`);
  const value = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -value : value;
};

/**
 * Issue 16 in the browser: the school defines a Sibling 10% concession and a late fine rule, a
 * concession is requested and approved, the fine accrues once the grace days pass (the server's
 * clock and the browser's move together), it is waived once, the fee is collected, and the Tally
 * XML of that day balances voucher by voucher.
 */
describe.skipIf(skipReason())('fee policy: concessions, late fines and the Tally export', () => {
  let e2e: E2E;
  let school: FeeSchool;
  let month: string;
  let email: string;
  /** the browser's token: signed in again after the clock moves, as a person would be */
  let token: string;
  const at = (day: number) => new Date(`${month}-${String(day).padStart(2, '0')}T05:30:00.000Z`); // 11:00 in India

  beforeAll(async () => {
    e2e = await startE2E();
    // the 12th of this month: the fee falls due on the 10th, with 3 days of grace
    month = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 7);
    e2e.clock.set(at(12));
    school = await feeSchool(e2e, 'Dal Lake Public School');
    token = school.token;
    email = (await school.call<{ user: { email: string } }>('GET', '/api/auth/me')).user.email;
    await classStructure(school, 'Class 5');
    // joined this month: only this month's tuition is due, so the fine is easy to follow
    await school.call('POST', '/api/students', { name: 'Aarav Sharma', class: 'Class 5', section: 'A', monthlyBusFee: '0', feesFromMonth: month });
  });
  afterAll(() => e2e?.close());

  const open = async (page: Page, tab: string) => {
    await page.clock.setFixedTime(e2e.clock.now());
    await openDashboard(page, token, tab);
  };
  /** Days pass: the server's clock moves, and the user signs in again that day. */
  const daysLater = async (days: number) => {
    e2e.clock.advanceDays(days);
    const login = await e2e.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'Secret-Ledger-24' } });
    expect(login.statusCode).toBe(200);
    token = (login.json() as { token: string }).token;
  };
  const pickAarav = async (page: Page) => {
    await soon(() => page.getByRole('heading', { name: 'Student Fee Status' }).isVisible()).toBe(true);
    await page.getByLabel('Class', { exact: true }).selectOption('Class 5');
    const roll = page.getByLabel('Roll Number', { exact: true });
    await soon(async () => (await roll.locator('option').allTextContents()).includes('1 - Aarav Sharma')).toBe(true);
    await roll.selectOption({ label: '1 - Aarav Sharma' });
  };
  const shoot = async (page: Page, name: string) => {
    await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  };

  it('the administrator sets a Sibling concession and the late fine rule in Settings', async () => {
    const page = await e2e.newPage();
    await page.clock.setFixedTime(e2e.clock.now());
    await page.goto('/favicon.svg');
    await page.evaluate((t) => localStorage.setItem('auth_token', t), token);
    await page.goto('/school/settings');

    const types = page.getByTestId('concession-types-card');
    await soon(() => types.getByText('No concession types yet.').isVisible()).toBe(true);
    await types.getByLabel('Name').fill('Sibling');
    await types.getByLabel('Percent').fill('10');
    await types.getByRole('button', { name: 'Add concession type' }).click();
    await soon(() => toast(page, 'Concession type "Sibling" added').isVisible()).toBe(true);
    await soon(() => types.getByRole('list').textContent()).toContain('Sibling');

    const fine = page.getByTestId('late-fine-card');
    await fine.getByLabel('Charge late fines').check();
    await fine.getByLabel('Due day of the month').fill('10');
    await fine.getByLabel('Grace days').fill('3');
    await fine.getByLabel('How the fine grows').selectOption('per_day');
    await fine.getByLabel('Amount per day (₹)').fill('10');
    await fine.getByLabel('Cap per month (₹, optional)').fill('100');
    // only tuition is fined: the Bus box is ticked by default, untick it
    for (const head of ['Bus']) if (await fine.getByLabel(head, { exact: true }).isChecked()) await fine.getByLabel(head, { exact: true }).uncheck();
    await fine.getByLabel('Tuition', { exact: true }).check();
    // the live example: 10 days after the 10th at ₹10 a day is ₹100, the cap
    expect(await fine.getByTestId('fine-example-line').textContent()).toBe(`Paid on the 20th: ${inr(100)} fine for that month`);
    await fine.getByLabel('Paid on day').fill('12');
    expect(await fine.getByTestId('fine-example-line').textContent()).toBe(`Paid on the 12th: ${inr(0)} fine for that month`);
    await fine.getByRole('button', { name: 'Save' }).click();
    await soon(() => toast(page, 'Late fine rules saved').isVisible()).toBe(true);
    await shoot(page, 'settings-1280');
  });

  it('a Sibling concession is requested and approved; the fine accrues after the grace days and is waived once; the fee is collected', async () => {
    const page = await e2e.newPage();
    await open(page, 'student-fee-status');
    await pickAarav(page);
    const concessions = page.getByRole('region', { name: 'Concessions' });
    await soon(() => concessions.getByText('No concessions for this student in this session.').isVisible()).toBe(true);
    // the 12th: within the grace days, no fine
    await soon(() => page.getByTestId('fine-due').textContent()).toBe(inr(0));

    await concessions.getByRole('button', { name: 'Request concession' }).click();
    const dialog = page.getByRole('dialog');
    const sibling = dialog.getByLabel('Concession type').locator('option', { hasText: 'Sibling' });
    await dialog.getByLabel('Concession type').selectOption((await sibling.getAttribute('value'))!);
    await dialog.getByLabel('From month').selectOption(month);
    await dialog.getByLabel('Reason').fill('Elder sister Zoya in Class 8');
    await dialog.getByRole('button', { name: 'Send for approval' }).click();
    await soon(() => toast(page, 'Concession requested: waiting for approval').isVisible()).toBe(true);

    const queue = page.getByTestId('approvals-queue');
    await soon(() => queue.textContent()).toContain('Aarav Sharma');
    await shoot(page, 'queue-1280');
    await queue.getByRole('button', { name: /^Approve Aarav Sharma/ }).click();
    await soon(() => concessions.textContent()).toContain('Concession: Sibling −');
    await soon(() => queue.isVisible()).toBe(false);

    // four days on, the 16th: six days after the 10th, past three days of grace, at ₹10 a day
    await daysLater(4);
    await open(page, 'student-fee-status');
    await pickAarav(page);
    await soon(() => page.getByTestId('fine-due').textContent()).toBe(inr(60));
    const fineCard = page.getByTestId('student-fine');
    expect(await fineCard.textContent()).toContain('6 days');
    await shoot(page, 'fee-status-fine-1280');

    await fineCard.getByRole('button', { name: 'Waive fine' }).click();
    await dialog.getByLabel('Reason').fill('Parent was in hospital');
    await dialog.getByRole('button', { name: 'Waive fine' }).click();
    await soon(() => toast(page, 'Waiver requested: waiting for approval').isVisible()).toBe(true);
    await soon(() => fineCard.getByText('A waiver is waiting for approval').isVisible()).toBe(true);
    await page.getByTestId('approvals-queue').getByRole('button', { name: /^Approve Aarav Sharma/ }).click();
    await soon(() => page.getByTestId('fine-due').textContent()).toBe(inr(0));
    expect(await fineCard.getByText('Waived', { exact: true }).isVisible()).toBe(true);
    // once: the button is gone for that month
    expect(await fineCard.getByRole('button', { name: 'Waive fine' }).count()).toBe(0);

    // the clerk collects this month's tuition less the concession
    await page.getByRole('button', { name: 'Record Fee Payment' }).click();
    const pay = page.getByRole('dialog', { name: 'Record Fee Payment' });
    await pay.getByLabel('Monthly Fee amount').fill('1350');
    await pay.getByLabel('Monthly Fee month').selectOption(month);
    await pay.getByRole('button', { name: 'Record Payment' }).click();
    await soon(() => pay.getByRole('status', { name: /^Receipt FEE\// }).isVisible()).toBe(true);
    await pay.getByRole('button', { name: 'Done' }).click();
  });

  it('the Tally XML of the day balances voucher by voucher and carries the day’s receipts', async () => {
    const page = await e2e.newPage();
    await open(page, 'reports');
    const card = page.getByTestId('report-card-tally');
    await soon(() => card.isVisible()).toBe(true);
    const day = `${month}-16`;
    expect(await card.getByLabel('From').inputValue()).toBe(day);
    await shoot(page, 'reports-1280');
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Tally XML' }).click()]);
    const xml = readFileSync((await download.path())!, 'utf8');
    const tree = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(xml) as unknown;
    const vouchers = collect(tree, 'VOUCHER');
    expect(vouchers.length).toBeGreaterThan(0);
    let received = 0;
    for (const voucher of vouchers) {
      const entries = [...collect(voucher, 'ALLLEDGERENTRIES.LIST'), ...collect(voucher, 'LEDGERENTRIES.LIST')];
      const amounts = entries.map((e) => paiseOf((e as { AMOUNT: unknown }).AMOUNT));
      expect(amounts.reduce((s, a) => s + a, 0)).toBe(0);
      received += amounts.filter((a) => a > 0).reduce((s, a) => s + a, 0);
    }
    expect(received).toBe(135_000);

    const [journal] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Journal CSV' }).click()]);
    expect(readFileSync((await journal.path())!, 'utf8')).toContain('1350.00');

    // the concession register lists Aarav's Sibling concession, approved by the administrator
    const register = page.getByTestId('report-card-concession-register');
    await soon(() => register.isVisible()).toBe(true);
    const [csv] = await Promise.all([page.waitForEvent('download'), register.getByRole('button', { name: 'CSV' }).click()]);
    const text = readFileSync((await csv.path())!, 'utf8');
    expect(text).toContain('Aarav Sharma');
    expect(text).toContain('Sibling');
    expect(text).toContain('1 concession');
  });
});
