import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { sessionMonths } from '../src/domain/sessions';
import { signedInSchool } from './account-helpers';
import type { E2E } from './harness';

/**
 * Set-up for the fee journeys: a confirmed, signed-in school with its code and address, talked to
 * through the API with its token (what a person would have done on earlier screens).
 */
export async function feeSchool(e2e: E2E, name: string) {
  const { token } = await signedInSchool(e2e, { schoolName: name, address: 'Boulevard Road, Srinagar', selectedPlan: 'standard' });

  const call = async <T = Record<string, unknown>>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<T> => {
    const res = await e2e.app.inject({ method, url, payload: payload as object, headers: { authorization: `Bearer ${token}` } });
    if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
    return res.json() as T;
  };

  await call('PUT', '/api/schools/update-info', { name, phone: '9876543210', address: 'Boulevard Road, Srinagar', schoolCode: 'DLPS01' });
  const session = await call<{ sessionName: string; startDate: string; endDate: string; id: string }>('GET', '/api/academic-sessions/active');
  return { token, call, session, months: sessionMonths(session.startDate, session.endDate) };
}

export type FeeSchool = Awaited<ReturnType<typeof feeSchool>>;

/** Tuition 1500, yearly 5000 + 800 + 1200 + 900 + 300 = 8200. */
export async function classStructure(school: FeeSchool, className: string, academicYear = school.session.sessionName) {
  await school.call('POST', '/api/class-fee-structures', {
    className,
    academicYear,
    monthlyTuitionFee: '1500',
    yearlyFee: '5000',
    examFee: '800',
    booksFee: '1200',
    uniformFee: '900',
    miscFee: '300',
  });
}

export async function addStudent(
  school: FeeSchool,
  student: { name: string; class: string; section?: string; monthlyBusFee?: string; parentPhone?: string; parentWhatsApp?: string },
) {
  // enrolled since the session began: monthly fees from its first month
  return school.call<{ id: string; rollNumber: number }>('POST', '/api/students', { section: 'A', monthlyBusFee: '0', feesFromMonth: school.session.startDate.slice(0, 7), ...student });
}

export async function openDashboard(page: Page, token: string, tab: string) {
  await page.goto('/favicon.svg');
  await page.evaluate((t) => localStorage.setItem('auth_token', t), token);
  await page.goto(`/school/dashboard?tab=${tab}`);
}

/** The dashboard's sidebar (desktop). */
export const nav = (page: Page, label: string) => page.getByRole('navigation', { name: 'Dashboard' }).getByRole('button', { name: label }).click();

/** Screens load lazily and talk to the server: give them time, as a person would. */
export const soon = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

export const toast = (page: Page, text: string | RegExp) => page.locator('[data-sonner-toast]').filter({ hasText: text });

/**
 * The server's answer to the next `method` request whose path matches `path`, waited for up to a
 * minute. A toast lives a few seconds from when the answer comes: on a loaded machine a write can
 * answer after a poll of the toast has given up, so a journey waits for the answer, then reads it.
 */
export const answerTo = (page: Page, method: string, path: RegExp) =>
  page.waitForResponse((r) => r.request().method() === method && path.test(new URL(r.url()).pathname), { timeout: 60_000 });

/** Today in India, the date fee screens fill in. */
export const indiaToday = () => new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);

/** Months of the session up to this month: what is due "till date" (ruling 6). */
export function dueMonths(school: FeeSchool): number {
  const now = indiaToday().slice(0, 7);
  return school.months.filter((m) => m.key <= now).length;
}

/** "₹12,345.00" as en-IN shows it, from whole rupees. */
export const inr = (rupees: number, decimals = true) => {
  const [whole, fraction] = rupees.toFixed(2).split('.');
  const grouped = whole!.length <= 3 ? whole! : `${whole!.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',')},${whole!.slice(-3)}`;
  return decimals ? `₹${grouped}.${fraction}` : `₹${grouped}`;
};
