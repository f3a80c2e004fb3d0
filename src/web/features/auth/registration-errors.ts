import { ApiError } from '@/web/lib/request';

export const REGISTRATION_MESSAGES = {
  invalid: 'Invalid data provided. Please check your information.',
  server: 'Server error. Please try again in a few moments.',
  network: 'Network error. Please check your connection and try again.',
  failed: 'Registration failed',
} as const;

/** Field order of platform §5: the first failing field is the one the person hears about. */
export const REGISTRATION_FIELD_ORDER = ['schoolName', 'email', 'phone', 'password', 'confirmPassword'] as const;

/** What a failed registration tells the person (platform §8, Registration). */
export function registrationErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError) || error.status === 0) return REGISTRATION_MESSAGES.network;
  if (error.status === 400) return error.message || REGISTRATION_MESSAGES.invalid;
  if (error.status >= 500) return REGISTRATION_MESSAGES.server;
  return error.message || REGISTRATION_MESSAGES.failed;
}

/** The first error in spec order, from a map of field errors. */
export function firstFieldError(errors: Partial<Record<string, { message?: string } | undefined>>): string | undefined {
  for (const name of REGISTRATION_FIELD_ORDER) {
    const message = errors[name]?.message;
    if (message) return message;
  }
  return undefined;
}
