import { useQuery } from '@tanstack/react-query';
import { NO_FEE_STRUCTURE_FOUND, NO_STUDENTS_FOUND, type GuardMessage } from '@/web/components/guard-alert';
import { classSummaryQuery, feeStructuresQuery } from '@/web/lib/school-data';
import type { DashboardTab } from './tabs';

export interface GuardState {
  /** false while the counts the guards need are loading */
  ready: boolean;
  refusal(tab: DashboardTab): GuardMessage | null;
}

/**
 * The tab guards of operations §2: fee screens and reports need students, and the fee screens and
 * reports also need a class fee structure. Reads the small class summary, never the student list.
 * If a count cannot be loaded the tab opens anyway and shows its own error, rather than a spinner
 * that never ends.
 */
export function useTabGuard(): GuardState {
  const summary = useQuery(classSummaryQuery());
  const structures = useQuery(feeStructuresQuery());
  const ready = !summary.isPending && !structures.isPending;
  const hasStudents = summary.data ? summary.data.some((row) => row.count > 0) : true;
  const hasStructures = structures.data ? structures.data.length > 0 : true;
  return { ready, refusal: (tab) => refusalFor(tab, { hasStudents, hasStructures }) };
}

/** Why a tab cannot open yet, or null; students are checked first, as the documents order them. */
export function refusalFor(tab: Pick<DashboardTab, 'requires'>, have: { hasStudents: boolean; hasStructures: boolean }): GuardMessage | null {
  const needs = tab.requires ?? [];
  if (needs.includes('students') && !have.hasStudents) return NO_STUDENTS_FOUND;
  if (needs.includes('fee-structures') && !have.hasStructures) return NO_FEE_STRUCTURE_FOUND;
  return null;
}
