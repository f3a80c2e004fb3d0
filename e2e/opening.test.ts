import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStudent, classStructure, feeSchool, inr, openDashboard, soon, toast, type FeeSchool } from './fee-helpers';
import { skipReason, startE2E, type E2E } from './harness';

type Box = { x: number; y: number; width: number; height: number };

/** The box of a heading's text (a block heading's element box spans the whole row). */
const textBox = (l: Locator): Promise<Box> =>
  l.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const r = range.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });

/** Whether two boxes on the screen overlap. */
async function overlaps(a: Locator, b: Locator | Box): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), 'x' in b ? b : await b.boundingBox()];
  if (!x || !y) return false;
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

describe.skipIf(skipReason())('opening balances', () => {
  let e2e: E2E;
  let school: FeeSchool;
  beforeAll(async () => {
    e2e = await startE2E();
    school = await feeSchool(e2e, 'Nigeen Valley School');
    await classStructure(school, 'Class 5');
    await addStudent(school, { name: 'Aarav Sharma', class: 'Class 5', monthlyBusFee: '450' });
    await addStudent(school, { name: 'Zoya Bhat', class: 'Class 5' });
  });
  afterAll(() => e2e?.close());

  it('an opening balance import: the clerk downloads the template, imports arrears and paid months, sees them and cancels one', async () => {
    const page = await e2e.newPage();
    await openDashboard(page, school.token, 'student-fee-status');
    await soon(() => page.getByRole('heading', { name: 'Opening Balances' }).isVisible()).toBe(true);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Template (CSV)' }).click()]);
    const path = await download.path();
    const template = (await import('node:fs')).readFileSync(path!, 'utf8').replace(/^\uFEFF/, '');
    const header = template.split('\r\n')[0]!;
    expect(header).toBe('admission_number,name,class,section,tuition,bus,admission,exam,books,uniform,misc,other,lump_sum,paid_through,note');

    const april = school.months[0]!;
    const filled = [
      header,
      `,Aarav Sharma,Class 5,A,2000,,,,,,,,500,${april.key},Old register p. 3`,
      ',Zoya Bhat,5th,,,,1000,,,,,,,,',
    ].join('\r\n');
    await page.getByLabel('Opening balance file').setInputFiles({ name: 'opening.csv', mimeType: 'text/csv', buffer: Buffer.from(filled) });
    await page.getByRole('button', { name: 'Import opening balances' }).click();
    await soon(() => page.getByTestId('opening-import-result').textContent()).toContain('2 students imported.');
    const shown = toast(page, '2 students imported.');
    await soon(() => shown.isVisible()).toBe(true);
    // the toast sits below the header: it never covers the page's title
    expect(await overlaps(shown, await textBox(page.locator('h1').first()))).toBe(false);

    await page.getByLabel('Student', { exact: true }).selectOption({ label: 'Aarav Sharma (Class 5 A, roll 1)' });
    const entries = page.getByTestId('opening-entries');
    await soon(() => entries.textContent()).toContain(`Still owed: ${inr(2500)}`);
    const text = await entries.textContent();
    expect(text).toContain(`Tuition ${inr(2000)}`);
    expect(text).toContain(`Lump sum ${inr(500)}`);
    expect(text).toMatch(/OPN\/\d{4}-\d{2}\/000001/);
    expect(text).toContain(inr(1950));

    // the lump sum was typed twice in the old register: cancel it with a reason
    const lump = entries.getByRole('listitem').filter({ hasText: 'Lump sum' });
    await lump.getByRole('button', { name: 'Cancel' }).click();
    await lump.getByLabel('Reason for cancelling').fill('Counted twice in the old register');
    await lump.getByRole('button', { name: 'Cancel entry' }).click();
    await soon(() => toast(page, 'Opening entry cancelled').isVisible()).toBe(true);
    await soon(() => entries.textContent()).toContain(`Still owed: ${inr(2000)}`);
    await soon(() => lump.textContent()).toContain('Counted twice in the old register');

    // the months paid before go-live are paid on the student's fee status, marked as an opening receipt
    const status = await school.call<{ account: { months: Array<{ key: string; status: string }> }; previousBalance: { balance: string } }>(
      'GET',
      `/api/students/${(await school.call<Array<{ id: string; name: string }>>('GET', '/api/students')).find((s) => s.name === 'Aarav Sharma')!.id}/fee-status`,
    );
    expect(status.account.months.find((m) => m.key === april.key)!.status).toBe('Paid');
    expect(status.previousBalance.balance).toBe('2000.00');
  });

  for (const mobile of [false, true]) {
    it(`a toast covers neither the title nor the fee screen's Save button (${mobile ? '375' : '1280'} px)`, async () => {
      const page: Page = await e2e.newPage({ mobile });
      await openDashboard(page, school.token, 'monthly-fees');
      await soon(() => page.getByRole('heading', { name: 'Monthly Fee Management' }).isVisible()).toBe(true);
      const save = page.getByRole('button', { name: 'Save Changes' });
      await save.click();
      const shown = toast(page, 'Please select a student first');
      await soon(() => shown.isVisible()).toBe(true);
      // measured where it rests, after its slide-in
      await page.waitForTimeout(800);
      // on a wide screen it leaves the header's h1 alone too; on a phone it rests over the header bar
      if (!mobile) expect(await overlaps(shown, await textBox(page.locator('h1').first()))).toBe(false);
      expect(await overlaps(shown, await textBox(page.getByRole('heading', { name: 'Monthly Fee Management' })))).toBe(false);
      expect(await overlaps(shown, save)).toBe(false);
      // toasts replace each other: a second one leaves one on the screen
      await save.click();
      await soon(() => page.locator('[data-sonner-toast]').count()).toBe(1);
    });
  }
});
