import { describe, expect, it } from 'vitest';
import { passwordStrength, registrationFormSchema } from './auth';

describe('password strength (operations §4)', () => {
  it.each([
    ['abc', 1, 'Weak', 33],
    ['abcdef', 2, 'Weak', 33],
    ['abcdefgh', 3, 'Medium', 66],
    ['Abcdefg1', 5, 'Strong', 100],
    ['Abcdef1!', 6, 'Strong', 100],
    ['ABCDEF1', 3, 'Medium', 66],
  ])('%s scores %i (%s)', (password, score, label, percent) => {
    expect(passwordStrength(password)).toEqual({ score, label, percent });
  });
});

describe('registration form', () => {
  it('reports the mismatch on the confirmation field', () => {
    const result = registrationFormSchema.safeParse({ schoolName: 'A', email: 'a@b.c', phone: '1', password: 'secret1', confirmPassword: 'secret2' });
    expect(result.error?.issues[0]).toMatchObject({ message: 'Passwords do not match', path: ['confirmPassword'] });
  });
});
