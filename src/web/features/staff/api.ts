import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { StaffRole } from '@/web/app/permissions';
import { api } from '@/web/lib/request';

/** A person who signs in to the school, as GET /api/staff sends it (issue 15 item 1). */
export interface StaffMember {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
  /** the registering administrator: never changed or removed */
  isOwner: boolean;
  active: boolean;
  /** invited and not yet set a password */
  pending?: boolean;
  lastLoginAt: string | null;
  /** a teacher's classes ("5-A") and subjects; empty subjects = every subject */
  assignments?: { classes: string[]; subjects: string[] } | null;
}

export type StaffStatus = 'active' | 'invited' | 'deactivated';

export function staffStatus(member: StaffMember): StaffStatus {
  if (!member.active) return 'deactivated';
  return member.pending ? 'invited' : 'active';
}

export const STAFF_KEY = ['/api/staff'] as const;

export const staffQuery = () =>
  queryOptions({
    queryKey: STAFF_KEY,
    // the list may come bare or wrapped with the plan's limit
    queryFn: async () => {
      const answer = await api.get<StaffMember[] | { staff: StaffMember[]; limit?: number | null }>('/api/staff');
      return Array.isArray(answer) ? { staff: answer, limit: null } : { staff: answer.staff, limit: answer.limit ?? null };
    },
  });

export function useInviteStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; name: string; role: StaffRole }) => api.post<StaffMember>('/api/staff', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STAFF_KEY }),
  });
}

export function useUpdateStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: { id: string; role?: StaffRole; active?: boolean; assignments?: { classes: string[]; subjects: string[] } }) =>
      api.put<StaffMember>(`/api/staff/${id}`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STAFF_KEY }),
  });
}

export const acceptInvite = (token: string, password: string) =>
  api.post<{ message: string; email?: string }>('/api/staff/accept-invite', { token, password }, { token: null });

/** One row of the school's audit log (ruling 3): who, when, what, from where. */
export interface AuditEntry {
  id: string;
  at: string;
  userId: string | null;
  userName: string | null;
  action: string;
  summary: string | null;
  ip: string | null;
}

export interface AuditFilters {
  userId?: string;
  action?: string;
  fromDate?: string;
  toDate?: string;
}

export function auditSearch(filters: AuditFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const auditQuery = (filters: AuditFilters) =>
  queryOptions({
    queryKey: [`/api/audit${auditSearch(filters)}`],
    queryFn: async () => {
      const answer = await api.get<AuditEntry[] | { entries: AuditEntry[]; actions?: string[] }>(`/api/audit${auditSearch(filters)}`);
      return Array.isArray(answer) ? { entries: answer, actions: [] as string[] } : { entries: answer.entries, actions: answer.actions ?? [] };
    },
  });
