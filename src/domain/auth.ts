import { z } from 'zod';
import { BOARD_MESSAGE, BOARDS } from './boards';

/** Shared input schemas for sign-in, registration and account settings (platform §5, operations §5). */

const email = z
  .string()
  .trim()
  .max(254, 'Email is too long')
  .toLowerCase();

export const loginSchema = z.object({
  email: email.min(1, 'Please enter both email and password'),
  password: z.string().min(1, 'Please enter both email and password').max(200, 'Password is too long'),
  rememberMe: z.boolean().optional(),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const registrationSchema = z.object({
  schoolName: z.string().trim().min(1, 'School name is required').max(200, 'School name is too long'),
  email: email.min(1, 'Valid email address is required').refine((v) => /^[^\s@]+@[^\s@]+$/.test(v), 'Valid email address is required'),
  phone: z.string().trim().min(1, 'Phone number is required').max(20, 'Phone number is too long'),
  address: z.string().trim().max(500, 'Address is too long').optional().default(''),
  password: z.string().min(6, 'Password must be at least 6 characters').max(200, 'Password is too long'),
  selectedPlan: z.enum(['basic', 'standard', 'premium']).optional(),
});
export type RegistrationInput = z.input<typeof registrationSchema>;

/** The registration form adds a confirmation that never leaves the browser. */
export const registrationFormSchema = registrationSchema
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] });

export const forgotPasswordSchema = z.object({
  email: email.min(1, 'Email is required').refine((v) => /^[^\s@]+@[^\s@]+$/.test(v), 'Please enter a valid email address'),
});

export const resetPasswordSchema = z.object({
  token: z.string().min(1, 'Reset token is required').max(500),
  newPassword: z.string().min(6, 'Password must be at least 6 characters long').max(200, 'Password is too long'),
});

export const resetPasswordFormSchema = z
  .object({
    newPassword: resetPasswordSchema.shape.newPassword,
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] });

export const tokenSchema = z.object({ token: z.string().min(1, 'Token is required').max(2000) });
export const rememberLoginSchema = z.object({ rememberToken: z.string().min(1, 'Remember token is required').max(2000) });

/** Settings: a new password must be strong (operations §5). */
export const strongPassword = z
  .string()
  .min(1, 'Password is required')
  .min(6, 'Password must be at least 6 characters long')
  .max(200, 'Password is too long')
  .refine(
    (v) => /[A-Z]/.test(v) && /[a-z]/.test(v) && /\d/.test(v),
    'Password must contain at least one uppercase letter, one lowercase letter, and one number',
  );

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required').max(200),
    newPassword: strongPassword,
  })
  .refine((v) => v.currentPassword !== v.newPassword, {
    message: 'New password must be different from current password',
    path: ['newPassword'],
  });

export const changePasswordFormSchema = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required'),
    newPassword: strongPassword,
    confirmPassword: z.string().min(1, 'Please confirm your new password'),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] })
  .refine((v) => v.currentPassword !== v.newPassword, {
    message: 'New password must be different from current password',
    path: ['newPassword'],
  });

export const changeEmailSchema = z.object({
  newEmail: email
    .min(1, 'Email is required')
    .refine((v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), 'Please enter a valid email address'),
  password: z.string().min(1, 'Password is required to change email').max(200),
});

export const schoolInfoSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'School name is required')
    .min(3, 'School name must be at least 3 characters long')
    .max(200, 'School name is too long'),
  phone: z
    .string()
    .trim()
    .max(20, 'Phone number must be 10 digits')
    .refine((v) => v === '' || /^\d{10}$/.test(v.replace(/\s/g, '')), 'Phone number must be 10 digits')
    .optional()
    .default(''),
  address: z.string().trim().max(500, 'Address is too long').optional().default(''),
  schoolCode: z
    .string()
    .trim()
    .toUpperCase()
    .min(1, 'School code is required')
    .refine((v) => /^[A-Z0-9]{3,10}$/.test(v), 'School code must be 3-10 characters long and contain only uppercase letters and numbers'),
  /** left out by older clients: the board stays as it is */
  board: z.enum(BOARDS, { error: BOARD_MESSAGE }).optional(),
});
export type SchoolInfoInput = z.input<typeof schoolInfoSchema>;

export type PasswordStrength = { score: number; label: 'Weak' | 'Medium' | 'Strong'; percent: 33 | 66 | 100 };

/** One point each: length ≥ 6, length ≥ 8, lowercase, uppercase, digit, symbol (operations §4). */
export function passwordStrength(password: string): PasswordStrength {
  let score = 0;
  if (password.length >= 6) score++;
  if (password.length >= 8) score++;
  if (/[a-z]/.test(password)) score++;
  if (/[A-Z]/.test(password)) score++;
  if (/\d/.test(password)) score++;
  if (/[^A-Za-z0-9]/.test(password)) score++;
  if (score <= 2) return { score, label: 'Weak', percent: 33 };
  if (score <= 4) return { score, label: 'Medium', percent: 66 };
  return { score, label: 'Strong', percent: 100 };
}
