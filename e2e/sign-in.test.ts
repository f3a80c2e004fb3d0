import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    await expect.poll(() => page.getByText('Login Failed').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Invalid email or password').isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/login');
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
});
