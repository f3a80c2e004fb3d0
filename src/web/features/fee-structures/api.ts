import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { BulkAdjustInput, FeeStructureInput } from '@/domain/fee-structures';
import { api } from '@/web/lib/request';
import { activeSessionQuery, FEE_STRUCTURES_KEY, feeStructuresQuery, type FeeStructure } from '@/web/lib/school-data';

export { activeSessionQuery, feeStructuresQuery };
export type { FeeStructure };

/** Class fees show on student records and drive the tab guards, so both refresh with the list. */
function refreshFeeStructures(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: FEE_STRUCTURES_KEY }),
    queryClient.invalidateQueries({ predicate: (q) => typeof q.queryKey[0] === 'string' && q.queryKey[0].startsWith('/api/students') }),
  ]);
}

export function useCreateFeeStructure() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: FeeStructureInput) => api.post<FeeStructure>('/api/class-fee-structures', input),
    onSuccess: () => refreshFeeStructures(queryClient),
  });
}

export function useUpdateFeeStructure() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: FeeStructureInput }) => api.put<FeeStructure>(`/api/class-fee-structures/${id}`, input),
    onSuccess: () => refreshFeeStructures(queryClient),
  });
}

export function useBulkAdjustFees() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BulkAdjustInput) => api.put<{ updated: number; structures: FeeStructure[] }>('/api/class-fee-structures/bulk-adjust', input),
    onSuccess: () => refreshFeeStructures(queryClient),
  });
}
