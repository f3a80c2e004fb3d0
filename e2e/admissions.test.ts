import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classStructure, feeSchool, inr, indiaToday, nav, openDashboard, soon, toast, type FeeSchool } from './fee-helpers';
import { skipReason, startE2E, type E2E } from './harness';

const TUITION = 1500;
const YEARLY = 8200;

/** Issue 11: a student admitted mid-year owes monthly fees from the month of admission, on every screen. */
describe.skipIf(skipReason())('a mid-year admission', () => {
  let e2e: E2E;
  let school: FeeSchool;
  beforeAll(async () => {
    e2e = await startE2E();
    school = await feeSchool(e2e, 'Dal Lake Public School');
    await classStructure(school, 'Class 4');
  });
  afterAll(() => e2e?.close());

  it('a student admitted today owes this month\'s fees and the yearly fees, not the months before', async () => {
    const today = indiaToday();
    const thisMonth = school.months.find((m) => m.key === today.slice(0, 7))!;
    const page = await e2e.newPage();
    await openDashboard(page, school.token, 'students');
    await page.getByRole('button', { name: 'Add Student' }).first().click();
    const add = page.getByRole('dialog');
    await add.getByLabel('Student Name *').fill('Zoya Bhat');
    await add.getByLabel('Class *').selectOption('Class 4');
    await add.getByLabel('Section *').selectOption('A');
    await soon(() => add.getByLabel('Roll Number').inputValue()).toBe('1');
    // the fees start in the month of admission, shown and editable
    expect(await add.getByLabel('Enrollment Date').inputValue()).toBe(today);
    expect(await add.getByLabel('Fees From (month)').inputValue()).toBe(today.slice(0, 7));
    await add.getByRole('button', { name: 'Add Student' }).click();
    await soon(() => toast(page, 'Zoya Bhat added to Class 4-A with roll number 1.').isVisible()).toBe(true);
    await soon(() => page.getByText(`${thisMonth.month} ${thisMonth.year}`, { exact: true }).isVisible()).toBe(true);

    await nav(page, 'Student Fee Status');
    await soon(() => page.getByRole('heading', { name: 'Student Fee Status' }).isVisible()).toBe(true);
    await page.getByLabel('Class', { exact: true }).selectOption('Class 4');
    await page.getByLabel('Roll Number', { exact: true }).selectOption({ label: '1 - Zoya Bhat' });
    const ledger = page.getByRole('region', { name: 'Student fee ledger' });
    await soon(() => ledger.textContent()).toContain(`Outstanding Balance (till date)${inr(TUITION + YEARLY)}`);
    const months = page.getByRole('list', { name: 'Months' });
    await soon(() => months.getByRole('listitem', { name: `${thisMonth.month} ${thisMonth.year}: Pending` }).isVisible()).toBe(true);
    const first = school.months[0]!;
    if (first.key < thisMonth.key) expect(await months.getByRole('listitem', { name: `${first.month} ${first.year}: Not Recorded` }).isVisible()).toBe(true);
  });

  it('₹12 paid on the books fee shows Partial and the rest is collected on the same card', async () => {
    await school.call('POST', '/api/students', { name: 'Irfan Mir', class: 'Class 4', section: 'B', feesFromMonth: school.session.startDate.slice(0, 7) });
    const page = await e2e.newPage();
    await openDashboard(page, school.token, 'yearly-fees');
    await soon(() => page.getByRole('heading', { name: 'Yearly Fee Management' }).isVisible()).toBe(true);
    await page.getByLabel('Class', { exact: true }).selectOption('Class 4');
    await page.getByLabel('Section', { exact: true }).selectOption('B');
    await page.getByLabel('Roll Number', { exact: true }).selectOption({ label: '1 - Irfan Mir' });
    const books = page.getByLabel('Books Fee amount');
    await soon(() => books.getAttribute('placeholder')).toBe('1200.00');
    const save = async () => {
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Save' }).click();
      await soon(() => toast(page, 'Yearly fee data saved successfully!').isVisible()).toBe(true);
    };
    await books.fill('12');
    await save();
    const card = page.getByRole('group', { name: 'Books Fee' });
    await soon(() => card.textContent()).toContain('Partial ₹12.00 of ₹1,200.00');
    expect(await card.textContent()).toContain('₹1,188.00 still due');
    // the card stays open for the rest, and refuses more than is left
    expect(await books.getAttribute('readonly')).toBeNull();
    await soon(() => books.getAttribute('placeholder')).toBe('1188.00');
    await books.fill('1200');
    await soon(() => card.getByRole('alert').textContent()).toBe('Only ₹1,188.00 is still due on this fee');
    await books.fill('1188');
    await save();
    await soon(() => card.textContent()).toContain('Paid');
    await soon(() => books.getAttribute('readonly')).not.toBeNull();
    expect(await books.inputValue()).toBe('1200.00');
  });
});
