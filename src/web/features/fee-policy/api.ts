import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { CONCESSION_HEADS, type ConcessionDto, type ConcessionHead, type ConcessionStatus, type ConcessionTypeDto } from '@/domain/concessions';
import type { LateFineRuleDto } from '@/domain/fines';
import type { instalmentDto, instalmentPlanDto, PlanKind } from '@/domain/instalments';
import type { tallyMappingDto } from '@/domain/tally';
import { fineQuery, type StudentFine } from '@/web/lib/fine-api';
import { refreshLedger } from '@/web/lib/ledger-api';
import { api, ApiError } from '@/web/lib/request';

/**
 * Wire shapes of the fee policy API (issue 16, docs/api/fee-policy.md); amounts are rupee strings,
 * months are "YYYY-MM", dates "YYYY-MM-DD".
 */

export type { ConcessionKind, ConcessionStatus } from '@/domain/concessions';
export type { FineMode } from '@/domain/fines';
export type { PlanKind } from '@/domain/instalments';

/** The heads a concession or a fine can apply to: the class structure's heads and the bus fee. */
export const POLICY_HEADS = CONCESSION_HEADS;
export type PolicyHead = ConcessionHead;
export type ConcessionType = ConcessionTypeDto;
export type Concession = ConcessionDto;
export type LateFineRule = LateFineRuleDto;

export type { StudentFine } from '@/web/lib/fine-api';
export type FineLine = StudentFine['lines'][number];

export interface Waiver {
  id: string;
  studentId: string;
  studentName: string;
  /** the month ("2026-04") or instalment whose fine is waived */
  instalment: string;
  status: ConcessionStatus;
  statusLabel: string;
  reason: string;
  decisionReason: string | null;
  /** fixed when approved */
  amount: string | null;
  academicYear: string;
  requestedBy: string | null;
  requestedAt: string;
  decidedBy: string | null;
  decidedAt: string | null;
}

/** The filters of GET /api/fine-waivers: the server filters, the screens only ask. */
export interface WaiverFilter {
  status?: 'requested' | 'approved' | 'rejected';
  requestedBy?: string;
  studentId?: string;
  academicYear?: string;
}

export type Instalment = z.infer<typeof instalmentDto>;
export type InstalmentPlan = z.infer<typeof instalmentPlanDto>;
/** Our heads, modes and expense categories → the school's Tally ledger names. */
export type TallyMapping = z.infer<typeof tallyMappingDto>;

const enc = encodeURIComponent;
const qs = (params: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => Boolean(e[1]))).toString();

export const policyApi = {
  types: () => api.get<ConcessionType[]>('/api/concession-types'),
  addType: (body: Pick<ConcessionType, 'name' | 'kind' | 'value' | 'heads'>) => api.post<ConcessionType>('/api/concession-types', body),
  concessions: (filter: { status?: ConcessionStatus; studentId?: string; academicYear?: string }) =>
    api.get<Concession[]>(`/api/concessions?${qs(filter)}`),
  request: (body: { studentId: string; typeId: string; academicYear: string; fromMonth: string; toMonth?: string | null; reason: string }) =>
    api.post<Concession>('/api/concessions', body),
  approve: (id: string, reason?: string) => api.post<Concession>(`/api/concessions/${enc(id)}/approve`, { reason }),
  reject: (id: string, reason: string) => api.post<Concession>(`/api/concessions/${enc(id)}/reject`, { reason }),
  fineRule: () => api.get<LateFineRule>('/api/fee-rules/late-fine'),
  saveFineRule: (body: LateFineRule) => api.put<LateFineRule>('/api/fee-rules/late-fine', body),
  requestWaiver: (body: { studentId: string; academicYear: string; instalment: string; reason: string }) => api.post<Waiver>('/api/fine-waivers', body),
  waivers: (filter: WaiverFilter = {}) => api.get<Waiver[]>(`/api/fine-waivers?${qs({ ...filter })}`),
  approveWaiver: (id: string) => api.post<Waiver>(`/api/fine-waivers/${enc(id)}/approve`, {}),
  rejectWaiver: (id: string, reason: string) => api.post<Waiver>(`/api/fine-waivers/${enc(id)}/reject`, { reason }),
  instalments: (studentId: string, academicYear: string) =>
    api.get<{ plan: PlanKind; academicYear: string; instalments: Instalment[] }>(`/api/students/${enc(studentId)}/instalments?${qs({ academicYear })}`),
  plans: () => api.get<{ plans: InstalmentPlan[] }>('/api/instalment-plans'),
  savePlan: ({ scope, ...body }: InstalmentPlan) => api.put<InstalmentPlan>(`/api/instalment-plans/${enc(scope)}`, body),
  tallyMapping: () => api.get<TallyMapping>('/api/exports/tally/mapping'),
  saveTallyMapping: (mapping: Partial<TallyMapping>) => api.put<TallyMapping>('/api/exports/tally/mapping', mapping),
};

