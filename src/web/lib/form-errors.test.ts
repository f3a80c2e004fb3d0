import { describe, expect, it } from 'vitest';
import { refusalMessage, serverFieldErrors } from './form-errors';
import { ApiError } from './request';

describe('refusalMessage', () => {
  it("shows the server's reason for a refusal", () => {
    expect(refusalMessage(new ApiError(400, 'Current password is incorrect'), 'fallback')).toBe('Current password is incorrect');
    expect(refusalMessage(new ApiError(402, 'Your trial or subscription has ended.'), 'fallback')).toBe('Your trial or subscription has ended.');
  });
  it('uses the fallback for server failures, lost connections and anything else', () => {
    expect(refusalMessage(new ApiError(500, 'db exploded'), 'Unable to change password. Please try again.')).toBe(
      'Unable to change password. Please try again.',
    );
    expect(refusalMessage(new ApiError(0, 'Network error'), 'fallback')).toBe('fallback');
    expect(refusalMessage(new Error('boom'), 'fallback')).toBe('fallback');
    expect(refusalMessage(new ApiError(400, ''), 'fallback')).toBe('fallback');
  });
});

describe('serverFieldErrors', () => {
  it('keeps only the fields the form shows', () => {
    const error = new ApiError(400, 'Password is incorrect', { fields: { password: 'Password is incorrect', other: 'x', newEmail: '' } });
    expect(serverFieldErrors(error, ['newEmail', 'password'] as const)).toEqual([['password', 'Password is incorrect']]);
  });
  it('is empty without field messages', () => {
    expect(serverFieldErrors(new ApiError(409, 'taken'), ['newEmail'] as const)).toEqual([]);
    expect(serverFieldErrors(new Error('x'), ['newEmail'] as const)).toEqual([]);
  });
});
