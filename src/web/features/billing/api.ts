import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ME_KEY, type School } from '@/web/lib/me-api';
import { api } from '@/web/lib/request';

export interface BillingPayment {
  id: string;
  date: string;
  amount: string;
  mode: 'online' | 'cheque' | 'neft' | 'upi';
  reference: string | null;
  plan: string;
  billingCycle: 'monthly' | 'yearly';
  status: 'paid' | 'refused';
}

export interface BillingInvoice {
  id: string;
  number: string;
  date: string;
  total: string;
  pdfUrl: string;
}

export interface Billing {
  plan: string;
  planName: string;
  status: 'trial' | 'active' | 'expired' | 'cancelled';
  isExpired: boolean;
  validFrom: string | null;
  validUntil: string | null;
  daysRemaining: number | null;
  queuedPlan: { plan: string; planName: string; startDate: string; endDate: string } | null;
  taxDetails: { state: string | null; gstin: string | null };
  payments: BillingPayment[];
  invoices: BillingInvoice[];
}

export const BILLING_KEY = ['/api/billing'] as const;

export const billingQuery = () => queryOptions({ queryKey: BILLING_KEY, queryFn: () => api.get<Billing>('/api/billing') });

export function useCancelPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ message: string; school: School }>('/api/billing/cancel', {}),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: BILLING_KEY }), queryClient.invalidateQueries({ queryKey: ME_KEY })]),
  });
}
