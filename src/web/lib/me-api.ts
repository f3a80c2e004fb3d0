import type { Board } from '@/domain/boards';
import { queryOptions } from '@tanstack/react-query';
import { api } from './request';

/** Who is signed in: the session call every screen shares (platform §3, §7 GET /api/auth/me). */

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
  /** the person's role in the school (ruling 32); absent on an older server: the owner */
  schoolRole?: 'owner' | 'administrator' | 'accountant' | 'clerk' | 'teacher' | null;
  /** the name receipts print as "Received by" */
  name?: string | null;
}

export interface School {
  id: string;
  name: string;
  email: string;
  phone: string;
  address: string;
  schoolCode: string | null;
  /** the examination board: decides the subjects a class starts with in Results */
  board: Board;
  subscriptionPlan: string;
  subscriptionStatus: 'trial' | 'active' | 'expired' | 'cancelled';
  trialEndsAt: string | null;
  planStartDate: string | null;
  planEndDate: string | null;
  createdAt: string;
  trialStatus: { isExpired: boolean; daysRemaining: number | null };
  isExpired: boolean;
  daysRemaining: number | null;
  /** once true, the first-subscription discount no longer applies */
  hasPaidSubscription: boolean;
  /** a lower plan already paid for, starting when the current one ends (ruling 28) */
  queuedPlan: { plan: string; startDate: string; endDate: string } | null;
  /** the place of supply of its tax invoices and its GSTIN (ruling 33) */
  state: string | null;
  gstin: string | null;
  /** deactivated by the master administrator */
  deactivated: boolean;
}

export interface Me {
  user: User;
  school: School | null;
  /** the school role, when the server sends it beside the user rather than on it */
  schoolRole?: User['schoolRole'];
}

export interface SessionAnswer extends Me {
  success: true;
  token: string;
  rememberToken?: string;
  /** the school's trial or plan has ended: the session reads, exports and pays; writes answer 402 (ruling 14) */
  requiresPayment?: true;
  schoolId?: string;
}

export const ME_KEY = ['/api/auth/me'] as const;
export const meQuery = () => queryOptions({ queryKey: ME_KEY, queryFn: () => api.get<Me>('/api/auth/me'), staleTime: 5 * 60_000 });
