import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Download, Page } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStudent, classStructure, feeSchool, inr, nav, openDashboard, soon, toast, type FeeSchool } from './fee-helpers';
import { expectAccessible } from './axe';
import { skipReason, startE2E, type E2E } from './harness';

/**
 * This machine's Chromium has no Devanagari font (a parent's phone has one): screenshots borrow the
 * Noto Sans Devanagari the PDFs embed, so the Hindi labels show at their real width instead of boxes.
 */
let devanagariCss: string | null = null;
function devanagari(): string {
  devanagariCss ??= (['400Regular', '700Bold'] as const)
    .map((face) => {
      const file = createRequire(import.meta.url).resolve(`@expo-google-fonts/noto-sans-devanagari/${face}/NotoSansDevanagari_${face}.ttf`);
      return `@font-face{font-family:"Shot Devanagari";font-weight:${face.slice(0, 3)};src:url(data:font/ttf;base64,${readFileSync(file).toString('base64')})}`;
    })
    .join('');
  return devanagariCss;
}

/** With PAY_SHOTS=<dir>: the page as it is now at 375 and 1280 px, light and dark (the theme is a class on <html>). */
async function shots(page: Page, name: string) {
  const dir = process.env.PAY_SHOTS;
  if (!dir) return;
  const family = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  await page.addStyleTag({ content: `${devanagari()} html,body{font-family:${family},"Shot Devanagari"}` });
  await page.evaluate(() => Promise.all(['400', '700'].map((w) => document.fonts.load(`${w} 16px "Shot Devanagari"`, 'क'))));
  const size = page.viewportSize();
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    for (const dark of [false, true]) {
      await page.evaluate((d) => document.documentElement.classList.toggle('dark', d), dark);
      await page.waitForTimeout(150);
      await page.screenshot({ path: `${dir}/${name}-${width}${dark ? '-dark' : ''}.png`, fullPage: true });
    }
  }
  await page.evaluate(() => document.documentElement.classList.toggle('dark', localStorage.getItem('theme') === 'dark'));
  if (size) await page.setViewportSize(size);
}

async function pdfText(download: Download): Promise<string> {
  const chunks = await (await download.createReadStream()).toArray();
  const bytes = Buffer.concat(chunks as Buffer[]);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  return (await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true })).text;
}

/** Student Fee Status for one student of Class 5, as the clerk opens it. */
async function openFeeStatus(page: Page, token: string, student: string) {
  await openDashboard(page, token, 'student-fee-status');
  await page.getByLabel('Class', { exact: true }).selectOption('Class 5');
  const roll = page.getByLabel('Roll Number', { exact: true });
  await soon(async () => (await roll.locator('option').count()) > 1).toBe(true);
  await roll.selectOption({ label: student });
  return page.getByRole('list', { name: 'Months' });
}

