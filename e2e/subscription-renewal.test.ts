import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poll, registerConfirmedSchool, signInAtLogin } from './account-helpers';
import { skipReason, startE2E, type E2E } from './harness';

describe.skipIf(skipReason())('subscription after the trial', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('an ended trial is sent to the plans, pays through Quick Pay and the sandbox checkout, and signs in again', async () => {
    const school = await registerConfirmedSchool(e2e, { schoolName: 'Sonamarg Public School' });
    e2e.clock.advanceDays(6);

    const page = await e2e.newPage({ mobile: true });
    await signInAtLogin(page, school.email, school.password);
    await page.waitForURL('**/subscription-required/**');
    await poll(() => page.getByRole('heading', { name: 'Authentication Required' }).isVisible()).toBe(true);
    expect(await page.getByText('Please log in to renew your subscription and continue using the school management system.').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Quick Pay Now' }).click();
    await poll(() => page.getByText('Authentication Success').isVisible()).toBe(true);
    await poll(() => page.getByRole('heading', { name: 'Subscription Required' }).isVisible()).toBe(true);
    expect(await page.getByText('Your trial period has ended. Choose a plan to continue using our services.').isVisible()).toBe(true);
    expect(await page.getByText('MOST POPULAR').isVisible()).toBe(true);
    expect(await page.getByText('Get new features first').isVisible()).toBe(true);

    // yearly by default; Monthly shows the monthly prices with the first-time discount and GST
    const standard = page.getByLabel('Standard price breakdown');
    expect(await standard.textContent()).toContain('₹3,540.00');
    await page.getByRole('button', { name: 'Monthly', exact: true }).click();
    await poll(() => standard.textContent()).toContain('₹295.00');
    expect(await standard.textContent()).toContain('₹590.00'); // the full price plus GST, struck out

    const pay = page.getByRole('button', { name: 'Pay with Razorpay' }).nth(1);
    await pay.click();
    const dialog = page.getByRole('dialog');
    await poll(() => dialog.getByText('Standard Plan Subscription').isVisible()).toBe(true);
    // closing the window only clears the processing state
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await poll(() => pay.isEnabled()).toBe(true);

    await pay.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Pay ₹295.00' }).click();
    await poll(() => page.getByRole('heading', { name: 'Payment Successful!' }).isVisible()).toBe(true);
    // platform §9: on to /login after 2 s
    await page.waitForURL('**/login', { timeout: 10_000 });

    await signInAtLogin(page, school.email, school.password);
    await page.waitForURL('**/school/dashboard**');
    await poll(() => page.getByText('Sonamarg Public School').first().isVisible()).toBe(true);
  });

  it('without a school in the link, Quick Pay is not offered and the person is sent to sign in', async () => {
    const page = await e2e.newPage();
    await page.goto('/subscription-required');
    await poll(() => page.getByRole('heading', { name: 'Authentication Required' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Quick Pay Now' }).isDisabled()).toBe(true);
    await page.getByRole('link', { name: 'Go to Login' }).click();
    await page.waitForURL('**/login');
  });
});
