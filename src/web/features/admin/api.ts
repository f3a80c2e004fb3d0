import { queryOptions } from '@tanstack/react-query';
import type { School } from '@/web/lib/me-api';
import { api, ApiError } from '@/web/lib/request';

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

export type CheckStatus = 'ok' | 'warning' | 'down';

export interface SystemStats {
  totalSchools: number;
  activeSchools: number;
  trialSchools: number;
  expiredTrials: number;
  expiredSchools: number;
  cancelledSchools: number;
  totalUsers: number;
  totalStudents: number;
}

export interface SystemHealth {
  status: CheckStatus;
  checkedAt: string;
  database: { status: CheckStatus; latencyMs: number | null };
  api: { status: CheckStatus; serverErrorsLastHour: number; uptimeSeconds: number };
  authentication: { status: CheckStatus; twoStepSignIn: boolean; lockedCount: number };
  mail: { status: CheckStatus; queued: number; failed: number };
  payments: { status: CheckStatus; mode: 'live' | 'test' | 'sandbox' };
}

export interface SystemChecks {
  status: CheckStatus;
  checkedAt: string;
  database: {
    status: CheckStatus;
    kind: 'pglite' | 'postgres';
    latencyMs: number | null;
    migration: string | null;
    migrationsApplied: number | null;
    migrationsKnown: number;
    error: string | null;
  };
  mail: {
    status: CheckStatus;
    transport: 'smtp' | 'development-outbox';
    queued: number;
    failed: number;
    oldestQueuedAt: string | null;
    lastFailure: { at: string; error: string; to: string; status: string } | null;
  };
  messages: {
    status: CheckStatus;
    provider: 'outbox' | 'gateways' | 'none';
    pending: number;
    failed: number;
    lastFailureAt: string | null;
    lastError: string | null;
  };
  payments: {
    status: CheckStatus;
    provider: 'razorpay' | 'sandbox';
    mode: 'live' | 'test' | 'sandbox';
    webhookSecretSet: boolean;
    lastWebhook: { at: string; event: string | null; outcome: string } | null;
    invalidWebhooksLastDay: number;
  };
  disk: { status: CheckStatus; dataDir: string; freeBytes: number | null; totalBytes: number | null; lastBackupAt: string | null; backups: number };
  process: {
    status: CheckStatus;
    version: string;
    nodeVersion: string;
    environment: string;
    uptimeSeconds: number;
    memory: { rssBytes: number; heapUsedBytes: number; heapTotalBytes: number; systemFreeBytes: number; systemTotalBytes: number };
    serverErrorsLastHour: number;
  };
}

export interface Analytics {
  asOf: string;
  mrr: string;
  arr: string;
  payingSchools: number;
  revenueLast12Months: string;
  trialToPaidPercent: number;
  revenueByMonth: Array<{ month: string; revenue: string; payments: number }>;
  signupsByWeek: Array<{ weekStart: string; signups: number; converted: number; conversionPercent: number }>;
  churnByMonth: Array<{ month: string; payingAtStart: number; churned: number; churnPercent: number }>;
  planMix: Array<{ plan: string; name: string; schools: number; mrr: string }>;
}

export interface Paged<T> {
  total: number;
  page: number;
  pageSize: number;
  items: T[];
}

export interface SignIn {
  id: number;
  at: string;
  email: string;
  success: boolean;
  reason: string | null;
  ip: string | null;
  userAgent: string | null;
  schoolId: string | null;
  schoolName: string | null;
}

export interface LiveSession {
  id: string;
  userId: string;
  email: string;
  username: string;
  role: 'school_admin' | 'master_admin';
  schoolId: string | null;
  schoolName: string | null;
  kind: 'session' | 'remember';
  createdAt: string;
  expiresAt: string;
  ip: string | null;
  userAgent: string | null;
  current: boolean;
}

export interface Lock {
  key: string;
  kind: 'account-ip' | 'account' | 'ip' | 'recovery-email' | 'recovery-ip';
  email: string | null;
  ip: string | null;
  failures: number;
  lockedUntil: string;
}

export interface AuditEntry {
  id: number;
  at: string;
  schoolId: string | null;
  schoolName: string | null;
  userId: string | null;
  userEmail: string | null;
  action: string;
  entity: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
}

export interface SchoolDetail {
  school: School;
  plan: { id: string; name: string; studentLimit: number | null; monthlyPrice: string; yearlyPrice: string } | null;
  usage: { students: number; staff: number; receiptsThisMonth: number; collectedThisMonth: string };
  users: Array<{ id: string; username: string; email: string; createdAt: string; lastLoginAt: string | null; emailConfirmed: boolean }>;
  audit: Array<{ id: number; at: string; action: string; entity: string; entityId: string | null; userEmail: string | null; ip: string | null; after: unknown }>;
}

