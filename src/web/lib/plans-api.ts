import { queryOptions } from '@tanstack/react-query';
import { api } from './request';

export interface Plan {
  id: 'basic' | 'standard' | 'premium';
  name: string;
  monthlyPrice: string;
  yearlyPrice: string;
  studentLimit: number | 'unlimited';
  features: string[];
  recommended: boolean;
}

/** The plan catalogue (ruling 11): every screen that shows a price reads it from here. */
export const plansQuery = () => queryOptions({ queryKey: ['/api/plans'], queryFn: () => api.get<Plan[]>('/api/plans', { token: null }), staleTime: 10 * 60_000 });

/**
 * Where a school chooses and pays for a plan. It names no school: the signed-in session says which
 * school pays (ruling 29); the route still accepts the platform document's optional :schoolId.
 */
export const SUBSCRIPTION_PATH = '/subscription-required';

export const studentLimitText = (limit: Plan['studentLimit']) => (limit === 'unlimited' ? 'Unlimited students' : `Up to ${limit} students`);

export interface TrialStatus {
  status: 'trial' | 'active' | 'expired' | 'cancelled';
  isExpired: boolean;
  daysRemaining: number | null;
  trialEndsAt: string | null;
}

/** The trial countdown (issue 12): GET /api/trial-status, refreshed every 5 minutes while shown. */
export const trialStatusQuery = () =>
  queryOptions({ queryKey: ['/api/trial-status'], queryFn: () => api.get<TrialStatus>('/api/trial-status'), refetchInterval: 5 * 60_000 });
