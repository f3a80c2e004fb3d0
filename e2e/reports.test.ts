import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthKeyLabel, previousMonthKey } from '../src/domain/reports';
import { addStudent, classStructure, dueMonths, feeSchool, indiaToday, inr, openDashboard, soon, type FeeSchool } from './fee-helpers';
import { expectAccessible } from './axe';
import { skipReason, startE2E, type E2E } from './harness';

/**
 * A small school with fees and an expense (set up through the API), then the Reports tab as a
 * person uses it: the Financial report with its Excel download, and every report card.
 */
describe.skipIf(skipReason())('reports', () => {
  let e2e: E2E;
  let school: FeeSchool;
  let paidMonths: number;
  beforeAll(async () => {
    e2e = await startE2E();
    school = await feeSchool(e2e, 'Shalimar Public School');
    await classStructure(school, 'Class 5');
    const aarav = await addStudent(school, { name: 'Aarav Sharma', class: 'Class 5', monthlyBusFee: '600' });
    const diya = await addStudent(school, { name: 'Diya Patel', class: 'Class 5' });
    await addStudent(school, { name: 'Kabir Singh', class: 'Class 5' });
    paidMonths = Math.min(2, dueMonths(school));
    const day = (k: number) => `${school.months[k]!.key}-01`;
    const month = (k: number, bus: boolean) => ({
      month: school.months[k]!.month,
      year: school.months[k]!.year,
      tuitionFee: '1500',
      tuitionDate: day(k),
      busFee: bus ? '600' : null,
      busDate: bus ? day(k) : null,
    });
    const year = school.session.sessionName;
    await school.call('POST', '/api/monthly-fee-entries/bulk', { studentId: aarav.id, academicYear: year, entries: [...Array(paidMonths).keys()].map((k) => month(k, true)) });
    await school.call('POST', '/api/monthly-fee-entries/bulk', { studentId: diya.id, academicYear: year, entries: [month(0, false)] });
    await school.call('POST', '/api/yearly-fee-entries', { studentId: aarav.id, academicYear: year, admissionFee: '5000', admissionDate: day(0) });
    await school.call('POST', '/api/expenses', { category: 'Rent', description: 'Building rent', amount: '10000', date: indiaToday() });
  });
  afterAll(() => e2e?.close());

  const open = async (page: Page, button: string) => {
    const [popup] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: button, exact: true }).click()]);
    await popup.waitForLoadState();
    return popup;
  };

  it('generates the Financial report and downloads it as Excel with the same totals', async () => {
    const monthly = paidMonths * 2100 + 1500;
    const page = await e2e.newPage();
    await openDashboard(page, school.token, 'reports');
    await soon(() => page.getByText('Quick Financial Summary').isVisible()).toBe(true);
    const summary = page.getByRole('heading', { name: 'Quick Financial Summary' }).locator('xpath=../..');
    await soon(() => summary.innerText()).toContain('Total Students\n3');
    await expectAccessible(page, 'the Reports tab');

    await page.getByRole('button', { name: 'Financial Report' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByLabel('From Date').inputValue()).toBe(school.session.startDate);
    expect(await dialog.getByLabel('To Date').inputValue()).toBe(indiaToday());
    await dialog.getByRole('button', { name: 'Generate Report' }).click();
    await soon(() => page.getByTestId('financial-monthly-income').innerText()).toBe(inr(monthly));
    expect(await page.getByTestId('financial-yearly-income').innerText()).toBe(inr(5000));
    expect(await page.getByTestId('financial-total-expenses').innerText()).toBe(inr(10000));
    const net = page.getByTestId('financial-net-profit');
    expect(await net.innerText()).toBe(inr(monthly + 5000 - 10000));
    expect(await net.getAttribute('class')).toContain('text-success');

    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Excel' }).click()]);
    expect(download.suggestedFilename()).toBe(`financial-report-${school.session.startDate}-to-${indiaToday()}.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync((await download.path())!) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Monthly Fees')!;
    const totalRow = sheet.getRow(sheet.rowCount);
    expect(totalRow.getCell(1).value).toBe('Total');
    expect(totalRow.getCell(9).value).toBe(monthly);
    const lines = new Map<string, unknown>();
    workbook.getWorksheet('Summary')!.eachRow((row) => lines.set(String(row.getCell(1).value), row.getCell(2).value));
    expect(lines.get('Net profit')).toBe(monthly + 5000 - 10000);

    // a reversed period is refused before anything is asked of the server
    await dialog.getByLabel('From Date').fill(indiaToday());
    await dialog.getByLabel('To Date').fill(school.session.startDate);
    await dialog.getByRole('button', { name: 'Generate Report' }).click();
    await soon(() => page.locator('[data-sonner-toast]').filter({ hasText: 'From date must be on or before to date' }).isVisible()).toBe(true);
  });

  it('opens each report card as a printable page of the school’s own figures', async () => {
    const page = await e2e.newPage();
    await openDashboard(page, school.token, 'reports');
    await soon(() => page.getByText('Quick Financial Summary').isVisible()).toBe(true);
    const year = school.session.sessionName;
    const header = (p: Page) => p.locator('header').innerText();

    const cards: Array<[string, string, string]> = [
      ['View Yearly Report', `Yearly Report: ${year}`, 'Tuition and bus fees, month by month'],
      ['View Class-wise Report', `Class-wise Report: ${year}`, 'Class 5'],
      ['View Income vs Expense', `Income vs Expense: ${year}`, 'Expenses by category'],
      ['View Pending Fees', 'Pending Fees', 'Kabir Singh'],
      ['View Session Report', `Session Report: ${year}`, 'Fees of the session by class'],
      ['View Day Book', 'Day Book:', 'Building rent'],
    ];
    for (const [button, title, text] of cards) {
      const popup = await open(page, button);
      await soon(() => header(popup)).toContain(title);
      expect(await header(popup)).toContain('Shalimar Public School');
      await soon(() => popup.getByText(text).first().isVisible()).toBe(true);
      if (button === 'View Pending Fees') {
        // three students owe something; sortable by class or by the amount due
        await soon(() => popup.getByRole('row').filter({ hasText: 'Class 5' }).count()).toBe(3);
        await popup.getByRole('button', { name: 'Sort by amount due' }).click();
        await soon(() => header(popup)).toContain('sorted by amount due');
        const names = await popup.locator('tbody tr td:nth-child(4)').allInnerTexts();
        expect(names[0]).toBe('Kabir Singh');
      }
      await popup.close();
    }

    await page.getByRole('button', { name: 'Open Monthly Report' }).click();
    const popup = await open(page, 'View Report');
    await soon(() => header(popup)).toContain(`Monthly Report: ${monthKeyLabel(indiaToday().slice(0, 7))}`);
    await soon(() => popup.getByText('Tuition and bus fees for').first().isVisible()).toBe(true);
    await popup.close();
  });

  it('prints the pending fees of 64 students, one line each with the months as ranges, on 2–3 A4 pages', async () => {
    const big = await feeSchool(e2e, 'Dal Lake Higher Secondary School');
    await classStructure(big, 'Class 5');
    const first = ['Aaradhya', 'Vivaan', 'Mahira', 'Shaurya', 'Ananya', 'Reyansh', 'Harleen', 'Siddharth'];
    const last = ['Chatterjee', 'Kulkarni', 'Mukherjee', 'Venkataraman', 'Qureshi', 'Bhattacharya', 'Sandhu', 'Rathore'];
    for (let i = 0; i < 64; i++) {
      await addStudent(big, { name: `${first[i % 8]} ${last[Math.floor(i / 8)]}`, class: 'Class 5', section: ['A', 'B'][i % 2]!, monthlyBusFee: i % 3 === 0 ? '0' : '600' });
    }
    const page = await e2e.newPage();
    await openDashboard(page, big.token, 'reports');
    await page.goto('/school/reports/print?report=pending-fees');
    await soon(() => page.locator('tbody tr').count()).toBe(64);
    const months = dueMonths(big);
    const first3 = big.months[0]!.month.slice(0, 3);
    const cell = await page.locator('tbody tr').first().locator('td').nth(5).innerText();
    expect(cell).toMatch(months === 1 ? new RegExp(`^${first3} \\d{4} \\(1\\)$`) : new RegExp(`^${first3}(–| \\d{4}–)\\w{3} \\d{4} \\(${months}\\)$`));
    await page.emulateMedia({ media: 'print' });
    // one line per student on paper: every row as tall as the shortest
    const heights = await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));
    expect(Math.max(...heights)).toBeLessThan(Math.min(...heights) * 1.2);
    const pdf = (await page.pdf({ format: 'A4', printBackground: true })).toString('latin1');
    const pages = pdf.match(/\/Type\s*\/Page(?!s)/g)?.length ?? 0;
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(pages).toBeLessThanOrEqual(3);
  });

  it('shows the stat cards with last month’s name on the Students tab', async () => {
    const page = await e2e.newPage();
    await openDashboard(page, school.token, 'students');
    const last = monthKeyLabel(previousMonthKey(indiaToday()));
    await soon(() => page.getByText(`${last} Payments`).isVisible()).toBe(true);
    const card = (label: string) => page.getByRole('listitem').filter({ hasText: label }).innerText();
    await soon(() => card('Total Students')).toContain('3');
    expect(await card('Total Revenue')).toContain(inr(paidMonths * 2100 + 1500 + 5000));
    expect(await card('Total Expenses')).toContain(inr(10000));
    await soon(() => page.getByText('Collection Progress').isVisible()).toBe(true);
  });

  it('writes a crore figure whole on its card, at 1280 and 1024 px and on a phone', async () => {
    const rich = await feeSchool(e2e, 'Shalimar Bagh Public School');
    // a residential school's fees: ₹7,00,000 a month and ₹90,00,000 a year
    await rich.call('POST', '/api/class-fee-structures', {
      className: 'Class 12',
      academicYear: rich.session.sessionName,
      monthlyTuitionFee: '700000',
      yearlyFee: '9000000',
      examFee: '0',
      booksFee: '0',
      uniformFee: '0',
      miscFee: '0',
    });
    const pupil = await addStudent(rich, { name: 'Zoya Mir', class: 'Class 12' });
    await rich.call('POST', '/api/fees', { studentId: pupil.id, fees: [{ type: 'admission', amount: 9000000 }, { type: 'monthly', amount: 7261349 }], paymentMode: 'cash' });
    const figure = inr(16261349);
    expect(figure).toBe('₹1,62,61,349.00');
    for (const viewport of [{ width: 1280, height: 900 }, { width: 1024, height: 768 }, { width: 375, height: 812 }]) {
      const page = await e2e.newPage({ mobile: viewport.width < 640 });
      await page.setViewportSize(viewport);
      await openDashboard(page, rich.token, 'students');
      const revenue = page.getByRole('listitem').filter({ hasText: 'Total Revenue' });
      await soon(() => revenue.innerText()).toContain(figure);
      // every card's figure is as wide as it is written: nothing cut off behind an ellipsis
      const cut = await page.locator('ul li p.tabular-nums').evaluateAll((ps) => ps.filter((p) => p.scrollWidth > p.clientWidth).map((p) => p.textContent));
      expect(cut, `${viewport.width} px`).toEqual([]);
      await page.close();
    }
  });
});
