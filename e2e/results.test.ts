import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schools } from '../src/server/db/schema';
import { createSession, enrollStudents } from '../src/server/results/test-fixtures';
import { signedInSchool } from './account-helpers';
import { expectAccessible } from './axe';
import { skipReason, startE2E, type E2E } from './harness';

async function openResults(page: Page, token: string, query = '') {
  await page.goto('/favicon.svg');
  await page.evaluate((t) => localStorage.setItem('auth_token', t), token);
  await page.goto(`/school/results${query}`);
  await page.getByRole('heading', { name: 'Academic Results Management' }).waitFor();
}

const cell = (page: Page, student: string, field: string) => page.getByLabel(`${student} Mathematics ${field}`, { exact: true });
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');

describe.skipIf(skipReason())('results', () => {
  let e2e: E2E;
  let token: string;
  const KIDS = ['Aarav Sharma', 'Zoya Bhat', 'Kabir Lone'];

  beforeAll(async () => {
    e2e = await startE2E();
    const school = await signedInSchool(e2e, { schoolName: 'Chinar Valley School', selectedPlan: 'standard' });
    token = school.token;
    // a J&K Board school: ten subjects a class, marks in Urdu and Kashmiri too
    await e2e.database.db.update(schools).set({ board: 'jkbose' }).where(eq(schools.id, school.schoolId));
    const session = await createSession(e2e.database.db, { schoolId: school.schoolId, name: '2026-2027', isActive: true });
    await enrollStudents(e2e.database.db, { schoolId: school.schoolId, session, className: 'Class 5', section: 'A', students: KIDS.map((name) => ({ name, fatherName: `Father of ${name}` })) });
  });
  afterAll(() => e2e?.close());

  it('enters a class’s marks by keyboard and paste, saves with progress, and sees them after a reload', async () => {
    const page = await e2e.newPage();
    await openResults(page, token);
    await expect.poll(() => page.getByLabel('Academic Session').inputValue()).toBe('2026-2027');
    await expect.poll(() => page.getByText('Select class, section, and session to enter marks').isVisible()).toBe(true);
    await page.getByLabel('Class', { exact: true }).selectOption('Class 5');
    await page.getByLabel('Show subjects').selectOption({ label: 'Mathematics' });
    await expect.poll(() => page.getByTestId('change-counter').textContent()).toBe('No changes');
    await expectAccessible(page, 'the marks grid of Class 5-A (Mathematics)');

    // Tab goes across a row
    await cell(page, 'Aarav Sharma', 'F1').click();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Aarav Sharma Mathematics F2');

    // F1 to F6 typed a column at a time: Enter goes down, and from the last student to the next column
    const columns = [
      ['5', '4', '3'],
      ['4.5', '4', '3'],
      ['4', '4', '3'],
      ['5', '4', '3'],
      ['5', '4', '3'],
      ['3', '4', '3'],
    ];
    await cell(page, 'Aarav Sharma', 'F1').click();
    for (const column of columns) {
      for (const value of column) {
        await page.keyboard.type(value);
        await page.keyboard.press('Enter');
      }
    }
    expect(await focused(page)).toBe('Aarav Sharma Mathematics CA');

    // CA pasted as a column from a spreadsheet
    await cell(page, 'Aarav Sharma', 'CA').evaluate((input) => {
      const data = new DataTransfer();
      data.setData('text/plain', '18\r\n17.5\r\n20\r\n');
      input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    expect(await cell(page, 'Zoya Bhat', 'CA').inputValue()).toBe('17.5');
    expect(await cell(page, 'Kabir Lone', 'CA').inputValue()).toBe('20');

    // down the CA column and on to SA, then an out-of-range SA
    for (let i = 0; i < 3; i++) await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('Aarav Sharma Mathematics SA');
    for (const value of ['44', '40', '55']) {
      await page.keyboard.type(value);
      await page.keyboard.press('Enter');
    }
    await expect.poll(() => cell(page, 'Kabir Lone', 'SA').getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByText('Fix the mark shown in red before saving.').isVisible()).toBe(true);
    await cell(page, 'Kabir Lone', 'SA').fill('25');
    expect(await cell(page, 'Kabir Lone', 'SA').getAttribute('aria-invalid')).toBeNull();

    // FA, total and grade follow the typing
    expect(await page.getByLabel('Aarav Sharma Mathematics FA').textContent()).toBe('26.5');
    expect(await page.getByLabel('Aarav Sharma Mathematics Total').textContent()).toBe('88.5');
    expect(await page.getByLabel('Aarav Sharma Mathematics Grade').textContent()).toBe('A');
    expect(await page.getByLabel('Kabir Lone Mathematics Total').textContent()).toBe('63');
    expect(await page.getByTestId('change-counter').textContent()).toBe('3 changes detected');

    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByTestId('save-progress').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Successfully saved 3 changed entries!').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('change-counter').textContent()).toBe('No changes');

    // saving again with nothing changed
    await page.getByRole('button', { name: 'Save All Results' }).click();
    await expect.poll(() => page.getByText('No changes were detected to save.').isVisible()).toBe(true);

    await page.reload();
    await page.getByLabel('Show subjects').selectOption({ label: 'Mathematics' });
    await expect.poll(() => cell(page, 'Aarav Sharma', 'F2').inputValue()).toBe('4.5');
    expect(await cell(page, 'Zoya Bhat', 'CA').inputValue()).toBe('17.5');
    expect(await cell(page, 'Kabir Lone', 'SA').inputValue()).toBe('25');
    expect(await page.getByLabel('Zoya Bhat Mathematics Total').textContent()).toBe('81.5');
  });

  it('prints the class results table', async () => {
    const page = await e2e.newPage();
    await openResults(page, token, '?tab=class');
    await expect.poll(() => page.getByText('Select class, section, and session to view results').isVisible()).toBe(true);
    await page.getByLabel('Class', { exact: true }).selectOption('Class 5');
    const table = page.getByTestId('class-results');
    await table.waitFor();
    const rows = await table.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent)),
    );
    // S.No, name, roll, ten subjects (Mathematics third), total
    expect(rows.map((r) => [r[0], r[1], r[2], r[5], r.at(-1)])).toEqual([
      ['1', 'Aarav Sharma', '1', '88.5', '88.5'],
      ['2', 'Zoya Bhat', '2', '81.5', '81.5'],
      ['3', 'Kabir Lone', '3', '63', '63'],
    ]);
    const head = await table.locator('thead th').allTextContents();
    expect(head.slice(0, 3)).toEqual(['S.No', 'Student Name', 'Roll No']);
    expect(head).toContain('Mathematics(100)');
    expect(head.at(-1)).toBe('Total(1000)');
    const summary = await table.locator('tfoot td').allTextContents();
    expect(summary[0]).toBe('Class Average (3 of 3 students with marks)');
    expect(summary[3]).toBe('77.7'); // (88.5 + 81.5 + 63) / 3

    const [popup] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'Print' }).click()]);
    await popup.waitForLoadState();
    await expect.poll(() => popup.locator('table').count()).toBe(1);
    const printed = await popup.locator('tbody').textContent();
    expect(printed).toContain('Zoya Bhat');
    expect(printed).toContain('81.5');
    expect(await popup.locator('h1').textContent()).toBe('Chinar Valley School');
    expect(await popup.content()).toContain('size: A4 landscape; margin: 10mm;');
  });

  it('opens a marksheet, prints it and downloads the class PDF', async () => {
    const page = await e2e.newPage();
    await openResults(page, token, '?tab=marksheet');
    await page.getByLabel('Class', { exact: true }).selectOption('Class 5');
    const roll = page.getByLabel('Roll Number');
    await expect.poll(() => roll.locator('option').allTextContents()).toEqual(['Select roll number', '1 - Aarav Sharma', '2 - Zoya Bhat', '3 - Kabir Lone']);
    await roll.selectOption({ label: '2 - Zoya Bhat' });
    const card = page.getByTestId('report-card');
    await card.waitFor();
    expect(await card.getByText('Student Report Card').isVisible()).toBe(true);
    expect(await card.getByText('Chinar Valley School').isVisible()).toBe(true);
    expect(await card.getByText('Father of Zoya Bhat').isVisible()).toBe(true);
    expect(await page.getByTestId('grand-total').textContent()).toBe('81.5 / 100');
    expect(await page.getByTestId('grand-percent').textContent()).toBe('81.50%');
    for (const label of ['Exam Incharge', 'Checker', 'Principal']) expect(await card.getByText(label).isVisible()).toBe(true);

    const [popup] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'Print Marksheet (Landscape)' }).click()]);
    await popup.waitForLoadState();
    await expect.poll(() => popup.getByText('Student Report Card').count()).toBe(1);
    expect(await popup.content()).toContain('size: A4 landscape; margin: 10mm;');
    await popup.close();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Class PDF' }).click()]);
    expect(download.suggestedFilename()).toBe('marksheets-Class-5-A-2026-2027.pdf');
    const pdf = await getDocumentProxy(new Uint8Array(readFileSync((await download.path())!)));
    const { totalPages, text } = await extractText(pdf, { mergePages: false });
    expect(totalPages).toBe(3);
    const zoya = (text as string[]).find((p) => p.includes('Zoya Bhat'))!;
    expect(zoya).toContain('81.5 / 100');
    expect(zoya).toContain('81.50%');
  });

  // last: the marks it stores would change the totals the tests above read
  it('two pages on the same marks: the later save keeps the earlier one’s marks, and is told when both typed the same mark', async () => {
    const english = (page: Page, student: string, field: string) => page.getByLabel(`${student} English ${field}`, { exact: true });
    const open = async () => {
      const page = await e2e.newPage();
      await openResults(page, token);
      await page.getByLabel('Class', { exact: true }).selectOption('Class 5');
      await page.getByLabel('Show subjects').selectOption({ label: 'English' });
      await expect.poll(() => page.getByTestId('change-counter').textContent()).toBe('No changes');
      return page;
    };
    const save = (page: Page) => page.getByRole('button', { name: 'Save Changes' }).click();
    /** a save that went through: the saved marks are the page's new baseline */
    const saved = (page: Page) => expect.poll(() => page.getByTestId('change-counter').textContent()).toBe('No changes');
    // both pages loaded before either saves
    const a = await open();
    const b = await open();

    await english(a, 'Aarav Sharma', 'F1').fill('4');
    await save(a);
    await saved(a);

    // B's page still shows F1 blank; B enters CA only, and A's F1 stays
    expect(await english(b, 'Aarav Sharma', 'F1').inputValue()).toBe('');
    await english(b, 'Aarav Sharma', 'CA').fill('8');
    await save(b);
    await saved(b);
    await expect.poll(() => english(b, 'Aarav Sharma', 'F1').inputValue()).toBe('4');
    expect(await english(b, 'Aarav Sharma', 'CA').inputValue()).toBe('8');
    expect(await b.getByLabel('Aarav Sharma English Total').textContent()).toBe('12');

    // now both type F2 of the same student: A saves first; B is told, and none of B's save is stored
    await english(a, 'Aarav Sharma', 'F2').fill('3');
    await save(a);
    await saved(a);
    await english(b, 'Aarav Sharma', 'F2').fill('2');
    await english(b, 'Zoya Bhat', 'CA').fill('10');
    await save(b);
    await expect
      .poll(() => b.getByText('Aarav Sharma — English: F2 was changed by someone else after this page was loaded (now 3). Reload the marks to see it, then enter yours again.').isVisible())
      .toBe(true);
    // B's page shows A's F2 now, and keeps B's other typing, to save again
    await expect.poll(() => english(b, 'Aarav Sharma', 'F2').inputValue()).toBe('3');
    expect(await english(b, 'Zoya Bhat', 'CA').inputValue()).toBe('10');
    expect(await b.getByTestId('change-counter').textContent()).toBe('1 change detected');
    await save(b);
    await saved(b);

    await a.reload();
    await a.getByLabel('Show subjects').selectOption({ label: 'English' });
    await expect.poll(() => english(a, 'Aarav Sharma', 'F1').inputValue()).toBe('4');
    expect(await english(a, 'Aarav Sharma', 'F2').inputValue()).toBe('3');
    expect(await english(a, 'Aarav Sharma', 'CA').inputValue()).toBe('8');
    expect(await english(a, 'Zoya Bhat', 'CA').inputValue()).toBe('10');
  });
});
