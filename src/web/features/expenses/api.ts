import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AddExpenseInput, ExpenseCategory, ExpenseInput } from '@/domain/expenses';
import { api } from '@/web/lib/request';

/** An expense as the API sends it: the amount is rupees with two places ("1500.00"). */
export interface Expense {
  id: string;
  category: ExpenseCategory;
  description: string;
  amount: string;
  date: string;
  createdAt: string;
  updatedAt: string;
}

export const EXPENSES_KEY = ['/api/expenses'] as const;

export const expensesQuery = () => queryOptions({ queryKey: EXPENSES_KEY, queryFn: () => api.get<Expense[]>('/api/expenses') });

/** Expenses feed the stat cards, charts and reports, so those refresh with the list. */
function refreshAfterExpenseChange(queryClient: QueryClient) {
  return queryClient.invalidateQueries({
    predicate: (q) => {
      const key = q.queryKey[0];
      return typeof key === 'string' && (key.startsWith('/api/expenses') || key.startsWith('/api/stats') || key.startsWith('/api/reports'));
    },
  });
}

/** An add carries the dialog's clientId (ruling 5): the server adds it once, so the helper may retry it. */
export function useCreateExpense() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddExpenseInput) => api.post<Expense>('/api/expenses', input, { idempotent: true }),
    onSuccess: () => refreshAfterExpenseChange(queryClient),
  });
}

export function useUpdateExpense() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: ExpenseInput }) => api.put<Expense>(`/api/expenses/${id}`, input),
    onSuccess: () => refreshAfterExpenseChange(queryClient),
  });
}

export function useDeleteExpense() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ message: string }>(`/api/expenses/${id}`),
    onSuccess: () => refreshAfterExpenseChange(queryClient),
  });
}
