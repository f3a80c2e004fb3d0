import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAtLogin } from './account-helpers';
import { expectAccessible } from './axe';
import { addStudent, classStructure, feeSchool, inr, nav, openDashboard, soon, toast, type FeeSchool } from './fee-helpers';
import { skipReason, startE2E, type E2E } from './harness';

const PASSWORD = 'Counter-Ledger-77';
const menu = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' }).locator('a, button').allTextContents();

/** Settings → Staff → Invite staff, as the owner does it. */
async function invite(page: Page, name: string, email: string, role: string) {
  await page.getByRole('button', { name: 'Invite staff' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Role').selectOption({ label: role });
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await soon(() => toast(page, `Invitation sent to ${email}`).isVisible()).toBe(true);
  await soon(() => dialog.isVisible()).toBe(false);
}

describe.skipIf(skipReason())('staff and the office day (issue 15)', () => {
  let e2e: E2E;
  let owner: FeeSchool;
  const stamp = Date.now().toString(36);
  const clerk = { name: 'Rafiq Dar', email: `clerk-${stamp}@school.test` };
  const accountant = { name: 'Mehnaz Shah', email: `accounts-${stamp}@school.test` };
  let studentId = '';
  let accountantPage: Page;

  beforeAll(async () => {
    e2e = await startE2E();
    owner = await feeSchool(e2e, 'Harwan Public School');
    await classStructure(owner, 'Class 5');
    studentId = (await addStudent(owner, { name: 'Aarav Sharma', class: 'Class 5' })).id;
  });
  afterAll(() => e2e?.close());

  /** The invitee opens the mailed link, chooses a password and signs in. */
  async function accept(email: string): Promise<Page> {
    const mail = await e2e.smtp.waitFor(email, /invites you/);
    const link = new URL(mail.links.find((l) => l.includes('/accept-invite'))!);
    expect(link.searchParams.get('token')).toBeTruthy();
    const page = await e2e.newPage();
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await soon(() => page.getByText('Your account is ready').isVisible()).toBe(true);
    await signInAtLogin(page, email, PASSWORD);
    await page.waitForURL('**/school/dashboard**');
    return page;
  }

  let ownerPage: Page;
  let clerkPage: Page;

  it('the owner invites a clerk and an accountant; the clerk sets a password, collects a fee and cannot see Expenses or cancel a receipt', async () => {
    ownerPage = await e2e.newPage();
    await openDashboard(ownerPage, owner.token, 'students');
    await ownerPage.goto('/school/settings');
    const staff = ownerPage.getByRole('list', { name: 'Staff' });
    await soon(() => staff.getByRole('listitem').count()).toBe(1);
    // the owner's own row is locked
    expect(await staff.getByRole('listitem').first().getByText('The owner cannot be changed or removed.').isVisible()).toBe(true);
    await invite(ownerPage, clerk.name, clerk.email, 'Clerk');
    await invite(ownerPage, accountant.name, accountant.email, 'Accountant');
    await soon(() => staff.getByRole('listitem').count()).toBe(3);
    expect(await staff.getByRole('listitem', { name: clerk.name }).getByText('Invited').isVisible()).toBe(true);
    await expectAccessible(ownerPage, 'Settings: the staff list with two invitations');

    // the clerk: the counter's screens only; Expenses and Reports are not there, and not by URL either
    clerkPage = await accept(clerk.email);
    await soon(() => menu(clerkPage)).toContain('Close the Day');
    const labels = await menu(clerkPage);
    for (const hidden of ['Expenses', 'Reports', 'Registers', 'Session Management', 'Fee Structure']) expect(labels).not.toContain(hidden);
    await clerkPage.goto('/school/dashboard?tab=expenses');
    await soon(() => clerkPage.getByRole('heading', { name: "You don't have access" }).isVisible()).toBe(true);
    await clerkPage.goto('/school/reports/print?report=pending-fees');
    await soon(() => clerkPage.getByRole('heading', { name: "You don't have access" }).isVisible()).toBe(true);

    // the clerk collects April's tuition in cash
    await clerkPage.goto('/school/dashboard?tab=monthly-fees');
    await soon(() => clerkPage.getByRole('heading', { name: 'Monthly Fee Management' }).isVisible()).toBe(true);
    await clerkPage.getByLabel('Class', { exact: true }).selectOption('Class 5');
    const roll = clerkPage.getByLabel('Roll Number', { exact: true });
    await soon(async () => (await roll.locator('option').allTextContents()).slice(1)).toEqual(['1 - Aarav Sharma']);
    await roll.selectOption({ label: '1 - Aarav Sharma' });
    const april = `${owner.months[0]!.month} ${owner.months[0]!.year}`;
    const grid = clerkPage.getByRole('table', { name: 'Monthly fees' });
    await grid.getByLabel(`Tuition fee ${april}`).fill('1500');
    // Received By starts with the signed-in clerk's name, nothing to type
    await soon(() => clerkPage.getByLabel('Received By').inputValue()).toBe(clerk.name);
    await clerkPage.getByRole('button', { name: 'Save Changes' }).click();
    await clerkPage.getByRole('alertdialog').getByRole('button', { name: /Save|Confirm/ }).click();
    await soon(() => toast(clerkPage, 'Monthly fee data saved successfully!').isVisible()).toBe(true);
    const saved = clerkPage.getByRole('status', { name: /^Receipt MON\// });
    await soon(() => saved.isVisible()).toBe(true);
    const receiptNumber = (await saved.locator('.font-mono').textContent())!;

    // the clerk sees the receipt with its collector, and no Cancel
    await nav(clerkPage, 'Student Fee Status');
    const receipt = clerkPage.getByRole('listitem', { name: `Receipt ${receiptNumber}` });
    await soon(() => receipt.textContent()).toContain(`Received by ${clerk.name}`);
    expect(await receipt.getByRole('button', { name: `Cancel receipt ${receiptNumber}` }).count()).toBe(0);
  });

  it('the clerk closes the day with a counted difference; the accountant acknowledges; the owner sees both in the registers', async () => {
    // Close the Day: ₹1,500 expected; ₹1,400 counted is ₹100 short and needs a note
    await nav(clerkPage, 'Close the Day');
    await soon(() => clerkPage.getByTestId('day-total').textContent()).toBe(inr(1500));
    expect(await clerkPage.getByTestId('expected-cash').textContent()).toBe(inr(1500));
    await clerkPage.getByLabel('Number of ₹500').fill('2');
    await clerkPage.getByLabel('Number of ₹100').fill('4');
    await soon(() => clerkPage.getByTestId('counted-cash').textContent()).toBe(inr(1400));
    await soon(() => clerkPage.getByTestId('cash-difference').textContent()).toBe(`−${inr(100)} (short)`);
    await expectAccessible(clerkPage, "the clerk's Close the Day with a counted difference");
    await clerkPage.getByRole('button', { name: 'Close the day', exact: true }).click();
    await soon(() => clerkPage.getByText('Please say why the counted cash differs from the expected cash.').isVisible()).toBe(true);
    await clerkPage.getByLabel('Note').fill('Gave ₹100 change from the drawer');
    await clerkPage.getByRole('button', { name: 'Close the day', exact: true }).click();
    await clerkPage.getByRole('alertdialog').getByRole('button', { name: 'Close the day', exact: true }).click();
    await soon(() => clerkPage.getByText('Day closed').isVisible()).toBe(true);
    expect(await clerkPage.getByText('Waiting for an accountant or administrator to acknowledge it.').isVisible()).toBe(true);

    // the accountant acknowledges the closing, the difference highlighted
    accountantPage = await accept(accountant.email);
    await soon(() => menu(accountantPage)).toContain('Expenses');
    expect(await menu(accountantPage)).not.toContain('Session Management');
    await nav(accountantPage, 'Close the Day');
    const pending = accountantPage.getByRole('list', { name: 'Closings to acknowledge' });
    const row = pending.getByRole('listitem').filter({ hasText: clerk.name });
    await soon(() => row.textContent()).toContain(`−${inr(100)}`);
    await row.getByRole('button', { name: /^Acknowledge/ }).click();
    await soon(() => pending.getByRole('listitem').count()).toBe(0);

    // the owner sees the closing, acknowledged, in the closings report
    await ownerPage.goto('/school/dashboard?tab=registers');
    const byDay = ownerPage.getByRole('table', { name: 'Every closing' });
    const closing = byDay.getByRole('row').filter({ hasText: clerk.name });
    await soon(() => closing.textContent()).toContain('Acknowledged');
    expect(await closing.textContent()).toContain(inr(1400));
    expect(await closing.textContent()).toContain(`−${inr(100)}`);
    const byUser = ownerPage.getByRole('table', { name: 'Per collector' });
    await soon(() => byUser.getByRole('row').filter({ hasText: clerk.name }).textContent()).toContain(inr(1500));
    await expectAccessible(ownerPage, 'Registers: the closings report with an acknowledged closing');
  });

  it('the accountant marks a cheque bounced; the cancellation register shows it', async () => {
    const paid = await owner.call<{ receipt?: { id: string; receiptNumber: string }; receiptNumber?: string }>('POST', '/api/fees', {
      studentId,
      fees: [{ type: 'exam', amount: '400' }],
      paymentMode: 'cheque',
      chequeNumber: '556677',
      bankName: 'J&K Bank',
    });
    const receiptNumber = (paid.receipt?.receiptNumber ?? paid.receiptNumber)!;
    await accountantPage.goto('/school/dashboard?tab=registers');
    await accountantPage.getByRole('tab', { name: 'Cheques' }).click();
    const cheque = accountantPage.getByRole('listitem', { name: 'Cheque 556677' });
    await soon(() => cheque.isVisible()).toBe(true);
    await cheque.getByRole('button', { name: 'Mark bounced' }).click();
    const dialog = accountantPage.getByRole('dialog');
    await dialog.getByLabel('Reason').fill('Insufficient funds');
    await dialog.getByLabel('Bank charges (₹), optional').fill('250');
    await dialog.getByRole('button', { name: 'Mark bounced' }).click();
    await soon(() => toast(accountantPage, 'Marked bounced; the fees are due again').isVisible()).toBe(true);
    await soon(() => cheque.textContent()).toContain('Insufficient funds');

    await accountantPage.getByRole('tab', { name: 'Cancellations' }).click();
    const row = accountantPage.getByRole('table', { name: 'Cancellation register' }).getByRole('row').filter({ hasText: receiptNumber });
    await soon(() => row.textContent()).toContain('Insufficient funds');
    expect(await row.textContent()).toContain('Cheque bounced');
    expect(await row.textContent()).toContain(accountant.name);
    expect(await row.textContent()).toContain(inr(400));
  });
});
