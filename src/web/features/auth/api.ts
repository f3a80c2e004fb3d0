import type { LoginInput, RegistrationInput } from '@/domain/auth';
import type { SessionAnswer, User } from '@/web/lib/me-api';
import { api } from '@/web/lib/request';

export { ME_KEY, meQuery, type Me, type School, type SessionAnswer, type User } from '@/web/lib/me-api';

export const authApi = {
  login: (input: LoginInput) => api.post<SessionAnswer>('/api/auth/login', input),
  adminLogin: (input: LoginInput & { code?: string }) => api.post<SessionAnswer>('/api/auth/admin-login', input, { token: null }),
  rememberLogin: (rememberToken: string) => api.post<SessionAnswer>('/api/auth/remember-login', { rememberToken }, { token: null }),
  logout: (rememberToken: string | null) => api.post<{ message: string }>('/api/auth/logout', rememberToken ? { rememberToken } : {}),
  register: (input: RegistrationInput) => api.post<{ message: string }>('/api/school-registration', input),
  confirmEmail: (token: string) => api.post<{ message: string; trialEndsAt: string | null }>('/api/auth/confirm-email', { token }),
  confirmEmailChange: (token: string) => api.post<{ message: string; email: string }>('/api/auth/confirm-email-change', { token }, { token: null }),
  resendConfirmation: (email: string) => api.post<{ message: string }>('/api/auth/resend-confirmation', { email }),
  forgotPassword: (email: string) => api.post<{ message: string; resetToken?: string; resetUrl?: string }>('/api/auth/forgot-password', { email }),
  resetPassword: (token: string, newPassword: string) => api.post<{ message: string }>('/api/auth/reset-password', { token, newPassword }),
  completeOnboarding: () => api.post<{ user: User }>('/api/auth/complete-onboarding', {}),
};

