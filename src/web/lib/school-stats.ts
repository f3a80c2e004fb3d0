import { queryOptions } from '@tanstack/react-query';
import { unlessJustFetched } from './query-client';
import { api } from './request';

/**
 * School stats (operations §3, GET /api/stats/school): the Students tab cards and the Reports tab's
 * Quick Financial Summary both read them, so the query lives here. Amounts are rupee strings.
 */
export interface SchoolStats {
  totalStudents: number;
  monthlyRevenue: string;
  totalRevenue: string;
  paidStudents: number;
  lastMonth: string;
  lastMonthLabel: string;
  pendingFees: string;
  pendingStudents: number;
  previousBalancePending: string;
  expectedMonthlyIncome: string;
  yearlyFeesPotential: string;
  currentSessionBusRevenue: string;
  currentMonth: string;
  currentMonthLabel: string;
  currentMonthCollected: string;
  collectionProgress: number;
  thisMonthIncome: string;
  totalExpenses: string;
  expensesByCategory: Record<string, string>;
  session: { id: string | null; name: string; startDate: string; endDate: string };
  generatedAt: string;
}

export const SCHOOL_STATS_KEY = ['/api/stats/school'] as const;

/**
 * Always fetched when a screen showing it opens (the server keeps it cheap until data changes),
 * except just after the dashboard's route loader fetched it (decision 0044).
 */
export const schoolStatsQuery = () =>
  queryOptions({ queryKey: SCHOOL_STATS_KEY, queryFn: () => api.get<SchoolStats>('/api/stats/school'), staleTime: 0, refetchOnMount: unlessJustFetched });
