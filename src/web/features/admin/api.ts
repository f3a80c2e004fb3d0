import { queryOptions } from '@tanstack/react-query';
import type { School } from '@/web/lib/me-api';
import { api } from '@/web/lib/request';

export interface AdminUser {
  id: string;
  username: string;
  email: string;
  role: 'school_admin' | 'master_admin';
  schoolId: string | null;
  schoolName: string | null;
  createdAt: string;
  lastLoginAt: string | null;
}

/** Platform §7: the master lists refresh every 30 s. */
const REFRESH_MS = 30_000;

export const adminSchoolsQuery = () =>
  queryOptions({ queryKey: ['/api/admin/schools'], queryFn: () => api.get<School[]>('/api/admin/schools'), refetchInterval: REFRESH_MS });

export const adminUsersQuery = () =>
  queryOptions({ queryKey: ['/api/admin/users'], queryFn: () => api.get<AdminUser[]>('/api/admin/users'), refetchInterval: REFRESH_MS });
