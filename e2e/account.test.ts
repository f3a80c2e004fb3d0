import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poll, registerConfirmedSchool, signInAtLogin } from './account-helpers';
import { skipReason, startE2E, type E2E } from './harness';

describe.skipIf(skipReason())('account', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('registers a school, confirms the mailed link, signs in to the dashboard and signs out', async () => {
    const email = `office-${Date.now().toString(36)}@chinarvalley.test`;
    const page = await e2e.newPage();
    await page.goto('/register');

    // an empty form names the first missing field, in the order of platform §5
    await page.getByRole('button', { name: 'Register & Start Free Trial' }).click();
    await poll(() => page.getByText('School name is required').first().isVisible()).toBe(true);
    await poll(() => page.getByText('Phone number is required').isVisible()).toBe(true);

    await page.getByLabel('School name').fill('Chinar Valley Public School');
    await page.getByLabel('Admin email').fill(email);
    await page.getByLabel('Phone').fill('9876543210');
    await page.getByLabel('Address').fill('Rajbagh, Srinagar, Jammu and Kashmir');
    await page.getByLabel('Password', { exact: true }).fill('Secret-Ledger-24');
    await page.getByLabel('Confirm password').fill('Secret-Ledger-25');
    await page.getByRole('button', { name: 'Register & Start Free Trial' }).click();
    await poll(() => page.getByText('Passwords do not match').first().isVisible()).toBe(true);

    await page.getByLabel('Confirm password').fill('Secret-Ledger-24');
    await page.getByLabel(/Premium/).check();
    await page.getByRole('button', { name: 'Register & Start Free Trial' }).click();
    await poll(() => page.getByRole('heading', { name: 'Registration Successful' }).isVisible()).toBe(true);
    await poll(() => page.getByText('Your 5-day free trial starts once your email is confirmed.').first().isVisible()).toBe(true);
    // platform §9: on to sign-in after 3 s
    await page.waitForURL('**/login', { timeout: 10_000 });

    // registering the same address again answers as for a new one; the owner is mailed a notice instead
    const again = await e2e.newPage();
    await again.goto('/register');
    await again.getByLabel('School name').fill('Another School');
    await again.getByLabel('Admin email').fill(email);
    await again.getByLabel('Phone').fill('9876543211');
    await again.getByLabel('Password', { exact: true }).fill('Secret-Ledger-24');
    await again.getByLabel('Confirm password').fill('Secret-Ledger-24');
    await again.getByRole('button', { name: 'Register & Start Free Trial' }).click();
    await poll(() => again.getByRole('heading', { name: 'Registration Successful' }).isVisible()).toBe(true);
    expect(await again.getByText('This email is already registered', { exact: false }).count()).toBe(0);
    await e2e.smtp.waitFor(email, /already have a School Ledger account/);

    // before confirming, sign-in is refused with the confirm-your-email notice
    await signInAtLogin(page, email, 'Secret-Ledger-24');
    await poll(() => page.getByText('Please confirm your email address before signing in.').first().isVisible())
      .toBe(true);

    const mail = await e2e.smtp.waitFor(email, /Confirm/);
    await page.goto(mail.links[0]!);
    await poll(() => page.getByRole('heading', { name: 'Email Confirmed' }).isVisible()).toBe(true);
    await poll(() => page.getByText(/Your free trial runs until/).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Go to Login' }).click();
    await page.waitForURL('**/login');

    await signInAtLogin(page, email, 'Secret-Ledger-24');
    await page.waitForURL('**/school/dashboard**');
    await poll(() => page.getByText('Chinar Valley Public School').first().isVisible()).toBe(true);

    // the dashboard header's Logout (built with the dashboard) ends the session
    await page.getByRole('button', { name: 'Logout' }).first().click();
    await page.waitForURL('**/login');
    await page.goto('/school/dashboard');
    await page.waitForURL('**/login');
  });

  it('resets a forgotten password with the mailed link; the old password stops working', async () => {
    const school = await registerConfirmedSchool(e2e, { password: 'Old-secret-2026' });
    const page = await e2e.newPage({ mobile: true });
    await signInAtLogin(page, school.email, 'nothing-i-remember');
    await poll(() => page.getByText('Invalid email or password').isVisible()).toBe(true);

    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByLabel('Email').fill(school.email);
    await page.getByRole('button', { name: 'Send Reset Instructions' }).click();
    await poll(() => page.getByRole('heading', { name: 'Check Your Email' }).isVisible()).toBe(true);
    await poll(() => page.getByText('Reset Email Sent').isVisible()).toBe(true);
    // with real mail configured, the answer carries no token, so none is shown
    expect(await page.getByText('Reset token:').count()).toBe(0);
    await page.getByRole('button', { name: 'Send Another Email' }).click();
    await poll(() => page.getByRole('button', { name: 'Send Reset Instructions' }).isVisible()).toBe(true);

    const mail = await e2e.smtp.waitFor(school.email, /Reset/);
    await page.goto(mail.links[0]!);
    const reset = page.getByRole('button', { name: 'Reset Password' });
    await page.getByLabel('New password', { exact: true }).fill('New-secret-2026');
    await page.getByLabel('Confirm new password').fill('New-secret-20');
    await poll(() => page.getByText('Passwords do not match').isVisible()).toBe(true);
    expect(await reset.isDisabled()).toBe(true);
    await page.getByLabel('Confirm new password').fill('New-secret-2026');
    expect(await reset.isDisabled()).toBe(false);
    await reset.click();
    await poll(() => page.getByRole('heading', { name: 'Password Reset Successful' }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Continue to Login' }).click();
    await page.waitForURL('**/login');

    await signInAtLogin(page, school.email, 'Old-secret-2026');
    await poll(() => page.getByText('Invalid email or password').isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/login');

    await signInAtLogin(page, school.email, 'New-secret-2026');
    await page.waitForURL('**/school/dashboard**');
    await poll(() => page.getByText(school.schoolName).first().isVisible()).toBe(true);
  });

  it('a reset link without a token goes back to /forgot-password', async () => {
    const page = await e2e.newPage();
    await page.goto('/reset-password');
    await page.waitForURL('**/forgot-password');
  });
});
