import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStudent, classStructure, dueMonths, feeSchool, inr, indiaToday, nav, openDashboard, soon, toast, type FeeSchool } from './fee-helpers';
import { formatDateIN } from '../src/domain/dates';
import { expectAccessible } from './axe';
import { skipReason, startE2E, type E2E } from './harness';

const TUITION = 1500;
const BUS = 450;
const YEARLY = 8200;

describe.skipIf(skipReason())('fee collection', () => {
  let e2e: E2E;
  let school: FeeSchool;
  beforeAll(async () => {
    e2e = await startE2E();
    school = await feeSchool(e2e, 'Dal Lake Public School');
    await classStructure(school, 'Class 5');
    await addStudent(school, { name: 'Aarav Sharma', class: 'Class 5', monthlyBusFee: '450' });
    await addStudent(school, { name: 'Zoya Bhat', class: 'Class 5' });
  });
  afterAll(() => e2e?.close());

  it('a clerk enters three months from the keyboard, prints the receipt, sees the status agree, and cancels the receipt', async () => {
    const [april, may, june] = school.months.map((m) => `${m.month} ${m.year}`);
    const page = await e2e.newPage();
    await openDashboard(page, school.token, 'monthly-fees');
    await soon(() => page.getByRole('heading', { name: 'Monthly Fee Management' }).isVisible()).toBe(true);
    await expectAccessible(page, 'Submit Monthly Fee');

    // nothing chosen yet: Save says so
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await soon(() => toast(page, 'Please select a student first').isVisible()).toBe(true);

    await page.getByLabel('Class', { exact: true }).selectOption('Class 5');
    await soon(() => page.getByLabel('Section', { exact: true }).inputValue()).toBe('A');
    const roll = page.getByLabel('Roll Number', { exact: true });
    await soon(async () => (await roll.locator('option').allTextContents()).slice(1)).toEqual(['1 - Aarav Sharma', '2 - Zoya Bhat']);
    await roll.selectOption({ label: '1 - Aarav Sharma' });
    expect(await page.getByLabel('Student Name', { exact: true }).inputValue()).toBe('Aarav Sharma');
    const grid = page.getByRole('table', { name: 'Monthly fees' });
    await soon(() => grid.getByRole('row').count()).toBe(school.months.length + 1);

    // what is typed is kept on this computer until it is saved: a reload brings it back
    await grid.getByLabel(`Tuition fee ${april}`).fill('999');
    await page.reload();
    await soon(() => page.getByText(/were restored from this computer/).isVisible()).toBe(true);
    expect(await grid.getByLabel(`Tuition fee ${april}`).inputValue()).toBe('999');
    await page.getByRole('button', { name: 'Discard them' }).click();
    await soon(() => grid.getByLabel(`Tuition fee ${april}`).inputValue()).toBe('');

    // an amount is typed as written: 1e3 and letters are refused out loud, Indian commas are read
    const aprilTuition = grid.getByLabel(`Tuition fee ${april}`);
    await aprilTuition.fill('1e3');
    await soon(() => page.getByText(`${april}: Tuition fee must be written out in digits, e.g. 1000 (not 1e3)`).isVisible()).toBe(true);
    await aprilTuition.fill('15OO');
    await soon(() => page.getByText(`${april}: Tuition fee has letters in it; type the amount in digits, e.g. 1500 or 1,500.50`).isVisible()).toBe(true);
    expect(await aprilTuition.getAttribute('aria-invalid')).toBe('true');
    await aprilTuition.fill('1,500');
    await soon(() => page.getByTestId('monthly-new-total').textContent()).toBe(inr(TUITION));
    await aprilTuition.fill('');

    // Enter moves down to the same fee of the next month; dates fill in as today; the total follows live
    await grid.getByLabel(`Tuition fee ${april}`).click();
    for (const amount of [TUITION, TUITION, TUITION]) {
      await page.keyboard.type(String(amount));
      await page.keyboard.press('Enter');
    }
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Tuition fee ${school.months[3]!.month} ${school.months[3]!.year}`);
    await grid.getByLabel(`Bus fee ${april}`).click();
    for (const amount of [BUS, BUS, BUS]) {
      await page.keyboard.type(String(amount));
      await page.keyboard.press('Enter');
    }
    expect(await grid.getByLabel(`Tuition date ${april}`).inputValue()).toBe(indiaToday());
    expect(await grid.getByLabel(`Bus date ${june}`).inputValue()).toBe(indiaToday());
    const total = 3 * (TUITION + BUS);
    await soon(() => page.getByTestId('monthly-new-total').textContent()).toBe(inr(total));
    // the last Enter went on to the next month, ready for more
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Bus fee ${school.months[3]!.month} ${school.months[3]!.year}`);

    await page.getByLabel('Received By').fill('Anita Koul');
    await page.keyboard.press('Control+s');
    const confirm = page.getByRole('alertdialog');
    await soon(() => confirm.getByText('Are you sure you want to save these fee entries? This action cannot be undone.').isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await soon(() => toast(page, 'Monthly fee data saved successfully!').isVisible()).toBe(true);
    const saved = page.getByRole('status', { name: /^Receipt MON\// });
    await soon(() => saved.isVisible()).toBe(true);
    const receiptNumber = (await saved.locator('.font-mono').textContent())!;
    expect(receiptNumber).toMatch(/^MON\/\d{4}-\d{2}\/000001$/);
    expect(await saved.textContent()).toContain(inr(total));

    // saved months are locked; typing into one is refused
    await soon(() => grid.getByLabel(`Tuition fee ${may}`).getAttribute('readonly')).not.toBeNull();
    await grid.getByLabel(`Bus fee ${may}`).click({ force: true });
    await soon(() => toast(page, `This fee for ${may} has already been processed and cannot be modified.`).isVisible()).toBe(true);
    expect(await grid.getByLabel(`${june} paid`).isVisible()).toBe(true);

    // Save with nothing new
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await soon(() => toast(page, 'No new fee data to save').isVisible()).toBe(true);

    // Print opens the receipt at once: the stored "Received by", never a name typed at print time
    const due = dueMonths(school);
    const outstanding = due * (TUITION + BUS) + YEARLY - total;
    const [printable] = await Promise.all([page.context().waitForEvent('page'), saved.getByRole('button', { name: `Print receipt ${receiptNumber}` }).click()]);
    const sheet = printable.getByRole('article', { name: `Fee receipt ${receiptNumber}, Office copy` });
    await soon(() => sheet.isVisible()).toBe(true);
    expect(await printable.getByRole('article', { name: `Fee receipt ${receiptNumber}, Parent copy` }).isVisible()).toBe(true);
    const text = (await sheet.textContent())!;
    const grouped = `${april!.slice(0, 3)}–${june!.slice(0, 3)} ${school.months[2]!.year}`;
    for (const expected of ['Dal Lake Public School', 'Boulevard Road, Srinagar', 'School Code: DLPS01', 'Aarav Sharma', 'Class 5 / A', grouped, 'Cash', 'Received by: Anita Koul']) {
      expect(text).toContain(expected);
    }
    expect(await sheet.getByTestId('receipt-balance').textContent()).toBe(`Balance due as on ${formatDateIN(indiaToday())}: ${inr(outstanding)}`);
    expect(await sheet.getByTestId('receipt-total').textContent()).toBe(inr(total));
    expect(await sheet.getByTestId('receipt-words').textContent()).toBe('Rupees Five Thousand Eight Hundred Fifty Only');
    // three months of tuition and bus: one line per head
    expect(await sheet.locator('tbody tr').count()).toBe(2);
    expect(await printable.getByTestId('receipt-received-by').allTextContents()).toEqual(['Received by: Anita Koul', 'Received by: Anita Koul']);

    // the same receipt as a PDF from the server
    const [download] = await Promise.all([printable.waitForEvent('download'), printable.getByRole('button', { name: 'Download PDF' }).click()]);
    expect(download.suggestedFilename()).toBe(`receipt-${receiptNumber.replace(/\//g, '-')}.pdf`);
    const pdf = await getDocumentProxy(new Uint8Array(await (await download.createReadStream()).toArray().then((c) => Buffer.concat(c))));
    const pdfText = (await extractText(pdf, { mergePages: true })).text;
    expect(pdfText).toContain(receiptNumber);
    expect(pdfText).toContain('Five Thousand Eight Hundred Fifty');
    expect(pdfText).toContain('Received by: Anita Koul');
    expect(pdfText).toContain(`₹${(TUITION * 3).toLocaleString('en-IN')}.00`);
    await printable.close();

    // Print Receipt on the screen reprints the latest receipt the same way
    const [again] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'Print Receipt', exact: true }).click()]);
    await soon(() => again.getByTestId('receipt-received-by').first().textContent()).toBe('Received by: Anita Koul');
    await again.close();

    // Student Fee Status agrees: three months paid, the rest of what is due is outstanding
    await nav(page, 'Student Fee Status');
    await soon(() => page.getByRole('heading', { name: 'Student Fee Status' }).isVisible()).toBe(true);
    expect(await page.getByLabel('Student Name', { exact: true }).inputValue()).toBe('Aarav Sharma');
    const months = page.getByRole('list', { name: 'Months' });
    await soon(() => months.getByRole('listitem', { name: `${april}: Paid` }).isVisible()).toBe(true);
    expect(await months.getByRole('listitem', { name: `${june}: Paid` }).isVisible()).toBe(true);
    const ledger = page.getByRole('region', { name: 'Student fee ledger' });
    await soon(() => ledger.textContent()).toContain(`Total Paid${inr(total)}`);
    expect(await ledger.textContent()).toContain(`Outstanding Balance (till date)${inr(outstanding)}`);
    expect(await ledger.textContent()).toContain(`Months Paid3 of ${school.months.length}`);
    if (due > 3) expect(await months.getByRole('listitem', { name: `${school.months[3]!.month} ${school.months[3]!.year}: Pending` }).isVisible()).toBe(true);
    await expectAccessible(page, 'Student Fee Status with a paid receipt');
    // the server's outstanding-fees figure is the same
    const server = await school.call<{ total: string }>('GET', `/api/students/${(await school.call<Array<{ id: string; name: string }>>('GET', '/api/students?class=Class%205&section=A')).find((s) => s.name === 'Aarav Sharma')!.id}/outstanding-fees`);
    expect(server.total).toBe(`${outstanding}.00`);

    // Cancel the receipt: it stays visible, struck through with the reason, and the balance comes back
    const receipt = page.getByRole('listitem', { name: `Receipt ${receiptNumber}` });
    await receipt.getByRole('button', { name: `Cancel receipt ${receiptNumber}` }).click();
    const cancel = page.getByRole('dialog');
    await cancel.getByRole('button', { name: 'Cancel Receipt' }).click();
    await soon(() => cancel.getByText('Please enter a reason for cancelling this receipt').isVisible()).toBe(true);
    await cancel.getByLabel('Reason *').fill('Entered for the wrong student');
    await cancel.getByRole('button', { name: 'Cancel Receipt' }).click();
    await soon(() => toast(page, `Receipt ${receiptNumber} has been cancelled.`).isVisible()).toBe(true);
    await soon(() => receipt.getByText('Cancelled', { exact: true }).isVisible()).toBe(true);
    expect(await receipt.textContent()).toContain('Entered for the wrong student');
    await soon(() => ledger.textContent()).toContain(`Outstanding Balance (till date)${inr(outstanding + total)}`);
    expect(await ledger.textContent()).toContain(`Total Paid${inr(0)}`);
    expect(await months.getByRole('listitem', { name: `${april}: Pending` }).isVisible()).toBe(true);

    // the months are open again in the grid
    await nav(page, 'Submit Monthly Fee');
    await soon(() => page.getByRole('table', { name: 'Monthly fees' }).getByLabel(`Tuition fee ${april}`).getAttribute('readonly')).toBeNull();
  });

  it('the yearly cards lock what is entered and leave the rest open', async () => {
    const page = await e2e.newPage();
    await openDashboard(page, school.token, 'yearly-fees');
    await soon(() => page.getByRole('heading', { name: 'Yearly Fee Management' }).isVisible()).toBe(true);
    await page.getByLabel('Class', { exact: true }).selectOption('Class 5');
    await soon(() => page.getByLabel('Roll Number', { exact: true }).locator('option').count()).toBe(3);
    await page.getByLabel('Roll Number', { exact: true }).selectOption({ label: '2 - Zoya Bhat' });
    const admission = page.getByLabel('Yearly (Admission) Fee amount');
    await soon(() => admission.getAttribute('placeholder')).toBe('5000.00');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await soon(() => toast(page, 'Please enter at least one fee amount before saving.').isVisible()).toBe(true);

    await admission.fill('5000');
    await page.getByLabel('Exam Fee amount').fill('800');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Save' }).click();
    await soon(() => toast(page, 'Yearly fee data saved successfully!').isVisible()).toBe(true);
    await soon(() => page.getByText('Some fee details are locked (selective protection)').isVisible()).toBe(true);
    await soon(() => page.getByRole('status', { name: /^Receipt YRL\// }).textContent()).toContain('₹5,800.00');
    expect(await admission.getAttribute('readonly')).not.toBeNull();
    expect(await page.getByLabel('Books Fee amount').getAttribute('readonly')).toBeNull();
    await page.getByLabel('Exam Fee amount').click({ force: true });
    await soon(() => toast(page, 'This exam fee cannot be modified once entered for the current academic year.').isVisible()).toBe(true);
  });

  it('a class without a fee structure for the year is named, with the way to add one', async () => {
    await addStudent(school, { name: 'Irfan Lone', class: 'Class 7' });
    const page = await e2e.newPage();
    await openDashboard(page, school.token, 'monthly-fees');
    await soon(() => page.getByRole('heading', { name: 'Monthly Fee Management' }).isVisible()).toBe(true);
    await page.getByLabel('Class', { exact: true }).selectOption('Class 7');
    await page.getByLabel('Roll Number', { exact: true }).selectOption({ label: '1 - Irfan Lone' });
    const missing = page.getByRole('alert').filter({ hasText: 'Fee Structure Missing for Class 7' });
    await soon(() => missing.isVisible()).toBe(true);
    expect(await missing.textContent()).toContain(`No fee structure is set up for Class 7 for ${school.session.sessionName}.`);
    expect(await page.getByRole('button', { name: 'Save Changes' }).isDisabled()).toBe(true);
    await missing.getByRole('button', { name: 'Go to Fee Structure' }).click();
    await soon(() => page.getByRole('heading', { name: 'Fee Structure (1 class)' }).isVisible()).toBe(true);
  });

  it('rolling the school into a new session carries the balance, which is then collected', async () => {
    const next = `${Number(school.session.sessionName.slice(0, 4)) + 1}-${Number(school.session.sessionName.slice(5)) + 1}`;
    const startYear = Number(next.slice(0, 4));
    const page = await e2e.newPage();
    await openDashboard(page, school.token, 'academic-sessions');
    await soon(() => page.getByRole('heading', { name: 'Academic Session Management' }).isVisible()).toBe(true);
    // the form fills in its suggestion once the sessions have loaded: typing before that can be
    // interleaved with it (seen once in CI as "2027-20282027-2028")
    await soon(() => page.getByLabel('Session Name').inputValue()).toMatch(/^\d{4}-\d{4}$/);
    await page.getByLabel('Session Name').fill(next);
    await page.getByLabel('Start Date').fill(`${startYear}-04-01`);
    await page.getByLabel('End Date').fill(`${startYear + 1}-03-31`);
    await page.getByRole('button', { name: 'Create Session' }).click();
    await soon(() => toast(page, 'Academic session created successfully').isVisible()).toBe(true);
    // creating it moved nobody: promotion is its own step, with a preview and a confirmation
    const list = page.getByRole('list', { name: 'Academic sessions' });
    expect(await list.getByRole('button', { name: `Activate Session ${next}` }).count()).toBe(0);
    await list.getByRole('button', { name: `Start ${next}` }).click();
    const start = page.getByRole('dialog', { name: `Start ${next}?` });
    const moving = start.getByRole('table', { name: 'Classes moving up' });
    await soon(() => moving.getByRole('row').filter({ hasText: 'Class 5' }).textContent()).toContain('Class 6');
    const dueSoFar = dueMonths(school) * (TUITION + BUS) + YEARLY;
    const startIt = async () => {
      const startNow = start.getByRole('button', { name: `Start ${next}` });
      // before the running session's last month the start is an early one, confirmed on purpose
      const early = start.getByRole('checkbox', { name: 'Start early anyway' });
      if (await early.count()) {
        expect(await startNow.isDisabled()).toBe(true);
        await early.click();
      }
      await startNow.click();
      await soon(() => toast(page, `${next} has started`).isVisible()).toBe(true);
    };
    // the preview names what each student carries: Aarav, every month due so far
    await start.getByText(/^Every student/).click();
    const aarav = start.getByRole('table', { name: 'Students moving up' }).getByRole('row').filter({ hasText: 'Aarav Sharma' });
    await soon(() => aarav.textContent()).toBe(`Aarav SharmaClass 5 AClass 6${inr(dueSoFar)}`);
    await startIt();

    // a start is undone until the first receipt: everyone is back, and it can be started again
    await list.getByRole('button', { name: 'Undo start' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Undo start' }).click();
    await soon(() => toast(page, /The start was undone/).isVisible()).toBe(true);
    await list.getByRole('button', { name: `Start ${next}` }).click();
    await soon(() => moving.getByRole('row').filter({ hasText: 'Class 5' }).isVisible()).toBe(true);
    await startIt();

    // Aarav is in Class 6 now, and owes what was due of last session: the banner shows it
    await nav(page, 'Submit Monthly Fee');
    await soon(() => page.getByRole('heading', { name: 'Monthly Fee Management' }).isVisible()).toBe(true);
    await soon(() => page.getByLabel('Academic Year').inputValue()).toBe(next);
    await page.getByLabel('Class', { exact: true }).selectOption('Class 6');
    await page.getByLabel('Roll Number', { exact: true }).selectOption({ label: '1 - Aarav Sharma' });
    const banner = page.getByRole('alert', { name: 'Previous Balance Pending' });
    // nothing of last session is paid (its receipt was cancelled): every month already due is carried
    const carried = dueSoFar;
    await soon(() => banner.textContent()).toContain(`Previous Balance Pending: ${inr(carried)}`);

    // last year lists where the students sat then: Aarav stays chosen, in his old class
    await page.getByLabel('Academic Year').selectOption(school.session.sessionName);
    await soon(() => page.getByLabel('Class', { exact: true }).inputValue()).toBe('Class 5');
    await soon(() => page.getByLabel('Student Name').inputValue()).toBe('Aarav Sharma');
    expect(await page.getByLabel('Class', { exact: true }).locator('option:checked').textContent()).toBe('Class 5 (2)');
    await page.getByLabel('Academic Year').selectOption(next);
    await soon(() => page.getByLabel('Class', { exact: true }).inputValue()).toBe('Class 6');
    await soon(() => page.getByLabel('Student Name').inputValue()).toBe('Aarav Sharma');
    await soon(() => page.getByRole('alert', { name: 'Previous Balance Pending' }).isVisible()).toBe(true);

    // collect it from the student's record: Record Fee Payment, previous balance
    await nav(page, 'Students');
    await soon(() => page.getByRole('heading', { name: 'Students', exact: true }).isVisible()).toBe(true);
    await page.getByLabel('Class', { exact: true }).selectOption('Class 6');
    await page.getByLabel('Roll Number', { exact: true }).selectOption({ label: '1 - Aarav Sharma' });
    await page.getByRole('button', { name: 'Record Fee Payment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record Fee Payment' });
    await soon(() => dialog.getByText(`Pending ${inr(carried)}`).isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Record Payment' }).click();
    await soon(() => toast(page, 'Please select a student and at least one fee type').isVisible()).toBe(true);
    await dialog.getByLabel('Previous Balance amount').fill('10000');
    expect(await dialog.getByLabel('Total Paid').inputValue()).toBe('₹10,000.00');
    await dialog.getByRole('button', { name: 'Record Payment' }).click();
    await soon(() => dialog.getByRole('status', { name: /^Receipt FEE\// }).isVisible()).toBe(true);
    expect(await dialog.getByRole('status').textContent()).toContain('Rupees Ten Thousand Only');
    await dialog.getByRole('button', { name: 'Done' }).click();

    // the balance drops by what was collected, on every screen
    await nav(page, 'Submit Monthly Fee');
    await soon(() => page.getByRole('alert', { name: 'Previous Balance Pending' }).textContent()).toContain(`Previous Balance Pending: ${inr(carried - 10000)}`);
    await nav(page, 'Student Fee Status');
    const previous = page.getByRole('region', { name: 'Previous session outstanding balance' });
    await soon(() => previous.textContent()).toContain(`Total${inr(carried - 10000)}`);
    expect(await previous.textContent()).toContain(`${inr(10000)} collected`);
  });
});
