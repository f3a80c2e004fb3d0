import { z } from 'zod';
import { GSTIN_MESSAGES, gstinProblem, STATE_NAMES } from './invoices';
import { BOARD_MESSAGE, BOARDS } from './boards';
import { newPasswordSchema } from './password-policy';
import { emailField } from './sign-in';
import { oneLine } from './text';

export * from './sign-in';

export { isCommonPassword, MIN_PASSWORD_LENGTH, newPasswordSchema, passwordStrength, type PasswordStrength } from './password-policy';

/** Shared input schemas for sign-in, registration and account settings (platform §5, operations §5). */

export const registrationSchema = z.object({
  schoolName: oneLine(z.string().trim().min(1, 'School name is required').max(200, 'School name is too long'), 'School name'),
  email: emailField.min(1, 'Valid email address is required').refine((v) => /^[^\s@]+@[^\s@]+$/.test(v), 'Valid email address is required'),
  phone: z.string().trim().min(1, 'Phone number is required').max(20, 'Phone number is too long'),
  address: z.string().trim().max(500, 'Address is too long').optional().default(''),
  password: newPasswordSchema,
  selectedPlan: z.enum(['basic', 'standard', 'premium']).optional(),
});
export type RegistrationInput = z.input<typeof registrationSchema>;

/** The registration form adds a confirmation that never leaves the browser. */
export const registrationFormSchema = registrationSchema
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] });

export const resetPasswordSchema = z.object({
  token: z.string().min(1, 'Reset token is required').max(500),
  newPassword: newPasswordSchema,
});

export const resetPasswordFormSchema = z
  .object({
    newPassword: resetPasswordSchema.shape.newPassword,
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] });



export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required').max(200),
    newPassword: newPasswordSchema,
  })
  .refine((v) => v.currentPassword !== v.newPassword, {
    message: 'New password must be different from current password',
    path: ['newPassword'],
  });

export const changePasswordFormSchema = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required'),
    newPassword: newPasswordSchema,
    confirmPassword: z.string().min(1, 'Please confirm your new password'),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] })
  .refine((v) => v.currentPassword !== v.newPassword, {
    message: 'New password must be different from current password',
    path: ['newPassword'],
  });

export const changeEmailSchema = z.object({
  newEmail: emailField
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
  /** the place of supply of the school's tax invoices (ruling 33); left out: unchanged */
  state: z.enum(STATE_NAMES, { error: 'Choose a state from the list' }).nullable().optional(),
  /** optional GSTIN; an empty field means none; left out: unchanged */
  gstin: z
    .string()
    .trim()
    .toUpperCase()
    .max(15, GSTIN_MESSAGES.format)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional(),
}).superRefine((v, ctx) => {
  if (!v.gstin) return;
  const problem = gstinProblem(v.gstin, v.state);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['gstin'] });
});
export type SchoolInfoInput = z.input<typeof schoolInfoSchema>;
