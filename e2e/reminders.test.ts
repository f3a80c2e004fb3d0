import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStudent, classStructure, dueMonths, feeSchool, inr, openDashboard, soon, toast, type FeeSchool } from './fee-helpers';
import { skipReason, startE2E, type E2E } from './harness';

const SHOTS = '/tmp/shots-reminders';

/** The development outbox's file (DATA_DIR/messages) that carries `text`, if one has been written. */
async function outboxFileWith(dir: string, text: string): Promise<string | null> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const content = await readFile(path.join(dir, name), 'utf8');
    if (content.includes(text)) return content;
  }
  return null;
}

describe.skipIf(skipReason())('reminders by WhatsApp and SMS', () => {
  let e2e: E2E;
  let school: FeeSchool;
  let outboxDir: string;
  beforeAll(async () => {
    e2e = await startE2E();
    outboxDir = e2e.app.deps.config.messages.outboxDir;
    school = await feeSchool(e2e, 'Chinar Valley School');
    await classStructure(school, 'Class 5');
    await addStudent(school, { name: 'Aarav Sharma', class: 'Class 5', parentPhone: '98765 43210', parentWhatsApp: '91234 56789' });
    await addStudent(school, { name: 'Zoya Bhat', class: 'Class 5', parentPhone: '9811122233' });
    await addStudent(school, { name: 'Kabir Singh', class: 'Class 5' });
  });
  afterAll(() => e2e?.close());

  const pick = async (page: Page, label: string) => {
    await page.getByLabel('Class', { exact: true }).selectOption('Class 5');
    await soon(() => page.getByLabel('Section', { exact: true }).inputValue()).toBe('A');
    const roll = page.getByLabel('Roll Number', { exact: true });
    await soon(async () => (await roll.locator('option').allTextContents()).includes(label)).toBe(true);
    await roll.selectOption({ label });
  };

  it('a clerk sends a WhatsApp reminder from Fee Status, shares it from their phone, reminds the class, and reads the log', async () => {
    const page = await e2e.newPage();
    // no network here: wa.me answers locally so the opened tab has the address the phone would open
    await page.context().route('https://wa.me/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>WhatsApp</title>' }));
    await openDashboard(page, school.token, 'student-fee-status');
    await soon(() => page.getByRole('heading', { name: 'Student Fee Status' }).isVisible()).toBe(true);
    await pick(page, '1 - Aarav Sharma');
    await soon(() => page.getByText('No reminders sent to this family yet.').isVisible()).toBe(true);

    // Send reminder: the words, the amount, the link; WhatsApp only
    const due = inr(1500 * dueMonths(school) + 8200);
    await page.getByRole('button', { name: 'Send reminder' }).click();
    const dialog = page.getByRole('dialog');
    await soon(() => dialog.getByTestId('reminder-amount').textContent()).toBe(due);
    const link = (await dialog.getByTestId('reminder-link').textContent())!;
    expect(link).toMatch(/\/pay\/[\w-]{40,}$/);
    expect(await dialog.getByTestId('reminder-text').textContent()).toBe(`Dear Parent, fees of ${due} are due for Aarav Sharma at Chinar Valley School. Pay online: ${link}`);
    expect(await dialog.getByText('WhatsApp to +91 XXXXXX6789').isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/send-dialog-1280.png` });
    await dialog.getByLabel('Send by').selectOption('whatsapp');
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await soon(() => toast(page, 'Reminder queued').isVisible()).toBe(true);

    // the development outbox has the message with the link, and the log says sent
    await soon(() => outboxFileWith(outboxDir, link)).toContain('Channel: WhatsApp');
    expect(await outboxFileWith(outboxDir, link)).toContain('To: +919123456789');
    const log = page.getByTestId('message-log');
    await soon(() => log.getByRole('row').nth(1).textContent()).toMatch(/WhatsApp\+91 XXXXXX6789Sent/);

    // Share on WhatsApp opens wa.me with the number and the words, and is logged
    await page.getByRole('button', { name: 'Send reminder' }).click();
    await soon(() => dialog.getByTestId('reminder-link').textContent()).toBe(link); // the same link, reused
    const [popup] = await Promise.all([page.waitForEvent('popup'), dialog.getByRole('link', { name: 'Share on WhatsApp' }).click()]);
    await popup.waitForLoadState();
    const opened = new URL(popup.url());
    expect(`${opened.origin}${opened.pathname}`).toBe('https://wa.me/919123456789');
    expect(opened.searchParams.get('text')).toBe(`Dear Parent, fees of ${due} are due for Aarav Sharma at Chinar Valley School. Pay online: ${link}`);
    await popup.close();
    await page.keyboard.press('Escape');
    await soon(() => log.getByText('Shared from phone').isVisible()).toBe(true);

    // Remind defaulters of Class 5: a summary, with who was skipped and why
    await page.getByRole('button', { name: 'Remind defaulters' }).click();
    await dialog.getByLabel('Class').selectOption('Class 5');
    await dialog.getByRole('button', { name: 'Find defaulters' }).click();
    await soon(() => dialog.getByTestId('bulk-found').textContent()).toContain('3 students owe fees');
    await dialog.getByRole('button', { name: 'Remind 3 families' }).click();
    const summary = dialog.getByTestId('bulk-summary');
    // Aarav: SMS (his WhatsApp went minutes ago); Zoya: WhatsApp and SMS on her one number; Kabir: no number
    await soon(() => summary.textContent()).toContain('3 messages queued to 2 families');
    expect(await summary.textContent()).toContain('1 family skipped');
    expect(await dialog.getByTestId('bulk-skipped').textContent()).toBe('Kabir SinghNo valid WhatsApp or phone number');
    await page.screenshot({ path: `${SHOTS}/bulk-summary-1280.png` });
    await dialog.getByRole('button', { name: 'Close' }).first().click();

    // Aarav's log: the bulk SMS, the share, the WhatsApp
    await soon(async () => (await log.getByRole('row').allTextContents()).slice(1).map((r) => r.replace(/^.*?(by hand|to defaulters|from your phone)/, '$1'))).toEqual([
      'to defaultersSMS+91 XXXXXX3210SentLink',
      'from your phoneWhatsApp+91 XXXXXX6789Shared from phoneLink',
      'by handWhatsApp+91 XXXXXX6789SentLink',
    ]);
    await page.screenshot({ path: `${SHOTS}/fee-status-log-1280.png`, fullPage: true });
  });

  it('at 375 px the dialog fits a phone', async () => {
    const page = await e2e.newPage({ mobile: true });
    await openDashboard(page, school.token, 'student-fee-status');
    await soon(() => page.getByRole('heading', { name: 'Student Fee Status' }).isVisible()).toBe(true);
    await pick(page, '2 - Zoya Bhat');
    await page.getByRole('button', { name: 'Send reminder' }).click();
    await soon(() => page.getByRole('dialog').getByTestId('reminder-text').isVisible()).toBe(true);
    const box = await page.getByRole('dialog').boundingBox();
    expect(box!.width).toBeLessThanOrEqual(375);
    // nothing inside runs off the side (a long link wraps)
    expect(await page.getByRole('dialog').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await page.screenshot({ path: `${SHOTS}/send-dialog-375.png` });
  });
});
