import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStudent, classStructure, feeSchool, inr, openDashboard, soon, toast, type FeeSchool } from './fee-helpers';
import { skipReason, startE2E, type E2E } from './harness';

/**
 * Parents pay online (issue 13): the school sets up UPI, a clerk makes a link from Fee Status, a
 * parent opens it on a phone; links that are cancelled, expired or unknown say so.
 */
describe.skipIf(skipReason())('paying a fee online', () => {
  let e2e: E2E;
  let school: FeeSchool;
  let aarav: { id: string };
  beforeAll(async () => {
    e2e = await startE2E();
    school = await feeSchool(e2e, 'Dal Lake Public School');
    await classStructure(school, 'Class 5');
    aarav = await addStudent(school, { name: 'Aarav Sharma', class: 'Class 5' });
  });
  afterAll(() => e2e?.close());

  it('the administrator sets the school UPI ID in Settings, with clear messages for a wrong one', async () => {
    const page = await e2e.newPage();
    await openDashboard(page, school.token, 'students');
    await page.goto('/school/settings');
    const card = page.getByRole('region', { name: 'Online payments' });
    await soon(() => card.getByTestId('collects-through').textContent()).toBe('Sandbox: test payments, no money moves');
    await card.getByLabel('UPI ID (VPA)').fill('dallake school');
    await card.getByRole('button', { name: 'Save online payments' }).click();
    await soon(() => card.getByText('A UPI ID looks like name@bank, e.g. school@okaxis').isVisible()).toBe(true);
    await soon(() => card.getByText('Please give the payee name for your UPI ID').isVisible()).toBe(true);
    await card.getByLabel('UPI ID (VPA)').fill('dallake@okaxis');
    await card.getByLabel('Payee name').fill('Dal Lake Public School');
    await card.getByRole('button', { name: 'Save online payments' }).click();
    await soon(() => toast(page, 'Online payments updated').isVisible()).toBe(true);
    expect(await card.getByLabel('Webhook URL').inputValue()).toMatch(/\/api\/pay\/webhook\/.+/);
    if (process.env.PAY_SHOTS) await card.screenshot({ path: `${process.env.PAY_SHOTS}/settings-card-1280.png` });
    const saved = await school.call<{ upiVpa: string; upiPayeeName: string }>('GET', '/api/settings/payments');
    expect(saved).toMatchObject({ upiVpa: 'dallake@okaxis', upiPayeeName: 'Dal Lake Public School' });
  });

  let linkUrl = '';
  it('a clerk creates a link for April tuition from Fee Status, the amount starting at what is due', async () => {
    const page = await e2e.newPage();
    await openDashboard(page, school.token, 'student-fee-status');
    await page.getByLabel('Class', { exact: true }).selectOption('Class 5');
    const roll = page.getByLabel('Roll Number', { exact: true });
    await soon(async () => (await roll.locator('option').count()) > 1).toBe(true);
    await roll.selectOption({ label: '1 - Aarav Sharma' });
    const panel = page.getByRole('region', { name: 'Online payment links' });
    await soon(() => panel.getByText('No payment links for this student yet.').isVisible()).toBe(true);
    await panel.getByRole('button', { name: 'Create payment link' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Fee', { exact: true }).selectOption('tuition');
    const april = school.months[0]!;
    await dialog.getByLabel('Month', { exact: true }).selectOption(april.key);
    expect(await dialog.getByLabel('Amount (₹)').inputValue()).toBe('1500');
    await dialog.getByLabel('Valid for (days)').fill('200');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await soon(() => dialog.getByText('A link is valid for 1 to 180 days').isVisible()).toBe(true);
    await dialog.getByLabel('Valid for (days)').fill('15');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await soon(() => dialog.getByText('Payment link created').isVisible()).toBe(true);
    linkUrl = await dialog.getByTestId('created-link').inputValue();
    expect(linkUrl).toMatch(new RegExp(`^${e2e.baseUrl}/pay/[A-Za-z0-9_-]{22,}$`));
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    const row = panel.getByTestId('link-row');
    await soon(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain(inr(1500));
    expect(await row.textContent()).toContain('Active');
    if (process.env.PAY_SHOTS) await panel.screenshot({ path: `${process.env.PAY_SHOTS}/fee-status-links-1280.png` });
    // the school-wide list in the Online Payments tab has it too
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('button', { name: 'Online Payments' }).click();
    await soon(() => page.getByRole('heading', { name: 'Online Payments' }).isVisible()).toBe(true);
    await soon(() => page.getByRole('table', { name: 'Payment links' }).getByTestId('link-row').textContent()).toContain('Aarav Sharma');
    if (process.env.PAY_SHOTS) await page.screenshot({ path: `${process.env.PAY_SHOTS}/online-tab-1280.png`, fullPage: true });
  });

  it('a parent opens the link on a phone: school, student, fee month, the amount in rupees, valid until, UPI QR and intent', async () => {
    const page = await e2e.newPage({ mobile: true });
    await page.goto(new URL(linkUrl).pathname);
    await soon(() => page.getByTestId('pay-amount').textContent()).toBe(inr(1500));
    expect(await page.getByTestId('pay-school').textContent()).toBe('Dal Lake Public School');
    expect(await page.getByTestId('pay-student').textContent()).toBe('Aarav Sharma');
    const april = school.months[0]!;
    expect(await page.getByTestId('pay-month').textContent()).toBe(`${april.month} ${april.year}`);
    expect(await page.getByTestId('pay-valid-until').textContent()).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4}$/);
    await soon(() => page.getByTestId('upi-qr').isVisible()).toBe(true);
    const intent = await page.getByTestId('upi-intent').getAttribute('href');
    expect(intent).toMatch(/^upi:\/\/pay\?/);
    const params = new URL(intent!.replace('upi://pay', 'https://x/pay')).searchParams;
    expect(params.get('pa')).toBe('dallake@okaxis');
    expect(params.get('am')).toBe('1500.00');
    expect(params.get('cu')).toBe('INR');
    if (process.env.PAY_SHOTS) await page.screenshot({ path: `${process.env.PAY_SHOTS}/parent-link-375.png`, fullPage: true });
    // one thumb: nothing wider than the phone
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    if (process.env.PAY_SHOTS) {
      // the theme is the person's choice, kept in localStorage (platform §3)
      await page.evaluate(() => localStorage.setItem('theme', 'dark'));
      await page.reload();
      await soon(() => page.getByTestId('pay-amount').isVisible()).toBe(true);
      await page.screenshot({ path: `${process.env.PAY_SHOTS}/parent-link-375-dark.png`, fullPage: true });
      await page.evaluate(() => localStorage.removeItem('theme'));
    }
    await page.getByRole('button', { name: 'Pay / भुगतान करें' }).click();
    await soon(() => page.url()).toContain('/payment?linkToken=');
  });

  it('an unknown link shows the Payment Link Error card; a cancelled one says it is no longer active', async () => {
    const page = await e2e.newPage({ mobile: true });
    await page.goto('/pay/not-a-real-token-at-all-000000');
    await soon(() => page.getByRole('heading', { name: 'Payment Link Error' }).isVisible()).toBe(true);
    expect(await page.getByTestId('pay-error').textContent()).toBe('Invalid payment link');
    await page.getByRole('link', { name: /Go to Homepage/ }).click();
    await soon(() => new URL(page.url()).pathname).toBe('/login');

    const link = await school.call<{ id: string; url: string }>('POST', '/api/payment-links', { studentId: aarav.id, feeType: 'exam' });
    await school.call('POST', `/api/payment-links/${link.id}/cancel`, {});
    await page.goto(new URL(link.url, e2e.baseUrl).pathname);
    await soon(() => page.getByRole('heading', { name: 'This payment link is no longer active.' }).isVisible()).toBe(true);
  });

  it('a link past its date shows Payment Link Expired', async () => {
    const link = await school.call<{ url: string }>('POST', '/api/payment-links', { studentId: aarav.id, feeType: 'books', expiresInDays: 1 });
    e2e.clock.advanceDays(2);
    const page = await e2e.newPage({ mobile: true });
    await page.goto(new URL(link.url, e2e.baseUrl).pathname);
    await soon(() => page.getByRole('heading', { name: 'Payment Link Expired' }).isVisible()).toBe(true);
    if (process.env.PAY_SHOTS) await page.screenshot({ path: `${process.env.PAY_SHOTS}/expired-375.png` });
    expect(await page.getByText('This payment link has expired. Please contact the school for a new payment link.').isVisible()).toBe(true);
  });
});
