import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe';
import { feeSchool, openDashboard, soon, toast, type FeeSchool } from './fee-helpers';
import { skipReason, startE2E, type E2E } from './harness';

const chips = (page: Page) => page.getByRole('group', { name: 'Filter by category' }).getByRole('button');
const chipTexts = async (page: Page) => (await chips(page).allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
const total = (page: Page) => page.getByTestId('expenses-total').innerText();
const dialog = (page: Page) => page.getByRole('dialog');

describe.skipIf(skipReason())('expenses', () => {
  let e2e: E2E;
  let school: FeeSchool;
  beforeAll(async () => {
    e2e = await startE2E();
    school = await feeSchool(e2e, 'Nishat Public School');
  });
  afterAll(() => e2e?.close());

  it('adds, edits and deletes expenses, and the chips and totals follow', async () => {
    const page = await e2e.newPage();
    await openDashboard(page, school.token, 'expenses');
    await soon(() => page.getByText('No expenses found').isVisible()).toBe(true);
    await soon(() => page.getByText('0 records').isVisible()).toBe(true);

    // Add Expense opens the dialog with today's date; every field is required
    await page.getByRole('button', { name: 'Add Expense' }).click();
    await soon(() => dialog(page).getByText('Add New Expense').isVisible()).toBe(true);
    const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
    expect(await page.getByLabel('Date *').inputValue()).toBe(today);
    await expectAccessible(page, 'the Add Expense dialog');
    await page.getByLabel('Amount (₹) *').fill('25000');
    await dialog(page).getByRole('button', { name: 'Add Expense' }).click();
    await soon(() => toast(page, 'Please fill in all fields').isVisible()).toBe(true);

    await page.getByLabel('Category *').selectOption('Rent');
    await page.getByLabel('Description *').fill('Building rent for the month');
    await dialog(page).getByRole('button', { name: 'Add Expense' }).click();
    await soon(() => dialog(page).isVisible()).toBe(false);
    await soon(() => chipTexts(page)).toEqual(['All ₹25,000.00', 'Rent ₹25,000.00']);
    await soon(() => page.getByText('1 record', { exact: true }).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Add Expense' }).click();
    await page.getByLabel('Category *').selectOption('Salaries');
    await page.getByLabel('Description *').fill('Teachers salaries');
    await page.getByLabel('Amount (₹) *').fill('180000.50');
    // an impatient double click adds one expense: both presses carry the dialog's one clientId
    await dialog(page).getByRole('button', { name: 'Add Expense' }).dblclick();
    await soon(() => chipTexts(page)).toEqual(['All ₹2,05,000.50', 'Salaries ₹1,80,000.50', 'Rent ₹25,000.00']);
    await soon(() => total(page)).toBe('₹2,05,000.50');
    await soon(() => page.getByText('2 records', { exact: true }).isVisible()).toBe(true);
    await expectAccessible(page, 'Expenses with two records and their category chips');

    // a category chip shows only its expenses
    await chips(page).filter({ hasText: 'Rent' }).click();
    await soon(() => page.getByText('1 record in Rent').isVisible()).toBe(true);
    expect(await page.getByRole('cell', { name: 'Teachers salaries' }).count()).toBe(0);

    // edit: the same dialog with the same categories; the total follows
    await page.getByRole('button', { name: 'Edit Building rent for the month' }).click();
    await soon(() => dialog(page).getByText('Edit Expense').isVisible()).toBe(true);
    expect(await page.getByLabel('Category *').locator('option').allInnerTexts()).toHaveLength(12);
    await page.getByLabel('Amount (₹) *').fill('26000');
    await dialog(page).getByRole('button', { name: 'Update Expense' }).click();
    await soon(() => chipTexts(page)).toEqual(['All ₹2,06,000.50', 'Salaries ₹1,80,000.50', 'Rent ₹26,000.00']);
    await soon(() => total(page)).toBe('₹26,000.00');

    // delete asks first, then the chip of the emptied category goes
    await page.getByRole('button', { name: 'Delete Building rent for the month' }).click();
    await soon(() => page.getByText('Are you sure you want to delete this expense? This action cannot be undone.').isVisible()).toBe(true);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await soon(() => page.getByText('No Rent expenses found').isVisible()).toBe(true);
    await soon(() => chipTexts(page)).toEqual(['All ₹1,80,000.50', 'Salaries ₹1,80,000.50']);

    await chips(page).filter({ hasText: 'All' }).click();
    await soon(() => total(page)).toBe('₹1,80,000.50');
    await soon(() => page.getByText('1 record', { exact: true }).isVisible()).toBe(true);

    // and the Students tab's Total Expenses card counts it
    await openDashboard(page, school.token, 'students');
    const card = page.getByRole('listitem').filter({ hasText: 'Total Expenses' });
    await soon(() => card.innerText()).toContain('₹1,80,000.50');
  });
});
