import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
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