/** Which concessions the register lists (the server's `status` filter; approved by default). */
export const REGISTER_STATUSES = ['approved', 'requested', 'rejected', 'all'] as const;
export type RegisterStatus = (typeof REGISTER_STATUSES)[number];

export const paths = {
  tally: (fromDate: string, toDate: string) => `/api/exports/tally?${qs({ fromDate, toDate })}`,
  journal: (fromDate: string, toDate: string) => `/api/exports/journal.csv?${qs({ fromDate, toDate })}`,
  statement: (studentId: string, academicYear: string) => `/api/students/${enc(studentId)}/statement.pdf?${qs({ academicYear })}`,
  classStatements: (className: string, section: string | undefined, academicYear: string) =>
    `/api/statements.pdf?${qs({ className, section, academicYear })}`,
  outstandingByClass: (academicYear: string) => `/api/reports/outstanding-by-class.pdf?${qs({ academicYear })}`,
  concessionRegister: (academicYear: string, ext: 'pdf' | 'csv', status?: RegisterStatus) =>
    `/api/reports/concession-register.${ext}?${qs({ academicYear, status })}`,
};

export const typesQuery = queryOptions({ queryKey: ['concession-types'], queryFn: policyApi.types });
export const fineRuleQuery = queryOptions({ queryKey: ['late-fine-rule'], queryFn: policyApi.fineRule });
export const tallyMappingQuery = queryOptions({ queryKey: ['tally-ledgers'], queryFn: policyApi.tallyMapping });
export const plansQuery = queryOptions({
  queryKey: ['instalment-plans'],
  // no plan saved yet may answer 404: every class then collects monthly, as before plans existed
  queryFn: () => policyApi.plans().catch((error: unknown) => (error instanceof ApiError && error.status === 404 ? { plans: [] } : Promise.reject(error))),
});
export const queueQuery = queryOptions({
  queryKey: ['policy-queue'],
  queryFn: async () => {
    // a user who may not decide waivers (or a server without them) still sees the concessions
    const [concessions, waivers] = await Promise.all([policyApi.concessions({ status: 'requested' }), policyApi.waivers({ status: 'requested' }).catch(() => [] as Waiver[])]);
    return { concessions, waivers };
  },
});
export const studentConcessionsQuery = (studentId: string, academicYear: string) =>
  queryOptions({ queryKey: ['concessions', studentId, academicYear], queryFn: () => policyApi.concessions({ studentId, academicYear }) });
export const studentFineQuery = fineQuery;
export const studentWaiversQuery = (studentId: string) =>
  queryOptions({ queryKey: ['fine-waivers', studentId], queryFn: () => policyApi.waivers({ studentId }) });
export const instalmentsQuery = (studentId: string, academicYear: string) =>
  // keyed by its path: a payment (refreshLedger) or a plan saved loads the paid and outstanding again
  queryOptions({ queryKey: [`/api/students/${enc(studentId)}/instalments?${qs({ academicYear })}`], queryFn: () => policyApi.instalments(studentId, academicYear), retry: false });

/** A decision changes what is due: every ledger figure and the policy lists load again. */
export function useRefreshPolicy() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['policy-queue'] }),
      queryClient.invalidateQueries({ queryKey: ['concessions'] }),
      queryClient.invalidateQueries({ queryKey: ['fine-waivers'] }),
      refreshLedger(queryClient),
    ]);
  };
}

export function useAddType() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: policyApi.addType, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['concession-types'] }) });
}

export function useSaveFineRule() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: policyApi.saveFineRule, onSuccess: (data) => queryClient.setQueryData(fineRuleQuery.queryKey, data) });
}

export function useSaveTallyMapping() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: policyApi.saveTallyMapping, onSuccess: (data) => queryClient.setQueryData(tallyMappingQuery.queryKey, data) });
}

export function useSavePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: policyApi.savePlan,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['instalment-plans'] });
      await refreshLedger(queryClient);
    },
  });
}
