import { describe, expect, it } from 'vitest';
import { registrationFormSchema } from '@/domain/auth';
import { ApiError } from '@/web/lib/request';
import { firstFieldError, registrationErrorMessage } from './registration-errors';

describe('registrationErrorMessage', () => {
  it("shows the server's reason for bad data, or a general one", () => {
    expect(registrationErrorMessage(new ApiError(400, 'Phone number is required'))).toBe('Phone number is required');
    expect(registrationErrorMessage(new ApiError(400, ''))).toBe('Invalid data provided. Please check your information.');
  });
  it('never shows a server failure text', () => {
    expect(registrationErrorMessage(new ApiError(500, 'relation "schools" does not exist'))).toBe(
      'Server error. Please try again in a few moments.',
    );
    expect(registrationErrorMessage(new ApiError(503, 'Service Unavailable'))).toBe('Server error. Please try again in a few moments.');
  });
  it('reports a lost connection as a network error', () => {
    expect(registrationErrorMessage(new ApiError(0, 'timeout'))).toBe('Network error. Please check your connection and try again.');
    expect(registrationErrorMessage(new TypeError('Failed to fetch'))).toBe('Network error. Please check your connection and try again.');
  });
  it('passes other refusals (rate limits) through', () => {
    expect(registrationErrorMessage(new ApiError(429, 'Too many attempts. Try again in 1 minute.'))).toBe(
      'Too many attempts. Try again in 1 minute.',
    );
  });
});

describe('firstFieldError', () => {
  it('follows the order of platform §5: school name, email, phone, password, confirmation', () => {
    const result = registrationFormSchema.safeParse({ schoolName: '', email: 'x', phone: '', address: '', password: '1', confirmPassword: '2' });
    expect(result.success).toBe(false);
    const errors = Object.fromEntries(result.error!.issues.map((i) => [String(i.path[0]), { message: i.message }]));
    expect(firstFieldError(errors)).toBe('School name is required');
    expect(firstFieldError({ confirmPassword: { message: 'Passwords do not match' }, phone: { message: 'Phone number is required' } })).toBe(
      'Phone number is required',
    );
    expect(firstFieldError({})).toBeUndefined();
  });
});
