import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/server/auth/totp';
import { poll, registerConfirmedSchool, signedInSchool } from './account-helpers';
import { expectAccessible } from './axe';
import { ADMIN, skipReason, startE2E, type E2E } from './harness';

/**
 * The operator's portal (issue 12 item 2): the master turns on two-step sign-in, signs in with a
 * code, walks every tab, opens a school, signs a school's session out and lifts a sign-in lock.
 */
describe.skipIf(skipReason())('the operator portal', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('two-step sign-in, every tab, a school page, revoke a session, unlock an account', async () => {
    const busy = await signedInSchool(e2e, { schoolName: 'Dal Lake Public School' });
    const locked = await registerConfirmedSchool(e2e, { schoolName: 'Sonamarg Hill School' });
    const ip = '198.51.100.77';

    const page = await e2e.newPage();
    const signInWithPassword = async () => {
      await page.goto('/admin-login');
      await page.getByLabel('Email').fill(ADMIN.email);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
    };

    // 1. password only, then turn on two-step sign-in from the Security tab
    await signInWithPassword();
    await page.waitForURL('**/admin/dashboard**');
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel('Code from the app').fill(totpCode(secret, e2e.clock.now()));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await poll(() => page.getByText(/^On since /).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/admin-login');

    // 2. the password alone now asks for a code; a wrong one is refused, the right one signs in
    e2e.clock.advance(30_000);
    await signInWithPassword();
    await poll(() => page.getByText('Your password is right.', { exact: false }).isVisible()).toBe(true);
    const codeField = page.getByLabel('Authentication code');
    const right = totpCode(secret, e2e.clock.now());
    await codeField.fill(right === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify and Sign In' }).click();
    await poll(() => page.getByText('That code is not right or was already used.', { exact: false }).isVisible()).toBe(true);
    await codeField.fill(right);
    await page.getByRole('button', { name: 'Verify and Sign In' }).click();
    await page.waitForURL('**/admin/dashboard**');

    // 3. Overview: the counts and the live health card
    const health = page.getByRole('list', { name: 'System Health' });
    await poll(() => health.textContent()).toContain('Database Online');
    expect(await health.textContent()).toContain('Authentication Secure');
    expect(await health.textContent()).toContain('API Services Operational');
    const stat = (label: string) => page.locator('p', { hasText: label }).locator('xpath=preceding-sibling::p');
    expect(await stat('Total Schools').textContent()).toBe('2');
    await expectAccessible(page, "the operator portal's overview with System Health");

    // 4. Schools: open one, see its plan and usage, open Manage, come back
    await page.getByRole('tab', { name: 'Schools' }).click();
    await page.getByRole('link', { name: 'Open Dal Lake Public School' }).click();
    await page.waitForURL('**/admin/schools/**');
    await poll(() => page.getByRole('heading', { name: 'Dal Lake Public School' }).isVisible()).toBe(true);
    expect(await page.getByText('Staff accounts').locator('xpath=preceding-sibling::p').textContent()).toBe('1');
    expect(await page.getByText('Receipts this month').locator('xpath=preceding-sibling::p').textContent()).toBe('0');
    await poll(() => page.getByText('No payment recorded.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Manage' }).click();
    await poll(() => page.getByRole('dialog').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Back to schools' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/dashboard' && url.search === '?tab=schools');

    // 5. the other tabs
    await page.getByRole('tab', { name: 'Subscription Management' }).click();
    await poll(() => page.getByRole('tabpanel').isVisible()).toBe(true);
    await page.getByRole('tab', { name: 'Users' }).click();
    await poll(() => page.getByRole('row').filter({ hasText: busy.email }).isVisible()).toBe(true);
    await page.getByRole('tab', { name: 'Analytics' }).click();
    await poll(() => page.getByText('Revenue per month').isVisible()).toBe(true);
    expect(await page.locator('p').filter({ hasText: /^MRR$/ }).locator('xpath=following-sibling::p[1]').textContent()).toBe('₹0.00');
    await page.getByRole('tab', { name: 'System' }).click();
    await poll(() => page.getByText('Query latency').isVisible()).toBe(true);
    expect(await page.locator('[data-check="Payment provider"]').textContent()).toContain('Built-in sandbox');

    // 6. Security: sign the busy school's session out (the other school has just locked itself out)
    for (let i = 0; i < 5; i++) {
      await e2e.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: locked.email, password: `wrong-${i}-password` }, remoteAddress: ip });
    }
    const refused = await e2e.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: locked.email, password: locked.password }, remoteAddress: ip });
    expect(refused.statusCode).toBe(429);
    await page.getByRole('tab', { name: 'Security' }).click();
    expect((await e2e.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${busy.token}` } })).statusCode).toBe(200);
    await page.getByRole('button', { name: `Revoke ${busy.email}` }).click();
    await page.getByLabel('Reason').fill('Shared computer in the staff room');
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await poll(() => page.getByRole('button', { name: `Revoke ${busy.email}` }).count()).toBe(0);
    expect((await e2e.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${busy.token}` } })).statusCode).toBe(401);

    // 7. ... and lift the lock on the other school's address
    const unlock = page.getByRole('button', { name: `Unlock ${locked.email} from ${ip}` });
    await poll(() => unlock.isVisible()).toBe(true);
    await unlock.click();
    await page.getByLabel('Reason').fill('The principal called from the school office');
    await page.getByRole('dialog').getByRole('button', { name: 'Unlock' }).click();
    await poll(() => unlock.count()).toBe(0);
    const again = await e2e.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: locked.email, password: locked.password }, remoteAddress: ip });
    expect(again.statusCode).toBe(200);

    // both show in the audit log with their reasons
    const audit = page.getByRole('table', { name: 'Audit log' });
    await poll(() => audit.textContent()).toContain('signin.unlock');
    expect(await audit.textContent()).toContain('session.revoke');
    expect(await audit.textContent()).toContain('reason: Shared computer in the staff room');
    // the sign-in history shows the wrong code with its browser
    const history = page.getByRole('table', { name: 'Sign-in history' });
    expect(await history.textContent()).toContain('Wrong code');
    await expectAccessible(page, "the operator portal's Security tab with the audit log and sign-in history");
  });
});
