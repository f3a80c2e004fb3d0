import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/web/lib/request';

/** Whole-school data export (ruling 25): start, poll, download (docs/decisions/0036). */
export interface DataExport {
  id: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  downloadUrl: string | null;
  createdAt: string;
  finishedAt: string | null;
  expiresAt: string;
  sizeBytes: number | null;
  error: string | null;
}

export const EXPORTS_KEY = ['/api/exports'] as const;

const inProgress = (e: DataExport | undefined) => e?.status === 'queued' || e?.status === 'running';

/** The latest exports; polled every second while the newest is still being made. */
export const exportsQuery = () =>
  queryOptions({
    queryKey: EXPORTS_KEY,
    queryFn: () => api.get<{ exports: DataExport[] }>('/api/exports'),
    refetchInterval: (query) => (inProgress(query.state.data?.exports[0]) ? 1000 : false),
    staleTime: 0,
  });

export function useExports() {
  return useQuery(exportsQuery());
}

export function useStartExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ id: string; status: DataExport['status'] }>('/api/exports'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: EXPORTS_KEY }),
  });
}

export { inProgress };
