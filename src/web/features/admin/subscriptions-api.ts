import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { School } from '@/web/lib/me-api';
import { api } from '@/web/lib/request';

/** Platform §7: the subscription list refreshes every 30 s, only while its tab is open. */
export const SUBSCRIPTIONS_KEY = ['/api/admin/schools/subscriptions'] as const;
export const subscriptionsQuery = () =>
  queryOptions({ queryKey: SUBSCRIPTIONS_KEY, queryFn: () => api.get<School[]>('/api/admin/schools/subscriptions'), refetchInterval: 30_000 });

export interface CatalogueEntry {
  id: string;
  name: string;
  monthlyPrice: string;
  yearlyPrice: string;
  studentLimit: number | null;
  features: string[];
  recommended: boolean;
  firstTimeDiscountPercent: number;
  updatedAt: string;
  history: Array<{ changedAt: string; changedBy: string | null; reason: string; before: Record<string, unknown>; after: Record<string, unknown> }>;
}

export const PLANS_KEY = ['/api/admin/plans'] as const;
export const catalogueQuery = () => queryOptions({ queryKey: PLANS_KEY, queryFn: () => api.get<CatalogueEntry[]>('/api/admin/plans') });

type Answer = { message: string; school: School };

const path = (id: string, action: string) => `/api/admin/schools/${id}/${action}`;

/** The master's writes (platform §7 and issue 12); each refreshes the school and subscription lists. */
export const subscriptionActions = {
  setPlan: (id: string, body: { plan: string; status: string; startDate?: string; endDate?: string; reason: string }) => api.put<Answer>(path(id, 'plan'), body),
  edit: (id: string, body: { schoolId: string; subscriptionPlan: string; subscriptionStatus: string; planStartDate: string | null; planEndDate: string | null; reason: string }) =>
    api.put<Answer>(path(id, 'subscription'), body),
  cancel: (id: string, body: { endAccessNow: boolean; reason: string }) => api.post<Answer>(path(id, 'cancel'), body),
  // these three carry the dialog's clientId (ruling 5): the server applies each once, so the helper may retry them
  extend: (id: string, body: { days: number; reason: string; clientId: string }) => api.post<Answer>(path(id, 'extend'), body, { idempotent: true }),
  changePlan: (id: string, body: { newPlan: string; isMonthly: boolean; reason: string; clientId: string }) =>
    api.post<Answer>(path(id, 'change-plan'), body, { idempotent: true }),
  offlinePayment: (
    id: string,
    body: { plan: string; billingCycle: 'monthly' | 'yearly'; amount: string; mode: string; reference: string; date: string; reason: string; clientId: string },
  ) => api.post<Answer & { invoice: { id: string; number: string } }>(path(id, 'offline-payment'), body, { idempotent: true }),
  deactivate: (id: string, body: { reason: string }) => api.post<Answer>(path(id, 'deactivate'), body),
  reactivate: (id: string, body: { reason: string }) => api.post<Answer>(path(id, 'reactivate'), body),
};

export function useSubscriptionAction<A extends unknown[], R>(fn: (...args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation<R, Error, A>({
    mutationFn: (args: A) => fn(...args),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: SUBSCRIPTIONS_KEY }),
        queryClient.invalidateQueries({ queryKey: ['/api/admin/schools'] }),
      ]),
  });
}

export function useSavePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; name: string; monthlyPrice: string; yearlyPrice: string; studentLimit: number | null; features: string[]; firstTimeDiscountPercent: number; reason: string }) =>
      api.put<{ message: string }>(`/api/admin/plans/${id}`, body),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: PLANS_KEY }), queryClient.invalidateQueries({ queryKey: ['/api/plans'] })]),
  });
}