/** Built by the subscription helper (issue 12 item 1): payments and GST invoices of one school. */
export interface SchoolBilling {
  payments: Array<{ id: string; date: string; amount: string; mode: string; reference: string | null; plan: string; billingCycle: string; status: string }>;
  invoices: Array<{ id: string; number: string; date: string; total: string; pdfUrl: string }>;
}

export interface TotpStatus {
  enabled: boolean;
  enabledAt: string | null;
  pending: boolean;
}

/** Query strings without empty values. */
export function queryString(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, String(v));
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const systemStatsQuery = () =>
  queryOptions({ queryKey: ['/api/stats/system'], queryFn: () => api.get<SystemStats>('/api/stats/system'), refetchInterval: REFRESH_MS });

export const systemHealthQuery = () =>
  queryOptions({ queryKey: ['/api/admin/system-health'], queryFn: () => api.get<SystemHealth>('/api/admin/system-health'), refetchInterval: REFRESH_MS });

export const systemChecksQuery = () =>
  queryOptions({ queryKey: ['/api/admin/system'], queryFn: () => api.get<SystemChecks>('/api/admin/system'), refetchInterval: REFRESH_MS });

export const analyticsQuery = () => queryOptions({ queryKey: ['/api/admin/analytics'], queryFn: () => api.get<Analytics>('/api/admin/analytics') });

export interface SignInFilters {
  email?: string;
  result?: 'success' | 'failure' | '';
  from?: string;
  to?: string;
  page: number;
}
export const signInsQuery = (f: SignInFilters) =>
  queryOptions({
    queryKey: ['/api/admin/security/sign-ins', f],
    queryFn: () => api.get<Paged<SignIn> & { failedLastDay: number }>(`/api/admin/security/sign-ins${queryString({ ...f, pageSize: 25 })}`),
    placeholderData: (previous) => previous,
  });

export const sessionsQuery = () =>
  queryOptions({ queryKey: ['/api/admin/security/sessions'], queryFn: () => api.get<LiveSession[]>('/api/admin/security/sessions'), refetchInterval: REFRESH_MS });

export const locksQuery = () =>
  queryOptions({ queryKey: ['/api/admin/security/locks'], queryFn: () => api.get<Lock[]>('/api/admin/security/locks'), refetchInterval: REFRESH_MS });

export interface AuditFilters {
  schoolId?: string;
  user?: string;
  action?: string;
  from?: string;
  to?: string;
  page: number;
}
export const auditLogQuery = (f: AuditFilters) =>
  queryOptions({
    queryKey: ['/api/admin/audit-log', f],
    queryFn: () => api.get<Paged<AuditEntry>>(`/api/admin/audit-log${queryString({ ...f, pageSize: 25 })}`),
    placeholderData: (previous) => previous,
  });

export const auditActionsQuery = () =>
  queryOptions({ queryKey: ['/api/admin/audit-log/actions'], queryFn: () => api.get<string[]>('/api/admin/audit-log/actions') });

export const schoolDetailQuery = (id: string) =>
  queryOptions({ queryKey: ['/api/admin/schools', id], queryFn: () => api.get<SchoolDetail>(`/api/admin/schools/${encodeURIComponent(id)}`) });

/** Until the subscription helper's endpoint exists, a 404 reads as "nothing recorded". */
export const schoolBillingQuery = (id: string) =>
  queryOptions({
    queryKey: ['/api/admin/schools', id, 'billing'],
    queryFn: async (): Promise<SchoolBilling> => {
      try {
        const data = await api.get<Partial<SchoolBilling>>(`/api/admin/schools/${encodeURIComponent(id)}/billing`);
        return { payments: data.payments ?? [], invoices: data.invoices ?? [] };
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return { payments: [], invoices: [] };
        throw error;
      }
    },
  });

export const totpQuery = () => queryOptions({ queryKey: ['/api/admin/totp'], queryFn: () => api.get<TotpStatus>('/api/admin/totp') });

export const securityApi = {
  revokeSession: (id: string, reason: string) => api.post<{ message: string }>(`/api/admin/security/sessions/${encodeURIComponent(id)}/revoke`, { reason }),
  unlock: (key: string, reason: string) => api.post<{ message: string }>('/api/admin/security/locks/unlock', { key, reason }),
  enrolTotp: () => api.post<{ secret: string; otpauthUrl: string }>('/api/admin/totp/enrol', {}),
  confirmTotp: (code: string) => api.post<TotpStatus>('/api/admin/totp/confirm', { code }),
  disableTotp: (code: string, reason: string) => api.post<TotpStatus>('/api/admin/totp/disable', { code, reason }),
};
