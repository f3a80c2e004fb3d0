import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { E2E } from './harness';

let counter = 0;

/** A school registered and confirmed through the API, for journeys that start at sign-in. */
export async function registerConfirmedSchool(
  e2e: E2E,
  overrides: { schoolName?: string; password?: string; address?: string; selectedPlan?: 'basic' | 'standard' | 'premium' } = {},
) {
  counter += 1;
  const email = `admin${counter}-${Date.now().toString(36)}@school.test`;
  const password = overrides.password ?? 'Secret-Ledger-24';
  const schoolName = overrides.schoolName ?? `Chinar Valley School ${counter}`;
  const reg = await e2e.app.inject({
    method: 'POST',
    url: '/api/school-registration',
    payload: {
      schoolName,
      email,
      phone: '9876543210',
      address: overrides.address ?? 'Rajbagh, Srinagar',
      password,
      ...(overrides.selectedPlan ? { selectedPlan: overrides.selectedPlan } : {}),
    },
  });
  if (reg.statusCode !== 201) throw new Error(`registration failed: ${reg.statusCode} ${reg.body}`);
  const mail = await e2e.smtp.waitFor(email, /Confirm/);
  const token = new URL(mail.links[0]!).searchParams.get('token')!;
  const confirm = await e2e.app.inject({ method: 'POST', url: '/api/auth/confirm-email', payload: { token } });
  if (confirm.statusCode !== 200) throw new Error(`confirmation failed: ${confirm.body}`);
  return { email, password, schoolName };
}

/** A registered, confirmed school signed in through the API: for journeys that start inside the app. */
export async function signedInSchool(e2e: E2E, overrides: Parameters<typeof registerConfirmedSchool>[1] = {}) {
  const school = await registerConfirmedSchool(e2e, overrides);
  const login = await e2e.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: school.email, password: school.password } });
  expect(login.statusCode).toBe(200);
  const body = login.json() as { token: string; user: { schoolId: string } };
  return { ...school, token: body.token, schoolId: body.user.schoolId };
}

/** Fills the /login form and presses Sign In (the caller checks where it lands). */
export async function signInAtLogin(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/**
 * expect.poll with room for a busy machine: sign-in and registration hash passwords, and the
 * default 1 s of expect.poll is too short when several test files share two cores.
 */
export const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });
