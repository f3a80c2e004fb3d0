import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { InvitableRole } from '@/domain/permissions';
import type { AuditPage, InviteStaffInput, StaffList, StaffMember, TeacherAssignment } from '@/domain/staff';
import { api } from '@/web/lib/request';

/** Staff accounts and the audit log on the wire (issue 15 items 1 and 3): the shapes of src/domain/staff.ts. */
export type { AuditPage, StaffList, StaffMember, TeacherAssignment };
export type AuditRow = AuditPage['rows'][number];

export const STAFF_KEY = ['/api/staff'] as const;

export const staffQuery = () => queryOptions({ queryKey: STAFF_KEY, queryFn: () => api.get<StaffList>('/api/staff') });

export function useInviteStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: InviteStaffInput) => api.post<StaffMember>('/api/staff', input),
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

export function useResendInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<{ message: string }>(`/api/staff/${id}/resend-invite`, {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STAFF_KEY }),
  });
}

export const acceptInvite = (token: string, password: string) =>
  api.post<{ message: string; email?: string }>('/api/staff/accept-invite', { token, password }, { token: null });

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
