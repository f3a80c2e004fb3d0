import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { createSessionSchema } from '@/domain/sessions';
import { api } from '@/web/lib/request';
import { ACTIVE_SESSION_KEY, activeSessionQuery, SESSIONS_KEY, sessionsQuery, type AcademicSession } from '@/web/lib/school-data';

export { activeSessionQuery, sessionsQuery };
export type { AcademicSession };

export type CreateSessionInput = z.input<typeof createSessionSchema>;

/**
 * After a session changes: the lists, and everything that reads the active session (fee
 * structures default to its year; creating one may move students up a class).
 */
function refreshSessions(queryClient: QueryClient) {
  const isStudentKey = (key: unknown) => typeof key === 'string' && key.startsWith('/api/students');
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
    queryClient.invalidateQueries({ queryKey: ACTIVE_SESSION_KEY }),
    queryClient.invalidateQueries({ predicate: (q) => isStudentKey(q.queryKey[0]) }),
  ]);
}

/** After a start or its undo every screen's figures change: students, balances, passouts, stats. */
function refreshEverything(queryClient: QueryClient) {
  return queryClient.invalidateQueries();
}

export interface StartPreview {
  from: { id: string; sessionName: string };
  to: { id: string; sessionName: string };
  opensOn: string;
  open: boolean;
  throughMonth: string;
  totals: { students: number; promoted: number; graduating: number; withBalance: number; carried: string };
  classes: Array<{ fromClass: string; toClass: string | null; students: number; carried: string }>;
  students: Array<{ id: string; name: string; fromClass: string; section: string; rollNumber: number; toClass: string | null; carriedMonthly: string; carriedYearly: string; carried: string }>;
}

export const startPreviewQuery = (id: string) =>
  queryOptions({ queryKey: ['/api/academic-sessions', id, 'start-preview'], queryFn: () => api.get<StartPreview>(`/api/academic-sessions/${id}/start-preview`), staleTime: 0 });

export function useStartSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, early }: { id: string; early: boolean }) => api.post<{ message: string; session: AcademicSession }>(`/api/academic-sessions/${id}/start`, { early }),
    onSuccess: () => refreshEverything(queryClient),
  });
}

export function useUndoStart() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<{ message: string; session: AcademicSession }>(`/api/academic-sessions/${id}/undo-start`, {}),
    onSuccess: () => refreshEverything(queryClient),
  });
}

export function useCreateSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateSessionInput) => api.post<AcademicSession>('/api/academic-sessions', input),
    onSuccess: () => refreshSessions(queryClient),
  });
}

export function useActivateSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.put<AcademicSession>(`/api/academic-sessions/${id}/activate`, {}),
    onSuccess: () => refreshSessions(queryClient),
  });
}
