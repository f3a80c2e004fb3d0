import { z } from 'zod';

/**
 * Input schemas of the pages that set no password (sign-in, forgot password, mailed links). Kept apart
 * from the password policy so the sign-in page does not load the common-password list
 * (docs/decisions/0017-password-policy.md); `src/domain/auth.ts` re-exports them.
 */

export const emailField = z
  .string()
  .trim()
  .max(254, 'Email is too long')
  .toLowerCase();

export const loginSchema = z.object({
  email: emailField.min(1, 'Please enter both email and password'),
  password: z.string().min(1, 'Please enter both email and password').max(200, 'Password is too long'),
  rememberMe: z.boolean().optional(),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const forgotPasswordSchema = z.object({
  email: emailField.min(1, 'Email is required').refine((v) => /^[^\s@]+@[^\s@]+$/.test(v), 'Please enter a valid email address'),
});

export const tokenSchema = z.object({ token: z.string().min(1, 'Token is required').max(2000) });
export const rememberLoginSchema = z.object({ rememberToken: z.string().min(1, 'Remember token is required').max(2000) });
