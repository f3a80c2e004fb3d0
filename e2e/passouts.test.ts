import { extractText, getDocumentProxy } from 'unpdf';
import type { Download } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe';
import { addStudent, answerTo, classStructure, dueMonths, feeSchool, inr, indiaToday, nav, openDashboard, soon, toast, type FeeSchool } from './fee-helpers';
import { skipReason, startE2E, type E2E } from './harness';

const read = async (download: Download) => Buffer.concat(await (await download.createReadStream()).toArray());

describe.skipIf(skipReason())('passouts', () => {
  let e2e: E2E;
  let school: FeeSchool;
  beforeAll(async () => {
    e2e = await startE2E();
    school = await feeSchool(e2e, 'Chinar Valley School');
    await classStructure(school, 'Class 10');
    await classStructure(school, 'Class 12');
    const kabir = await addStudent(school, { name: 'Kabir Wani', class: 'Class 10', monthlyBusFee: '300' });
    await addStudent(school, { name: 'Meera Joshi', class: 'Class 10' });
    await addStudent(school, { name: 'Tara Ganai', class: 'Class 12' });
    await addStudent(school, { name: 'Noor Shah', class: 'Class 12' });
    // April's tuition and bus were paid at the counter
    const first = school.months[0]!;
    await school.call('POST', '/api/monthly-fee-entries/bulk', {
      studentId: kabir.id,
      academicYear: school.session.sessionName,
      clientId: 'setup-april',
      entries: [{ month: first.month, year: first.year, tuitionFee: '1500', busFee: '300' }],
    });
  });
  afterAll(() => e2e?.close());

  it('a discharged student is found under passouts with the right dues, which stay collectable, and the balance report downloads', async () => {
    const page = await e2e.newPage();
    await openDashboard(page, school.token, 'passouts');
    await soon(() => page.getByRole('heading', { name: 'Passouts (0)' }).isVisible()).toBe(true);
    await soon(() => page.getByText('No Passouts Yet').isVisible()).toBe(true);
    expect(await page.getByText('Students from Class 12 will appear here after academic session transitions').isVisible()).toBe(true);

    // Discharge from the student's record
    await nav(page, 'Students');
    await soon(() => page.getByRole('heading', { name: 'Students', exact: true }).isVisible()).toBe(true);
    await page.getByLabel('Class', { exact: true }).selectOption('Class 10');
    await page.getByLabel('Roll Number', { exact: true }).selectOption({ label: '1 - Kabir Wani' });
    await page.getByRole('button', { name: 'Discharge' }).click();
    const confirm = page.getByRole('alertdialog');
    await soon(() =>
      confirm
        .getByText('Are you sure you want to discharge Kabir Wani? This will move the student to passouts and calculate any outstanding fees. This action cannot be undone.')
        .isVisible(),
    ).toBe(true);
    const discharged = answerTo(page, 'POST', /^\/api\/students\/[^/]+\/discharge$/);
    await confirm.getByRole('button', { name: 'Discharge' }).click();
    expect((await discharged).status()).toBe(200);
    await soon(() => toast(page, 'Student has been successfully discharged and moved to passouts.').isVisible()).toBe(true);
    await soon(() => page.getByRole('heading', { name: 'Kabir Wani' }).count()).toBe(0);
    await soon(async () => (await page.getByLabel('Roll Number', { exact: true }).locator('option').allTextContents()).slice(1)).toEqual(['2 - Meera Joshi']);

    // Passouts: Kabir, with what was due till this month less April
    await nav(page, 'Passouts');
    await soon(() => page.getByRole('heading', { name: 'Passouts (1)' }).isVisible()).toBe(true);
    const year = Number(indiaToday().slice(0, 4));
    const monthly = dueMonths(school) * (1500 + 300) - 1800;
    const yearly = 8200;
    const group = page.getByRole('region', { name: `Graduation Year ${year}` });
    const row = group.getByRole('row', { name: /Kabir Wani/ });
    const [d, m] = [indiaToday().slice(8, 10), indiaToday().slice(5, 7)];
    await soon(() => row.locator('td').allTextContents()).toEqual([
      'Kabir WaniDischarged',
      '1',
      'Class 10-A',
      inr(monthly, false),
      inr(yearly, false),
      inr(monthly + yearly, false),
      `${d}/${m}/${year}`,
      'Collect dues',
    ]);
    expect(await page.getByRole('group', { name: 'With Outstanding Balance' }).textContent()).toBe('With Outstanding Balance1');
    const total = page.getByRole('alert', { name: 'Total Outstanding Balance' });
    expect(await total.textContent()).toContain(`Total Outstanding Balance: ${inr(monthly + yearly, false)}`);
    await expectAccessible(page, 'Passouts with a discharged student and the outstanding balance');

    // Download Balance Report works, as CSV and as PDF
    const [csv] = await Promise.all([page.waitForEvent('download'), total.getByRole('button', { name: 'Download Balance Report (CSV)' }).click()]);
    expect(csv.suggestedFilename()).toBe('passout-balance-report.csv');
    const csvText = (await read(csv)).toString('utf8');
    expect(csvText).toContain(`Kabir Wani,1,Class 10,A,${monthly}.00,${yearly}.00,${monthly + yearly}.00`);
    const [pdf] = await Promise.all([page.waitForEvent('download'), total.getByRole('button', { name: 'Download Balance Report (PDF)' }).click()]);
    expect(pdf.suggestedFilename()).toBe('passout-balance-report.pdf');
    const pdfText = (await extractText(await getDocumentProxy(new Uint8Array(await read(pdf))), { mergePages: true })).text;
    expect(pdfText).toContain('Passout Balance Report');
    expect(pdfText).toContain('Kabir Wani');

    // The dues stay collectable: a payment against the passout lowers the balance
    await row.getByRole('button', { name: 'Collect dues from Kabir Wani' }).click();
    const dialog = page.getByRole('dialog', { name: 'Collect Dues' });
    const amount = dialog.getByLabel('Previous Balance amount');
    await soon(() => amount.inputValue()).toBe(`${monthly + yearly}.00`);
    await amount.fill('5000');
    await dialog.getByRole('button', { name: 'Collect Payment' }).click();
    await soon(() => dialog.getByRole('status', { name: /^Receipt FEE\// }).isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await soon(async () => (await row.locator('td').allTextContents())[5]).toBe(inr(monthly + yearly - 5000, false));
    expect(await total.textContent()).toContain(`Total Outstanding Balance: ${inr(monthly + yearly - 5000, false)}`);
  });

  it('a whole class graduates into passouts with a graduation year, grouped newest year first', async () => {
    const page = await e2e.newPage();
    await openDashboard(page, school.token, 'passouts');
    await soon(() => page.getByRole('heading', { name: 'Passouts (1)' }).isVisible()).toBe(true);
    const create = page.getByRole('button', { name: 'Create Passouts' });
    expect(await create.isDisabled()).toBe(true);
    await soon(async () => page.getByLabel('Class', { exact: true }).locator('option').allTextContents()).toEqual([
      'Select class',
      'Class 10 (1 student)',
      'Class 12 (2 students)',
    ]);
    await page.getByLabel('Class', { exact: true }).selectOption('Class 12');
    expect(await create.isDisabled()).toBe(true);
    expect(await page.getByLabel('Graduation Year', { exact: true }).last().getAttribute('placeholder')).toBe('e.g. 2025');
    await page.locator('#passout-year').fill('2025');
    await soon(() => page.getByText('All 2 students of Class 12 will move to passouts with graduation year 2025').isVisible()).toBe(true);
    await create.click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Create Passouts' }).click();
    await soon(() => toast(page, 'Passouts Created Successfully').isVisible()).toBe(true);
    await soon(() => page.getByRole('heading', { name: 'Passouts (3)' }).isVisible()).toBe(true);

    const groups = await page.getByRole('region', { name: /^Graduation Year \d{4}$/ }).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(groups).toEqual([`Graduation Year ${indiaToday().slice(0, 4)}`, 'Graduation Year 2025']);
    const class12 = page.getByRole('region', { name: 'Graduation Year 2025' });
    const names = await class12.locator('tbody tr td:first-child').allTextContents();
    expect(names).toEqual(['Noor Shah', 'Tara Ganai']);
    await page.locator('#passout-year-filter').selectOption('2025');
    await soon(() => page.getByRole('region', { name: /^Graduation Year \d{4}$/ }).count()).toBe(1);
    await soon(() => page.getByRole('group', { name: 'Total Passouts' }).textContent()).toBe('Total Passouts2');
    expect(await page.getByRole('group', { name: 'With Outstanding Balance' }).textContent()).toBe('With Outstanding Balance2');
  });
});
