import { queryOptions } from '@tanstack/react-query';
import type { FineSummaryDto } from '@/domain/fines';
import { api } from './request';

/**
 * A student's late fine today (issue 16): shared because Fee Status and Record Fee Payment both
 * show it, and they must show the same figure. Keyed by its path under /api/students, so a payment
 * (refreshLedger) loads it again.
 */
export type StudentFine = FineSummaryDto;

export const finePath = (studentId: string, academicYear?: string) =>
  `/api/students/${encodeURIComponent(studentId)}/late-fine${academicYear ? `?${new URLSearchParams({ academicYear })}` : ''}`;

export const fineQuery = (studentId: string, academicYear?: string) =>
  queryOptions({ queryKey: [finePath(studentId, academicYear)], queryFn: () => api.get<StudentFine>(finePath(studentId, academicYear)), staleTime: 0 });