/** A parent on a phone pays a link in the sandbox: the link page, Pay, the test checkout, the success page. */
async function payInSandbox(page: Page, linkPath: string, amount: string, shot?: string) {
  await page.goto(linkPath);
  await soon(() => page.getByTestId('pay-amount').textContent()).toBe(amount);
  await page.getByRole('button', { name: 'Pay / भुगतान करें' }).click();
  const checkout = page.getByRole('dialog');
  await soon(() => checkout.getByText('Test payment: this school is set up for testing, so no money moves.', { exact: false }).isVisible()).toBe(true);
  if (shot) await shots(page, shot);
  await checkout.getByRole('button', { name: `Pay ${amount}` }).click();
  await soon(() => new URL(page.url()).pathname).toBe(`${linkPath}/success`);
  await soon(() => page.getByRole('heading', { name: /Payment successful/ }).isVisible()).toBe(true);
}

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
    await expectAccessible(page, "the parent's pay page at 375 px");
    expect(params.get('am')).toBe('1500.00');
    expect(params.get('cu')).toBe('INR');
    await shots(page, 'parent-link');
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

  let receiptNumber = '';
  it('the parent pays in the sandbox at 375 px, sees the success page and downloads the receipt PDF; the link later shows it paid', async () => {
    const page = await e2e.newPage({ mobile: true });
    const path = new URL(linkUrl).pathname;
    await payInSandbox(page, path, inr(1500), 'payment-checkout');
    receiptNumber = (await page.getByTestId('pay-receipt-number').textContent()) ?? '';
    expect(receiptNumber).toMatch(/^ONL\/\d{4}-\d{2}\/000001$/);
    expect(await page.getByTestId('pay-paid-amount').textContent()).toBe(inr(1500));
    expect(await page.getByTestId('pay-credit-note').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shots(page, 'success');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /Download receipt/ }).click()]);
    expect(download.suggestedFilename()).toBe(`receipt-${receiptNumber.replace(/\//g, '-')}.pdf`);
    const text = await pdfText(download);
    expect(text).toContain(receiptNumber);
    expect(text).toContain('Aarav Sharma');

    // days later, from the same WhatsApp message
    const later = await e2e.newPage({ mobile: true });
    await later.goto(path);
    await soon(() => later.getByRole('heading', { name: /This fee is paid/ }).isVisible()).toBe(true);
    expect(await later.getByTestId('pay-amount').textContent()).toBe(inr(1500));
    expect(await later.getByRole('button', { name: /^Pay/ }).count()).toBe(0);
    const [again] = await Promise.all([later.waitForEvent('download'), later.getByRole('link', { name: /Download receipt/ }).click()]);
    expect(await pdfText(again)).toContain(receiptNumber);
    await shots(later, 'parent-link-paid');
  });

  it('the clerk sees the payment in Fee Status, the Online Payments day report and the day book', async () => {
    const page = await e2e.newPage();
    const months = await openFeeStatus(page, school.token, '1 - Aarav Sharma');
    const april = school.months[0]!;
    await soon(() => months.getByRole('listitem', { name: `${april.month} ${april.year}: Paid` }).isVisible()).toBe(true);
    const row = page.getByRole('region', { name: 'Online payment links' }).getByTestId('link-row').filter({ hasText: receiptNumber });
    await soon(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('Paid');
    expect(await row.textContent()).toContain(inr(1500));

    await nav(page, 'Online Payments');
    await page.getByRole('tab', { name: 'Day report' }).click();
    const payment = page.getByTestId('online-row').filter({ hasText: receiptNumber });
    await soon(() => payment.count()).toBe(1);
    expect(await payment.textContent()).toContain('Aarav Sharma');
    expect(await payment.textContent()).toContain(inr(1500));
    expect(await payment.textContent()).toContain('Receipted');
    expect(await payment.textContent()).toContain('sandbox');
    expect(await page.getByTestId('online-total').textContent()).toBe(inr(1500));
    await shots(page, 'online-day');
    await page.getByRole('tab', { name: 'Payment links' }).click();
    await page.getByLabel('Status', { exact: true }).selectOption('');
    await soon(() => page.getByRole('table', { name: 'Payment links' }).getByTestId('link-row').filter({ hasText: receiptNumber }).count()).toBe(1);
    await shots(page, 'online-links');

    await nav(page, 'Reports');
    // the chart names its months as every date of the app does: September is "Sept" (en-IN)
    const ticks = page.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
    await soon(() => ticks.count()).toBeGreaterThanOrEqual(12);
    const axis = await ticks.allTextContents();
    expect(axis[0]).toMatch(/^Apr \d{2}$/);
    expect(axis.filter((m) => m.startsWith('Sep'))).toEqual([expect.stringMatching(/^Sept \d{2}$/)]);
    const [book] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'View Day Book', exact: true }).click()]);
    await book.waitForLoadState();
    await soon(() => book.getByText(receiptNumber).first().isVisible()).toBe(true);
    const line = book.getByRole('row').filter({ hasText: receiptNumber });
    expect(await line.first().textContent()).toContain('Aarav Sharma');
    await book.close();
  });

  it('a parent sends a direct UPI reference; it waits in UPI to confirm, the clerk confirms it and a receipt is written', async () => {
    const may = school.months[1]!;
    const link = await school.call<{ url: string }>('POST', '/api/payment-links', { studentId: aarav.id, feeType: 'tuition', feeMonth: may.key });
    const parent = await e2e.newPage({ mobile: true });
    const path = new URL(link.url).pathname;
    await parent.goto(path);
    await soon(() => parent.getByTestId('upi-qr').isVisible()).toBe(true);
    const form = parent.getByRole('form', { name: 'UPI reference' });
    await form.getByLabel(/UPI reference \(UTR\)/).fill('4123 4567');
    await form.getByRole('button', { name: /Send reference to school/ }).click();
    await soon(() => form.getByText('The UPI reference is the 12 digits shown in your UPI app after paying').isVisible()).toBe(true);
    await form.getByLabel(/UPI reference \(UTR\)/).fill('4123 4567 8901');
    await form.getByLabel(/Your name/).fill('Rakesh Sharma');
    await form.getByRole('button', { name: /Send reference to school/ }).click();
    await soon(() => parent.getByRole('heading', { name: /Waiting for the school to confirm/ }).isVisible()).toBe(true);
    await shots(parent, 'upi-waiting');

    const page = await e2e.newPage();
    await openDashboard(page, school.token, 'online-payments');
    await soon(() => page.getByTestId('upi-pending-count').first().textContent()).toBe('1');
    await page.getByRole('tab', { name: /UPI to confirm/ }).click();
    const row = page.getByTestId('upi-row');
    await soon(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('412345678901');
    expect(await row.textContent()).toContain('Rakesh Sharma');
    expect(await row.textContent()).toContain(inr(1500));
    await shots(page, 'online-upi');
    await row.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
    await soon(() => toast(page, /Confirmed: receipt ONL\/\d{4}-\d{2}\/000002/).isVisible()).toBe(true);
    await soon(() => page.getByText('Nothing waiting: every UPI payment has been checked.').isVisible()).toBe(true);

    const upi = await school.call<{ items: Array<{ receiptNumber: string | null; status: string }> }>('GET', '/api/upi-confirmations?status=confirmed');
    expect(upi.items).toEqual([expect.objectContaining({ status: 'confirmed', receiptNumber: expect.stringMatching(/^ONL\//) })]);
    const months = await openFeeStatus(page, school.token, '1 - Aarav Sharma');
    await soon(() => months.getByRole('listitem', { name: `${may.month} ${may.year}: Paid` }).isVisible()).toBe(true);
    // the parent's link now shows the fee paid, with the receipt
    await parent.goto(path);
    await soon(() => parent.getByRole('heading', { name: /This fee is paid/ }).isVisible()).toBe(true);
  });

  it('a payment made after the counter collected the same fee becomes credit, which the clerk applies to a later month (ruling 27)', async () => {
    const june = school.months[2]!;
    const july = school.months[3]!;
    const link = await school.call<{ url: string }>('POST', '/api/payment-links', { studentId: aarav.id, feeType: 'tuition', feeMonth: june.key });
    // the parent has the link open on the phone while the clerk takes cash for June at the counter
    await school.call('POST', '/api/fees', { studentId: aarav.id, fees: [{ type: 'monthly', amount: 1500, month: june.key }], paymentMode: 'cash' });
    const parent = await e2e.newPage({ mobile: true });
    await payInSandbox(parent, new URL(link.url).pathname, inr(1500));
    expect(await parent.getByTestId('pay-paid-amount').textContent()).toBe(inr(1500));
    expect(await parent.getByTestId('pay-receipt-number').count()).toBe(0);
    expect(await parent.getByTestId('pay-credit-note').textContent()).toContain(`keeps your ${inr(1500)} as credit`);
    expect(await parent.getByRole('link', { name: /Download receipt/ }).count()).toBe(0);
    await shots(parent, 'success-credit');

    const page = await e2e.newPage();
    const months = await openFeeStatus(page, school.token, '1 - Aarav Sharma');
    await soon(() => months.getByRole('listitem', { name: `${july.month} ${july.year}: Pending` }).isVisible()).toBe(true);
    const credit = page.getByRole('region', { name: 'Credit' });
    await soon(() => credit.getByTestId('credit-balance').textContent()).toBe(inr(1500));
    expect(await credit.textContent()).toContain('Online payment over the due');
    // the credit and links panels fit a phone: their tables scroll inside them
    await page.setViewportSize({ width: 375, height: 812 });
    await soon(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 900 });
    await shots(page, 'credit-panel');
    await credit.getByRole('button', { name: 'Apply to a fee' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Fee', { exact: true }).selectOption('tuition');
    await dialog.getByLabel('Month', { exact: true }).selectOption(july.key);
    expect(await dialog.getByLabel('Amount (₹)').inputValue()).toBe('1500');
    await dialog.getByRole('button', { name: 'Apply to a fee' }).click();
    await soon(() => toast(page, /Credit applied: receipt /).isVisible()).toBe(true);
    await soon(() => months.getByRole('listitem', { name: `${july.month} ${july.year}: Paid` }).isVisible()).toBe(true);
    await soon(() => credit.getByTestId('credit-balance').textContent()).toBe(inr(0));
    const status = await school.call<{ credit: string }>('GET', `/api/students/${aarav.id}/fee-status`);
    expect(status.credit).toBe('0.00');
  });

  it('an unknown link shows the Payment Link Error card; a cancelled one says it is no longer active', async () => {
    const page = await e2e.newPage({ mobile: true });
    await page.goto('/pay/not-a-real-token-at-all-000000');
    await soon(() => page.getByRole('heading', { name: 'Payment Link Error' }).isVisible()).toBe(true);
    expect(await page.getByTestId('pay-error').textContent()).toBe('Invalid payment link');
    await page.getByRole('link', { name: /Go to Homepage/ }).click();
    await soon(() => new URL(page.url()).pathname).toBe('/');

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
