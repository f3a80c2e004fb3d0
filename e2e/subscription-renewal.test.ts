import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poll, registerConfirmedSchool, signInAtLogin } from './account-helpers';
import { skipReason, startE2E, type E2E } from './harness';

describe.skipIf(skipReason())('subscription after the trial', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('an ended trial signs in read-only, renews from its own session through the test checkout, and writes again', async () => {
    const school = await registerConfirmedSchool(e2e, { schoolName: 'Sonamarg Public School' });
    e2e.clock.advanceDays(6);

    const page = await e2e.newPage({ mobile: true });
    await signInAtLogin(page, school.email, school.password);
    // ruling 14: the password opens the school's own dashboard, read-only, with the way to renew
    await page.waitForURL('**/school/dashboard**');
    await poll(() => page.getByText('Trial Period Expired').isVisible()).toBe(true);
    expect(await page.getByText('Your data is read-only until then').isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Upgrade Plan' }).first().click();
    // ruling 29: the payment page names no school; the session says who pays
    await page.waitForURL((url) => url.pathname === '/subscription-required');

    await poll(() => page.getByRole('heading', { name: 'Subscription Required' }).isVisible()).toBe(true);
    expect(await page.getByText('Your trial period has ended. Choose a plan to continue using our services.').isVisible()).toBe(true);
    // the plans arrive after the heading: wait for them, not for the first paint
    await poll(() => page.getByText('MOST POPULAR').isVisible()).toBe(true);
    // plan lines are the catalogue's and true (issue 12 item 7): no made-up early-access promise
    expect(await page.getByText('Everything in Basic').first().isVisible()).toBe(true);
    expect(await page.getByText('Get new features first').count()).toBe(0);
    // the sandbox says it is one
    await poll(() => page.getByText('Test payments').first().isVisible()).toBe(true);

    // yearly by default; Monthly shows the monthly prices with the first-time discount and GST
    const standard = page.getByLabel('Standard price breakdown');
    await poll(() => standard.textContent()).toContain('₹3,540.00');
    await page.getByRole('button', { name: 'Monthly', exact: true }).click();
    await poll(() => standard.textContent()).toContain('₹295.00');
    expect(await standard.textContent()).toContain('₹590.00'); // the full price plus GST, struck out

    const pay = page.getByRole('button', { name: 'Pay with Razorpay' }).nth(1);
    await poll(() => pay.isEnabled()).toBe(true);
    await pay.click();
    const dialog = page.getByRole('dialog');
    await poll(() => dialog.getByText('Standard Plan Subscription').isVisible()).toBe(true);
    expect(await dialog.getByText('Test payments').isVisible()).toBe(true);
    // closing the window only clears the processing state
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await poll(() => pay.isEnabled()).toBe(true);

    await pay.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Pay ₹295.00' }).click();
    await poll(() => page.getByRole('heading', { name: 'Payment Successful!' }).isVisible()).toBe(true);
    // platform §9: on after 2 s; signed in, /login leads to the dashboard, which is writable again
    await page.waitForURL('**/school/dashboard**', { timeout: 10_000 });
    await poll(() => page.getByText('Sonamarg Public School').first().isVisible()).toBe(true);
    expect(await page.getByText('Trial Period Expired').isVisible()).toBe(false);

    // ruling 28: a lower plan bought now waits for the paid Standard month to end
    await page.goto('/subscription-required');
    await poll(() => page.getByRole('heading', { name: 'Choose Your Plan' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Monthly', exact: true }).click();
    await poll(() => page.getByText(/^Basic from \d{2} \w{3} \d{4}, when your current plan ends$/).isVisible()).toBe(true);
    await poll(() => page.getByText(/^Adds a month after your current plan: paid until/).isVisible()).toBe(true);
  });

  it('signed out, the payment page offers only sign-in: a school id in the link yields nothing', async () => {
    const page = await e2e.newPage();
    await page.goto('/subscription-required/00000000-0000-4000-8000-000000000000');
    await poll(() => page.getByRole('heading', { name: 'Authentication Required' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Quick Pay Now' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Go to Login' }).click();
    await page.waitForURL('**/login');
  });
});
