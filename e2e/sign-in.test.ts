import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poll, registerConfirmedSchool, signInAtLogin } from './account-helpers';
import { expectAccessible } from './axe';
import { ADMIN, skipReason, startE2E, type E2E } from './harness';

describe.skipIf(skipReason())('sign-in', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('a wrong password keeps the person on /login with Login Failed', async () => {
    const page = await e2e.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill('nobody@school.test');
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await poll(() => page.getByText('Login Failed').isVisible()).toBe(true);
    await poll(() => page.getByText('Invalid email or password').isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/login');
    await expectAccessible(page, 'the login page with its error');
  });

  it('a master administrator on /login is turned away with a link to the admin portal (ruling 21)', async () => {
    const page = await e2e.newPage();
    await signInAtLogin(page, ADMIN.email, ADMIN.password);
    await poll(() => page.getByRole('alert').filter({ hasText: 'Access Denied' }).isVisible()).toBe(true);
    await poll(() => page.getByText('Master administrators must use the dedicated admin portal.').first().isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.getByRole('link', { name: 'Go to admin sign-in' }).click();
    await page.waitForURL('**/admin-login');
  });

  it('a school administrator is refused at /admin-login', async () => {
    const school = await registerConfirmedSchool(e2e);
    const page = await e2e.newPage();
    await page.goto('/admin-login');
    await page.getByLabel('Email').fill(school.email);
    await page.getByLabel('Password', { exact: true }).fill(school.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await poll(() => page.getByText('This portal is for master administrators.', { exact: false }).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/admin-login');
  });

  it('the master administrator signs in at /admin-login and lands on /admin/dashboard', async () => {
    const page = await e2e.newPage();
    await page.goto('/admin-login');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.waitForURL('**/admin/dashboard**');
    expect(new URL(page.url()).pathname).toBe('/admin/dashboard');
  });

  it('the master portal counts and lists the schools and users, and signs out', async () => {
    const first = await registerConfirmedSchool(e2e, { schoolName: 'Gulmarg Heights School' });
    await registerConfirmedSchool(e2e, { schoolName: 'Pahalgam Valley School' });
    const page = await e2e.newPage({ mobile: true });
    await page.goto('/admin-login');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/admin/dashboard**');
    await poll(() => page.getByText(/^Welcome, /).filter({ visible: true }).count()).toBe(1);

    // three schools in this database: the one from the test above and these two, all on trial
    const stat = (label: string) => page.locator('p', { hasText: label }).locator('xpath=preceding-sibling::p');
    await poll(() => stat('Total Schools').textContent()).toBe('3');
    expect(await stat('Trial Schools').textContent()).toBe('3');
    expect(await stat('Active Schools').textContent()).toBe('0');
    expect(await stat('Expired Trials').textContent()).toBe('0');
    await expectAccessible(page, 'the admin portal overview at 375 px');

    await page.getByRole('tab', { name: 'Schools' }).click();
    const search = page.getByRole('searchbox', { name: 'Search schools' });
    await search.fill('GULMARG');
    await poll(() => page.getByRole('row').count()).toBe(2);
    expect(await page.getByRole('row').nth(1).textContent()).toContain('Gulmarg Heights School');
    await search.fill(first.email.toUpperCase());
    await poll(() => page.getByRole('row').nth(1).textContent()).toContain('Gulmarg Heights School');
    await search.fill('no such school');
    await poll(() => page.getByText('No school matches').isVisible()).toBe(true);

    await page.getByRole('tab', { name: 'Users' }).click();
    const adminRow = page.getByRole('row').filter({ hasText: ADMIN.email });
    await poll(() => adminRow.textContent()).toContain('Master Admin');
    const schoolRow = page.getByRole('row').filter({ hasText: first.email });
    expect(await schoolRow.textContent()).toContain('School Admin');
    expect(await schoolRow.textContent()).toContain('Never');

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/admin-login');
    await poll(() => page.getByText('Logged out successfully').isVisible()).toBe(true);
    await page.goto('/admin/dashboard');
    await page.waitForURL('**/login');
  });
});
