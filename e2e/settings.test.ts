import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poll, registerConfirmedSchool, signInAtLogin } from './account-helpers';
import { expectAccessible } from './axe';
import { skipReason, startE2E, type E2E } from './harness';

describe.skipIf(skipReason())('account settings', () => {
  let e2e: E2E;
  let school: Awaited<ReturnType<typeof registerConfirmedSchool>>;
  let page: Page;

  beforeAll(async () => {
    e2e = await startE2E();
    school = await registerConfirmedSchool(e2e, { schoolName: 'Dal Lake Academy', password: 'Secret-Ledger-24' });
    page = await e2e.newPage();
    await signInAtLogin(page, school.email, school.password);
    await page.waitForURL('**/school/dashboard**');
    await page.goto('/school/settings');
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor();
  });
  afterAll(() => e2e?.close());

  it('shows the account overview with a way back to the dashboard', async () => {
    expect(await page.getByTestId('overview-email').textContent()).toBe(school.email);
    expect(await page.getByTestId('overview-school').textContent()).toBe('Dal Lake Academy');
    expect(await page.getByText('Secure Settings').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/school/dashboard');
    await expectAccessible(page, 'Account Settings');
  });

  it('updates the school information: code uppercased as typed, phone checked', async () => {
    const form = page.getByRole('form', { name: 'School Information' });
    const code = form.getByLabel('School code');
    await code.fill('dla2026');
    await poll(() => code.inputValue()).toBe('DLA2026');
    expect(await code.getAttribute('maxlength')).toBe('10');
    expect(await form.getByText('Used on marksheets and official documents. 3-10 characters, uppercase letters and numbers only.').isVisible()).toBe(true);

    await form.getByLabel('Phone number').fill('12345');
    await form.getByRole('button', { name: 'Update School Information' }).click();
    await poll(() => form.getByText('Phone number must be 10 digits').isVisible()).toBe(true);

    await form.getByLabel('School name').fill('Dal Lake Public Academy');
    await form.getByLabel('Phone number').fill('94190 12345');
    await form.getByRole('button', { name: 'Update School Information' }).click();
    await poll(() => page.getByText('School Information Updated').isVisible()).toBe(true);
    // the current user is refetched, so the overview follows
    await poll(() => page.getByTestId('overview-school').textContent()).toBe('Dal Lake Public Academy');

    await page.reload();
    const reloaded = page.getByRole('form', { name: 'School Information' });
    await poll(() => reloaded.getByLabel('School code').inputValue()).toBe('DLA2026');
    expect(await reloaded.getByLabel('Phone number').inputValue()).toBe('94190 12345');
  });

  it('uploads the school logo printed on receipts, refuses a file over 300 KB, and removes it', async () => {
    const logo = page.getByRole('region', { name: 'School Logo' });
    expect(await logo.getByLabel('No logo yet').isVisible()).toBe(true);
    // a logo drawn by the browser itself
    const drawer = await e2e.newPage();
    await drawer.setContent('<div style="width:96px;height:96px;background:#1d4ed8;border-radius:48px"></div>');
    const png = await drawer.locator('div').screenshot({ omitBackground: true });
    await drawer.close();

    await logo.getByLabel('Upload Logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await poll(() => page.getByText('The school logo has been saved.').isVisible()).toBe(true);
    await poll(() => logo.getByRole('img', { name: 'School logo' }).isVisible()).toBe(true);
    const served = await e2e.app.inject({ method: 'GET', url: '/api/school/logo', headers: { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('auth_token'))}` } });
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);

    await logo.getByLabel('Upload Logo').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.concat([png, Buffer.alloc(310 * 1024)]) });
    await poll(() => page.getByText('The logo is larger than 300 KB. Choose a smaller image.').isVisible()).toBe(true);

    await logo.getByRole('button', { name: 'Remove Logo' }).click();
    await poll(() => page.getByText('The school logo has been removed.').isVisible()).toBe(true);
    await poll(() => logo.getByLabel('No logo yet').isVisible()).toBe(true);
  });

  it('changes the password with a live strength hint; only the new one signs in afterwards', async () => {
    const form = page.getByRole('form', { name: 'Change Password' });
    expect(await form.getByText('Password strength').count()).toBe(0);
    await form.getByLabel('New password', { exact: true }).fill('Abc12345');
    await poll(() => form.getByText('Weak').isVisible()).toBe(true);
    expect(await form.getByText('Use at least 10 characters.').isVisible()).toBe(true);
    await form.getByLabel('New password', { exact: true }).fill('qwertyuiop');
    await poll(() => form.getByText('This is one of the most commonly used passwords: choose another.').isVisible()).toBe(true);
    await form.getByLabel('New password', { exact: true }).fill('Chinar-2026!');
    await poll(() => form.getByText('Strong', { exact: true }).isVisible()).toBe(true);

    await form.getByLabel('Current password').fill('Secret-Ledger-24');
    await form.getByLabel('Confirm new password').fill('Chinar-2027!');
    await form.getByRole('button', { name: 'Update Password' }).click();
    await poll(() => form.getByText('Passwords do not match').isVisible()).toBe(true);

    await form.getByLabel('Current password').fill('NotMyPassword1');
    await form.getByLabel('Confirm new password').fill('Chinar-2026!');
    await form.getByRole('button', { name: 'Update Password' }).click();
    await poll(() => form.getByText('Current password is incorrect').isVisible()).toBe(true);
    await poll(() => page.getByText('Password Change Failed').isVisible()).toBe(true);
    await expectAccessible(page, 'Account Settings: Change Password with a wrong current password');

    await form.getByLabel('Current password').fill('Secret-Ledger-24');
    await form.getByRole('button', { name: 'Update Password' }).click();
    await poll(() => page.getByText('Password Updated Successfully').isVisible()).toBe(true);
    expect(await form.getByLabel('Current password').inputValue()).toBe('');
    expect(await form.getByLabel('New password', { exact: true }).inputValue()).toBe('');

    const other = await e2e.newPage({ mobile: true });
    await signInAtLogin(other, school.email, 'Secret-Ledger-24');
    await poll(() => other.getByText('Invalid email or password').isVisible()).toBe(true);
    await signInAtLogin(other, school.email, 'Chinar-2026!');
    await other.waitForURL('**/school/dashboard**');
  });

  it('changes the sign-in email only once the link mailed to the new address is opened', async () => {
    const form = page.getByRole('form', { name: 'Change Email Address' });
    await form.getByLabel('New email address').fill(school.email);
    await form.getByLabel('Current password').fill('Chinar-2026!');
    await form.getByRole('button', { name: 'Update Email' }).click();
    await poll(() => form.getByText('New email must be different from current email').isVisible()).toBe(true);

    const newEmail = `bursar-${Date.now().toString(36)}@dallake.test`;
    await form.getByLabel('New email address').fill(newEmail);
    await form.getByLabel('Current password').fill('Secret-Ledger-24');
    await form.getByRole('button', { name: 'Update Email' }).click();
    await poll(() => form.getByText('Password is incorrect').isVisible()).toBe(true);

    await form.getByLabel('Current password').fill('Chinar-2026!');
    await form.getByRole('button', { name: 'Update Email' }).click();
    await poll(() => page.getByText('Confirmation Email Sent').isVisible()).toBe(true);
    await poll(() => form.page().getByText('Check your new inbox').isVisible()).toBe(true);
    expect(await page.getByText(`We have sent a confirmation link to ${newEmail}.`, { exact: false }).first().isVisible()).toBe(true);
    // nothing changed yet; operations §4: the new address stays in the form, the password is cleared
    expect(await page.getByTestId('overview-email').textContent()).toBe(school.email);
    expect(await form.getByLabel('New email address').inputValue()).toBe(newEmail);
    expect(await form.getByLabel('Current password').inputValue()).toBe('');
    await e2e.smtp.waitFor(school.email, /about to change/);

    const mail = await e2e.smtp.waitFor(newEmail, /Confirm your new/);
    const inbox = await e2e.newPage();
    await inbox.goto(mail.links[0]!);
    await poll(() => inbox.getByRole('heading', { name: 'Email Changed' }).isVisible()).toBe(true);
    expect(await inbox.getByText(newEmail).isVisible()).toBe(true);

    await page.reload();
    await poll(() => page.getByTestId('overview-email').textContent()).toBe(newEmail);
    const other = await e2e.newPage();
    await signInAtLogin(other, newEmail, 'Chinar-2026!');
    await other.waitForURL('**/school/dashboard**');
  });
});
