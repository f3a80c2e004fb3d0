import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthLabel } from '../src/domain/ledger';
import { classStructure, feeSchool, inr, openDashboard, soon, toast, type FeeSchool } from './fee-helpers';
import { skipReason, startE2E, type E2E } from './harness';

const SHOTS = '/tmp/shots-inst';

/**
 * Issue 16 item 3 in the browser: the administrator sets Class 5 to collect quarterly in Settings,
 * then Fee Status shows the student's four quarters with their due dates and amounts (the first
 * quarter carries the yearly heads), and what is paid and outstanding of each.
 */
describe.skipIf(skipReason())('instalment plans: a class collects quarterly', () => {
  let e2e: E2E;
  let school: FeeSchool;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    e2e = await startE2E();
    school = await feeSchool(e2e, 'Dal Lake Public School');
    await classStructure(school, 'Class 5');
    // in the school from the session's first month: every quarter is his to pay
    await school.call('POST', '/api/students', { name: 'Aarav Sharma', class: 'Class 5', section: 'A', monthlyBusFee: '0', feesFromMonth: school.months[0]!.key });
  });
  afterAll(() => e2e?.close());

  const pickAarav = async (page: Page) => {
    await soon(() => page.getByRole('heading', { name: 'Student Fee Status' }).isVisible()).toBe(true);
    await page.getByLabel('Class', { exact: true }).selectOption('Class 5');
    const roll = page.getByLabel('Roll Number', { exact: true });
    await soon(async () => (await roll.locator('option').allTextContents()).includes('1 - Aarav Sharma')).toBe(true);
    await roll.selectOption({ label: '1 - Aarav Sharma' });
  };

  it('the administrator sets Class 5 to quarterly in Settings', async () => {
    const page = await e2e.newPage();
    await page.goto('/favicon.svg');
    await page.evaluate((t) => localStorage.setItem('auth_token', t), school.token);
    await page.goto('/school/settings');
    const card = page.getByTestId('instalment-plan-card');
    await soon(() => card.isVisible()).toBe(true);
    await card.getByLabel('Plan for').selectOption('Class 5');
    await card.getByRole('combobox', { name: 'Collection plan' }).selectOption('quarterly');
    await card.getByLabel('Due day of the month').fill('10');
    await card.getByRole('button', { name: 'Save' }).click();
    await soon(() => toast(page, 'Collection plan saved').isVisible()).toBe(true);
    await card.screenshot({ path: `${SHOTS}/plan-card-1280.png` });
    const plans = await school.call<{ plans: Array<{ scope: string; kind: string }> }>('GET', '/api/instalment-plans');
    expect(plans.plans.map((p) => `${p.scope}:${p.kind}`)).toEqual(['default:monthly', 'Class 5:quarterly']);
  });

  it("Fee Status shows the student's quarters with due dates and amounts, at 1280 and 375 px", async () => {
    const months = school.months.map((m) => m.key);
    const quarter = (n: number) => `Quarter ${n} (${monthLabel(months[(n - 1) * 3]!)} – ${monthLabel(months[(n - 1) * 3 + 2]!)})`;
    for (const mobile of [false, true]) {
      const page = await e2e.newPage({ mobile });
      await page.clock.setFixedTime(e2e.clock.now());
      await openDashboard(page, school.token, 'student-fee-status');
      await pickAarav(page);
      const card = page.getByRole('region', { name: 'Instalments' });
      await soon(() => card.isVisible()).toBe(true);
      expect(await card.textContent()).toContain('Instalments: Quarterly');
      // the first quarter: three months of ₹1,500 tuition and the ₹8,200 of yearly heads
      const q1 = card.getByTestId('instalment-Q1');
      expect(await q1.textContent()).toContain(quarter(1));
      expect(await q1.textContent()).toContain(inr(12_700));
      for (const n of [2, 3, 4]) {
        const q = card.getByTestId(`instalment-Q${n}`);
        expect(await q.textContent()).toContain(quarter(n));
        expect(await q.textContent()).toContain(inr(4_500));
      }
      expect(await card.getByTestId('instalment-Q1').textContent()).toContain(`Outstanding ${inr(12_700)}`);
      await card.scrollIntoViewIfNeeded();
      await card.screenshot({ path: `${SHOTS}/instalments-${mobile ? 375 : 1280}.png` });
      await page.close();
    }
  });
});
