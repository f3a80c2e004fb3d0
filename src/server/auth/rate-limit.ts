import type { ThrottleRule } from './throttle';

/**
 * The numbers of docs/decisions/0016-sign-in-throttle.md. Keys are the address as typed
 * (lower-cased), so an unknown address is limited exactly like a real one and the limit itself
 * reveals nothing.
 */

/** One address from one IP: four free tries, then 30 s, 1, 2, 4, 8 minutes … at most 15 minutes between tries. */
export const SIGN_IN_PER_ACCOUNT_IP: ThrottleRule = {
  name: 'signin-acct-ip',
  limit: 5,
  windowMs: 60 * 60_000,
  backoff: { baseMs: 30_000, maxMs: 15 * 60_000 },
};

/**
 * One address from everywhere: a ceiling against guessing from many IPs. An IP that signed in to
 * the account in the last 30 days is not held by it, so strangers cannot lock the owner out.
 */
export const SIGN_IN_PER_ACCOUNT: ThrottleRule = { name: 'signin-acct', limit: 100, windowMs: 60 * 60_000 };
export const KNOWN_IP_DAYS = 30;

/** One IP across every address: a school office behind one router makes far fewer mistakes. */
export const SIGN_IN_PER_IP: ThrottleRule = { name: 'signin-ip', limit: 30, windowMs: 60_000 };

/** Reset links and confirmation links together, per address and per IP. */
export const RECOVERY_PER_EMAIL: ThrottleRule = { name: 'recovery-email', limit: 3, windowMs: 15 * 60_000 };
export const RECOVERY_PER_IP: ThrottleRule = { name: 'recovery-ip', limit: 20, windowMs: 15 * 60_000 };

function minutes(seconds: number): string {
  const m = Math.max(1, Math.ceil(seconds / 60));
  return `${m} minute${m === 1 ? '' : 's'}`;
}

export function retryMessage(seconds: number): string {
  return `Too many failed sign-in attempts. Please try again in ${minutes(seconds)}.`;
}

export function recoveryRetryMessage(seconds: number): string {
  return `Too many requests for this email address. Please try again in ${minutes(seconds)}.`;
}

/**
 * The public payment-link calls (ruling 23) per IP: a parent opens, pays and checks a link with a
 * handful of calls; a script walking tokens is stopped long before it could find one.
 */
export const PAY_LINK_PER_IP: ThrottleRule = { name: 'pay-link-ip', limit: 60, windowMs: 60_000 };
