import { queryOptions } from '@tanstack/react-query';
import { api, ApiError } from './request';

/**
 * Reads that several school screens share: the dashboard's tab guards, the students lookup, the fee
 * structure page and (later) the fee screens all ask for these. The query keys are the API paths,
 * so a mutation in one feature refreshes every screen that shows the same data.
 */

export interface ClassSummaryRow {
  class: string;
  section: string;
  count: number;
}

/** Wire amounts are rupee strings with two places ("1500.00"). */
export interface FeeStructure {
  id: string;
  className: string;
  academicYear: string;
  monthlyTuitionFee: string;
  yearlyFee: string;
  examFee: string;
  booksFee: string;
  uniformFee: string;
  miscFee: string;
  totalYearlyFees: string;
  createdAt: string;
  updatedAt: string;
}

export interface AcademicSession {
  id: string;
  sessionName: string;
  academicYear: string;
  startDate: string;
  endDate: string;
  isActive: boolean;
  isPromotionCompleted: boolean;
  createdAt: string;
  /** in the session list: its start can still be undone (no receipt since) */
  canUndoStart?: boolean;
}

export const CLASS_SUMMARY_KEY = ['/api/students/class-summary'] as const;
export const FEE_STRUCTURES_KEY = ['/api/class-fee-structures'] as const;
export const SESSIONS_KEY = ['/api/academic-sessions'] as const;
export const ACTIVE_SESSION_KEY = ['/api/academic-sessions/active'] as const;

/** Students per class and section: one small row per group, never the student list itself. */
/** Active students per class and section; with an academic year, where they sat in that session. */
export const classSummaryQuery = (academicYear?: string) =>
  queryOptions({
    queryKey: academicYear ? [...CLASS_SUMMARY_KEY, { academicYear }] : CLASS_SUMMARY_KEY,
    queryFn: () => api.get<ClassSummaryRow[]>(`/api/students/class-summary${academicYear ? `?${new URLSearchParams({ academicYear })}` : ''}`),
  });

/** A row of a roll-number picker: the roster sends only what it shows. */
export interface RosterEntry {
  id: string;
  name: string;
  rollNumber: number;
}

/**
 * Students of one class and section as a roll-number picker shows them (the roster route, decisions
 * 0042, 0083 and 0096): the Student Database and the fee screens; for an earlier academic year, the
 * students who sat in that class then. Its key starts with /api/students, so every change to
 * students refreshes it.
 */
export const rosterQuery = (className: string, section: string, academicYear?: string) => {
  const filter = { class: className, section, ...(academicYear ? { academicYear } : {}) };
  return queryOptions({
    queryKey: ['/api/students/roster', filter] as const,
    queryFn: ({ signal }) => api.get<RosterEntry[]>(`/api/students/roster?${new URLSearchParams(filter)}`, { signal }),
  });
};

export const feeStructuresQuery = () =>
  queryOptions({ queryKey: FEE_STRUCTURES_KEY, queryFn: () => api.get<FeeStructure[]>('/api/class-fee-structures') });

export const sessionsQuery = () => queryOptions({ queryKey: SESSIONS_KEY, queryFn: () => api.get<AcademicSession[]>('/api/academic-sessions') });

/** The active session, or null when the school has none yet (a 404 is not an error here). */
export const activeSessionQuery = () =>
  queryOptions({
    queryKey: ACTIVE_SESSION_KEY,
    queryFn: async () => {
      try {
        return await api.get<AcademicSession | null>('/api/academic-sessions/active');
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
