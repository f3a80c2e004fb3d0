import { queryOptions } from '@tanstack/react-query';
import type { LoginInput, RegistrationInput } from '@/domain/auth';
import { api } from '@/web/lib/request';

export interface User {
  id: string;
  email: string;
  username: string;
  role: 'school_admin' | 'master_admin';
  schoolId: string | null;
  hasSeenOnboarding: boolean;
  isFirstLogin: boolean;
  createdAt: string;
  lastLoginAt: string | null;
}

export interface School {
  id: string;
  name: string;
  email: string;
  phone: string;
  address: string;
  schoolCode: string | null;
  subscriptionPlan: string;
  subscriptionStatus: 'trial' | 'active' | 'expired' | 'cancelled';
  trialEndsAt: string | null;
  planStartDate: string | null;
  planEndDate: string | null;
  createdAt: string;
  trialStatus: { isExpired: boolean; daysRemaining: number | null };
  isExpired: boolean;
  daysRemaining: number | null;
}

export interface Me {
  user: User;
  school: School | null;
}

export interface SessionAnswer extends Me {
  success: true;
  token: string;
  rememberToken?: string;
}

export const ME_KEY = ['/api/auth/me'] as const;
export const meQuery = () => queryOptions({ queryKey: ME_KEY, queryFn: () => api.get<Me>('/api/auth/me'), staleTime: 5 * 60_000 });

export const authApi = {
  login: (input: LoginInput) => api.post<SessionAnswer>('/api/auth/login', input),
  adminLogin: (input: LoginInput) => api.post<SessionAnswer>('/api/auth/admin-login', input),
  rememberLogin: (rememberToken: string) => api.post<SessionAnswer>('/api/auth/remember-login', { rememberToken }, { token: null }),
  logout: (rememberToken: string | null) => api.post<{ message: string }>('/api/auth/logout', rememberToken ? { rememberToken } : {}),
  register: (input: RegistrationInput) => api.post<{ message: string }>('/api/school-registration', input),
  confirmEmail: (token: string) => api.post<{ message: string; trialEndsAt: string | null }>('/api/auth/confirm-email', { token }),
  resendConfirmation: (email: string) => api.post<{ message: string }>('/api/auth/resend-confirmation', { email }),
  forgotPassword: (email: string) => api.post<{ message: string; resetToken?: string; resetUrl?: string }>('/api/auth/forgot-password', { email }),
  resetPassword: (token: string, newPassword: string) => api.post<{ message: string }>('/api/auth/reset-password', { token, newPassword }),
  completeOnboarding: () => api.post<{ user: User }>('/api/auth/complete-onboarding', {}),
  quickLogin: (schoolId: string) =>
    api.post<{ token: string; expiresAt: string; schoolId: string; schoolName: string }>('/api/auth/quick-login', { schoolId }, { token: null }),
};

