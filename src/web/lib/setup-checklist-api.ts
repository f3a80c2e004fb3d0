import { queryOptions } from '@tanstack/react-query';
import type { SetupStepId } from '@/domain/setup-checklist';
import { unlessJustFetched } from './query-client';
import { api } from './request';

export interface Checklist {
  steps: Array<{ id: SetupStepId; done: boolean }>;
  completed: number;
  total: number;
  allDone: boolean;
}

export const CHECKLIST_KEY = ['/api/setup-checklist'] as const;

/**
 * The dashboard's setup checklist: read anew whenever the dashboard opens (a step may have been
 * done on another page), fetched by the dashboard's route loader and then not again on mount
 * (decision 0044).
 */
export const checklistQuery = () =>
  queryOptions({ queryKey: CHECKLIST_KEY, queryFn: () => api.get<Checklist>('/api/setup-checklist'), staleTime: 0, refetchOnMount: unlessJustFetched });
