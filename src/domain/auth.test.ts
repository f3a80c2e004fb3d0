import { describe, expect, it } from 'vitest';
import { changePasswordSchema, isCommonPassword, passwordStrength, registrationFormSchema, registrationSchema, resetPasswordSchema } from './auth';

describe('the one password policy', () => {
  const register = (password: string) =>
    registrationSchema.safeParse({ schoolName: 'A', email: 'a@b.c', phone: '1', password }).error?.issues[0]?.message;
  const reset = (newPassword: string) => resetPasswordSchema.safeParse({ token: 't', newPassword }).error?.issues[0]?.message;
  const change = (newPassword: string) =>
    changePasswordSchema.safeParse({ currentPassword: 'Old-password-1', newPassword }).error?.issues[0]?.message;

  it('register, reset and change refuse the same passwords with the same messages', () => {
    for (const check of [register, reset, change]) {
      expect(check('secret1')).toBe('Password must be at least 10 characters long');
      expect(check('Secret123')).toBe('Password must be at least 10 characters long');
      expect(check('password123')).toBe('This password is one of the most commonly used passwords. Please choose a less common one.');
      expect(check('QWERTYUIOP')).toBe('This password is one of the most commonly used passwords. Please choose a less common one.');
      // no character-class rule: a long lower-case phrase is fine
      expect(check('monsoon over dal lake')).toBeUndefined();
    }
  });

  it('knows the common passwords of the shipped list, without case', () => {
    expect(isCommonPassword('1234567890')).toBe(true);
    expect(isCommonPassword('Password123')).toBe(true);
    expect(isCommonPassword('Dal-Lake-2026')).toBe(false);
  });
});

describe('password strength hint', () => {
  it.each([
    ['abc', 'Weak', 33, 'Use at least 10 characters.'],
    ['Abcdef1!', 'Weak', 33, 'Use at least 10 characters.'],
    ['qwertyuiop', 'Weak', 33, 'This is one of the most commonly used passwords: choose another.'],
    ['dallake2026', 'Medium', 66, 'Good. A longer password, or a few unrelated words, makes it stronger.'],
    ['Dal-Lake-2026', 'Strong', 100, 'Strong password.'],
    ['monsoon over dal lake', 'Strong', 100, 'Strong password.'],
  ])('%s is %s', (password, label, percent, hint) => {
    expect(passwordStrength(password)).toMatchObject({ label, percent, hint });
  });
});

describe('registration form', () => {
  it('reports the mismatch on the confirmation field', () => {
    const result = registrationFormSchema.safeParse({
      schoolName: 'A',
      email: 'a@b.c',
      phone: '1',
      password: 'Dal-Lake-2026',
      confirmPassword: 'Dal-Lake-2027',
    });
    expect(result.error?.issues[0]).toMatchObject({ message: 'Passwords do not match', path: ['confirmPassword'] });
  });
});
