import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poll, registerConfirmedSchool, signInAtLogin } from './account-helpers';
import { eq } from 'drizzle-orm';
import { schools, subscriptionRequestKeys } from '../src/server/db/schema';
import { addStudent, classStructure, feeSchool, toast } from './fee-helpers';
import { ADMIN, skipReason, startE2E, type E2E } from './harness';

async function masterPortal(e2e: E2E, tab: string): Promise<Page> {
  const page = await e2e.newPage();
  await page.goto('/admin-login');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await page.waitForURL('**/admin/dashboard**');
  await page.getByRole('tab', { name: tab }).click();
  return page;
}

describe.skipIf(skipReason())('the operator runs subscriptions', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('the master extends an ended trial and the school banner changes from expired to days left', async () => {
    const school = await registerConfirmedSchool(e2e, { schoolName: 'Tangmarg Model School' });
    e2e.clock.advanceDays(6);
    try {
      const office = await e2e.newPage({ mobile: true });
      await signInAtLogin(office, school.email, school.password);
      await office.waitForURL('**/school/dashboard**');
      await poll(() => office.getByText('Trial Period Expired').isVisible()).toBe(true);

      const master = await masterPortal(e2e, 'Subscription Management');
      const row = master.getByRole('row').filter({ hasText: 'Tangmarg Model School' });
      await poll(() => row.getByTestId('days-left').textContent()).toBe('Expired');
      expect(await row.getByTestId('status').textContent()).toBe('Trial Expired');
      await row.getByRole('button', { name: 'Extend Tangmarg Model School' }).click();
      const dialog = master.getByRole('dialog');
      await dialog.getByLabel('Days to add (1–365)').fill('10');
      await dialog.getByLabel('Reason (kept in the audit log)').fill('Principal asked for time to get the cheque signed');
      await dialog.getByRole('button', { name: 'Extend', exact: true }).click();
      await poll(() => toast(master, 'Subscription Extended').isVisible()).toBe(true);
      await poll(() => row.getByTestId('days-left').textContent()).toBe('10 days');

      await office.reload();
      await poll(() => office.getByText('Trial (10 days left)').first().isVisible()).toBe(true);
      expect(await office.getByText('Trial Period Expired').isVisible()).toBe(false);
    } finally {
      e2e.clock.advanceDays(-6);
    }
  });

  it('the master records a cheque and the school sees the plan and its GST invoice on Billing', async () => {
    const school = await registerConfirmedSchool(e2e, { schoolName: 'Kupwara Public School' });
    const master = await masterPortal(e2e, 'Subscription Management');
    const row = master.getByRole('row').filter({ hasText: 'Kupwara Public School' });
    await row.getByRole('button', { name: 'Manage Kupwara Public School' }).click();
    const dialog = master.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Offline payment' }).click();
    await dialog.getByLabel('Plan').selectOption('basic');
    await dialog.getByLabel('Amount received (₹, GST included)').fill('3540');
    await dialog.getByLabel('Cheque number or bank / UPI reference').fill('CHQ 778812');
    await dialog.getByLabel('Reason (kept in the audit log)').fill('Cheque received by post');
    await dialog.getByRole('button', { name: 'Record Payment' }).click();
    await poll(() => toast(master, /Payment recorded: invoice SL\/\d{4}-\d{2}\/\d{6}/).isVisible()).toBe(true);
    await poll(() => row.getByTestId('status').textContent()).toBe('Active');
    expect(await row.getByTestId('valid-until').textContent()).not.toBe('No end date');
    // the dialog sent its clientId (ruling 5): a second press or a retry would answer this same invoice
    const [kupwara] = await e2e.database.db.select().from(schools).where(eq(schools.name, 'Kupwara Public School'));
    const keys = await e2e.database.db.select().from(subscriptionRequestKeys).where(eq(subscriptionRequestKeys.schoolId, kupwara!.id));
    expect(keys).toMatchObject([{ action: 'subscription.offline-payment', paymentId: expect.any(String) }]);

    const office = await e2e.newPage({ mobile: true });
    await signInAtLogin(office, school.email, school.password);
    await office.waitForURL('**/school/dashboard**');
    await office.goto('/school/settings');
    await office.getByRole('link', { name: 'Billing & invoices' }).click();
    await office.waitForURL('**/school/settings/billing');
    await poll(() => office.getByTestId('billing-plan').textContent()).toBe('Basic');
    expect(await office.getByTestId('billing-status').textContent()).toBe('Active');
    const invoices = office.getByRole('table', { name: 'Tax invoices' });
    await poll(() => invoices.textContent()).toMatch(/SL\/\d{4}-\d{2}\/\d{6}/);
    expect(await invoices.textContent()).toContain('₹3,540.00');
    expect(await office.getByRole('table', { name: 'Payment history' }).textContent()).toContain('Cheque');

    const download = office.waitForEvent('download');
    await invoices.getByRole('button', { name: /Download invoice/ }).click();
    expect((await download).suggestedFilename()).toMatch(/^invoice-SL-\d{4}-\d{2}-\d{6}\.pdf$/);
  });

  it('a school whose paid plan ended signs in read-only, reprints a receipt, exports its data, renews, and writes again', async () => {
    const school = await feeSchool(e2e, 'Handwara Girls School');
    await classStructure(school, 'Class 5');
    const student = await addStudent(school, { name: 'Insha Lone', class: 'Class 5' });
    const first = school.months[0]!;
    const saved = await school.call<{ receipt: { id: string; receiptNumber: string } }>('POST', '/api/monthly-fee-entries/bulk', {
      studentId: student.id,
      academicYear: school.session.sessionName,
      clientId: 'expired-journey',
      entries: [{ month: first.month, year: first.year, tuitionFee: '1500' }],
    });
    // a Basic year that ended two days ago
    const now = e2e.clock.now().getTime();
    const [me] = await e2e.database.db.select().from(schools).where(eq(schools.name, 'Handwara Girls School'));
    await e2e.database.db
      .update(schools)
      .set({ subscriptionStatus: 'active', subscriptionPlan: 'basic', hasPaidSubscription: true, planStartDate: new Date(now - 367 * 86_400_000), planEndDate: new Date(now - 2 * 86_400_000) })
      .where(eq(schools.id, me!.id));

    const page = await e2e.newPage();
    // feeSchool registers with the helpers' default password
    await signInAtLogin(page, me!.email, 'Secret-Ledger-24');
    await page.waitForURL('**/school/dashboard**');
    await poll(() => page.getByText(/^Subscription Expired on \d{2} \w{3} \d{4}$/).isVisible()).toBe(true);
    await poll(() => page.getByText(/^Expired on \d{2} \w{3} \d{4}$/).last().isVisible()).toBe(true);
    expect(await page.getByText('Active till').count()).toBe(0);

    // every read and reprint works
    await page.goto(`/school/receipts/${saved.receipt.id}/print`);
    await poll(() => page.getByText(saved.receipt.receiptNumber).first().isVisible()).toBe(true);

    // and the whole school's data can still be exported (ruling 25)
    await page.goto('/school/settings');
    const card = page.getByTestId('export-card');
    await card.getByRole('button', { name: 'Export all data' }).click();
    await poll(() => card.getByText('Your export is ready').isVisible()).toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download zip' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^school-ledger-handwara-girls-school-\d{4}-\d{2}-\d{2}\.zip$/);
    // a zip archive (it starts PK); its contents are checked in e2e/first-run.test.ts
    const zip = readFileSync((await download.path())!);
    expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');

    await page.goto('/school/dashboard');
    await page.getByRole('link', { name: 'Renew Plan' }).first().click();
    await page.waitForURL((url) => url.pathname === '/subscription-required');
    const pay = page.getByRole('button', { name: 'Pay with Razorpay' }).first();
    await poll(() => pay.isEnabled()).toBe(true);
    await pay.click();
    await page.getByRole('dialog').getByRole('button', { name: /^Pay ₹/ }).click();
    await poll(() => page.getByRole('heading', { name: 'Payment Successful!' }).isVisible()).toBe(true);
    await page.waitForURL('**/school/dashboard**', { timeout: 10_000 });
    await poll(() => page.getByText(/^Active till/).last().isVisible()).toBe(true);
    expect(await page.getByText(/^Subscription Expired/).count()).toBe(0);

    await page.goto('/school/settings/billing');
    await poll(() => page.getByTestId('billing-status').textContent()).toBe('Active');
    await poll(() => page.getByRole('table', { name: 'Tax invoices' }).textContent()).toMatch(/SL\/\d{4}-\d{2}\/\d{6}/);
  });
});
