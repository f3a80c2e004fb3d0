import { queryOptions } from '@tanstack/react-query';
import type { ReportDocument, ReportKind } from '@/domain/report-document';
import { api } from '@/web/lib/request';

/** The Financial report as the API answers it (GET /api/reports/financial). Amounts are rupee strings. */
export interface FinancialReport {
  schoolName: string;
  fromDate: string;
  toDate: string;
  generatedAt: string;
  summary: { totalMonthlyIncome: string; totalYearlyIncome: string; totalOtherIncome: string; totalArrearsCollected: string; totalIncome: string; totalExpenses: string; netProfit: string };
  monthlyFees: Array<{ studentName: string; studentClass: string; section: string; rollNumber: number; month: string; year: number; tuitionFee: string; busFee: string; total: string; tuitionDate: string }>;
  yearlyFees: Array<{ studentName: string; studentClass: string; section: string; rollNumber: number; year: string; admissionFee: string; examFee: string; booksFee: string; uniformFee: string; miscFee: string; otherFee: string; total: string; paymentDate: string }>;
  expenses: Array<{ date: string; description: string; category: string; amount: string }>;
  totals: {
    monthlyFees: { tuitionFee: string; busFee: string; total: string };
    yearlyFees: { admissionFee: string; examFee: string; booksFee: string; uniformFee: string; miscFee: string; otherFee: string; total: string };
    expenses: string;
  };
  /** monthlyFees is null when that table was cut (a very large period) */
  counts: { monthlyFees: number | null; yearlyFees: number; expenses: number };
  truncated: boolean;
}

export interface ChartData {
  session: { id: string | null; name: string; startDate: string; endDate: string };
  months: Array<{ month: string; label: string; expected: string; collected: string }>;
  expensesByCategory: Array<{ category: string; amount: string }>;
  outstandingByClass: Array<{ className: string; students: number; outstanding: string }>;
}

const query = (params: Record<string, string | undefined>) => {
  const q = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => Boolean(e[1])));
  const text = q.toString();
  return text ? `?${text}` : '';
};

export const financialPath = (fromDate: string, toDate: string, ext = '') => `/api/reports/financial${ext}${query({ fromDate, toDate })}`;
export const reportPath = (kind: ReportKind, params: Record<string, string | undefined>, ext = '') => `/api/reports/${kind}${ext}${query(params)}`;

export const financialReportQuery = (fromDate: string, toDate: string) =>
  queryOptions({ queryKey: [financialPath(fromDate, toDate)], queryFn: () => api.get<FinancialReport>(financialPath(fromDate, toDate)), staleTime: 0 });

export const reportQuery = (kind: ReportKind, params: Record<string, string | undefined>) =>
  queryOptions({ queryKey: [reportPath(kind, params)], queryFn: () => api.get<ReportDocument>(reportPath(kind, params)), staleTime: 0 });

export const chartsQuery = () => queryOptions({ queryKey: ['/api/stats/charts'], queryFn: () => api.get<ChartData>('/api/stats/charts'), staleTime: 0 });

export { downloadFile } from '@/web/lib/download';

/** Where a printable report opens (a page of its own, in a new window). */
export const printUrl = (params: Record<string, string | undefined>) => `/school/reports/print${query(params)}`;
