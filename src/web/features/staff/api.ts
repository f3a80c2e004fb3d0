import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { InvitableRole, StaffRole } from '@/web/app/permissions';
import { api } from '@/web/lib/request';

/** A class (and optionally one section) a teacher teaches; no subjects: every subject of it. */
export interface TeacherAssignment {
  className: string;
  section: string | null;
  subjects: string[];
}

/** A person who signs in to the school, as GET /api/staff sends it (issue 15 item 1). */
export interface StaffMember {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
  /** invited: the link is not accepted yet; inactive: deactivated, cannot sign in */
  status: 'invited' | 'active' | 'inactive';
  /** the registering administrator: never changed or removed */
  isOwner: boolean;
  invitedAt: string | null;
  lastLoginAt: string | null;
  assignments: TeacherAssignment[];
}

export interface StaffList {
  members: StaffMember[];
  /** users counted against the plan: everyone active or invited */
  used: number;
  /** null: unlimited */
  limit: number | null;
  planName: string;
}

export const STAFF_KEY = ['/api/staff'] as const;

export const staffQuery = () => queryOptions({ queryKey: STAFF_KEY, queryFn: () => api.get<StaffList>('/api/staff') });

export function useInviteStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; name: string; role: InvitableRole }) => api.post<StaffMember>('/api/staff', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STAFF_KEY }),
  });
}

export function useUpdateStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: { id: string; role?: InvitableRole; active?: boolean }) => api.put<StaffMember>(`/api/staff/${id}`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STAFF_KEY }),
  });
}

export function useSaveAssignments() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, assignments }: { id: string; assignments: TeacherAssignment[] }) => api.put<StaffMember>(`/api/staff/${id}/assignments`, { assignments }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STAFF_KEY }),
  });
}

export const acceptInvite = (token: string, password: string) =>
  api.post<{ message: string; email?: string }>('/api/staff/accept-invite', { token, password }, { token: null });

/** One row of the school's audit log (ruling 3): who, when, what, from where. */
export interface AuditRow {
  id: string;
  at: string;
  userId: string | null;
  userName: string | null;
  action: string;
  entity: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
}

export interface AuditPage {
  rows: AuditRow[];
  total: number;
  page: number;
  pageSize: number;
  /** the actions present in the school's log, for the filter */
  actions: string[];
}

export interface AuditFilters {
  userId?: string;
  action?: string;
  from?: string;
  to?: string;
  page?: string;
}

export const AUDIT_PATH = '/api/audit-log';

export function auditSearch(filters: AuditFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const auditQuery = (filters: AuditFilters) =>
  queryOptions({ queryKey: [`${AUDIT_PATH}${auditSearch(filters)}`], queryFn: () => api.get<AuditPage>(`${AUDIT_PATH}${auditSearch(filters)}`) });
