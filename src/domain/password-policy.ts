import { dictionary } from '@zxcvbn-ts/language-common';
import { z } from 'zod';

/**
 * The one password policy of registration, reset and change (docs/decisions/0017-password-policy.md):
 * at least 10 characters and not one of the most common passwords. The list is the "common
 * passwords" dictionary that @zxcvbn-ts/language-common ships (no network at run time).
 */
export const MIN_PASSWORD_LENGTH = 10;
export const PASSWORD_REQUIRED = 'Password is required';
export const PASSWORD_TOO_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
export const PASSWORD_TOO_COMMON = 'This password is one of the most commonly used passwords. Please choose a less common one.';
export const PASSWORD_TOO_LONG = 'Password is too long';

let common: Set<string> | undefined;

/** Compared without case: "Password123" is as guessable as "password123". */
export function isCommonPassword(password: string): boolean {
  // only entries the length rule lets through matter; built on first use, not at import
  common ??= new Set(dictionary['passwords-common'].filter((p) => p.length >= MIN_PASSWORD_LENGTH).map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}

export const newPasswordSchema = z
  .string()
  .min(1, PASSWORD_REQUIRED)
  .min(MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT)
  .max(200, PASSWORD_TOO_LONG)
  .refine((v) => v.length < MIN_PASSWORD_LENGTH || !isCommonPassword(v), PASSWORD_TOO_COMMON);

export type PasswordStrength = {
  score: number;
  label: 'Weak' | 'Medium' | 'Strong';
  percent: 33 | 66 | 100;
  /** what would make it stronger, or what the policy refuses */
  hint: string;
};

export const STRENGTH_HINTS = {
  short: `Use at least ${MIN_PASSWORD_LENGTH} characters.`,
  common: 'This is one of the most commonly used passwords: choose another.',
  medium: 'Good. A longer password, or a few unrelated words, makes it stronger.',
  strong: 'Strong password.',
} as const;

/**
 * The hint shown under a new password: Weak when the policy would refuse it, Strong for a long
 * password (16+) or 12+ characters mixing three kinds of characters, Medium otherwise.
 */
export function passwordStrength(password: string): PasswordStrength {
  const kinds = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  const score = Math.min(password.length, 20) / 4 + kinds;
  if (password.length < MIN_PASSWORD_LENGTH) return { score, label: 'Weak', percent: 33, hint: STRENGTH_HINTS.short };
  if (isCommonPassword(password)) return { score, label: 'Weak', percent: 33, hint: STRENGTH_HINTS.common };
  if (password.length >= 16 || (password.length >= 12 && kinds >= 3)) return { score, label: 'Strong', percent: 100, hint: STRENGTH_HINTS.strong };
  return { score, label: 'Medium', percent: 66, hint: STRENGTH_HINTS.medium };
}
