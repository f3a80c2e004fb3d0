import { queryOptions } from '@tanstack/react-query';
import type { SetupStepId } from '@/domain/setup-checklist';
import { api } from './request';

export interface Checklist {
  steps: Array<{ id: SetupStepId; done: boolean }>;
  completed: number;
  total: number;
  allDone: boolean;
}

export const CHECKLIST_KEY = ['/api/setup-checklist'] as const;

/**
 * The dashboard's setup checklist (read by the dashboard and fetched ahead by its route loader,
 * decision 0044). Fresh for a few seconds only, so the loader's answer is not asked again on mount
 * while a return to the dashboard reads it anew; any successful change invalidates it anyway.
 */
export const checklistQuery = () => queryOptions({ queryKey: CHECKLIST_KEY, queryFn: () => api.get<Checklist>('/api/setup-checklist'), staleTime: 5_000 });
