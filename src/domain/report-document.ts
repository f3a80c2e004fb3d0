import { z } from 'zod';

/**
 * One shape for every report of the Reports tab: a title, the school, when it was made, a few
 * summary figures and small tables. The server builds it from the ledger; the printable page, the
 * Excel workbook and the CSV are all drawn from the same document, so they cannot disagree.
 * Money is rupee text with two places ("1500.00"), as everywhere on the wire.
 */

export const REPORT_KINDS = ['monthly', 'yearly', 'class-wise', 'income-expense', 'pending-fees', 'session', 'day-book'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_TITLES: Record<ReportKind, string> = {
  monthly: 'Monthly Report',
  yearly: 'Yearly Report',
  'class-wise': 'Class-wise Report',
  'income-expense': 'Income vs Expense',
  'pending-fees': 'Pending Fees',
  session: 'Session Report',
  'day-book': 'Day Book',
};

export const COLUMN_KINDS = ['text', 'number', 'money', 'date', 'percent'] as const;
export type ColumnKind = (typeof COLUMN_KINDS)[number];

export const reportColumnSchema = z.object({ key: z.string(), label: z.string(), kind: z.enum(COLUMN_KINDS) });
export type ReportColumn = z.infer<typeof reportColumnSchema>;

const cell = z.union([z.string(), z.number()]);

export const reportTableSchema = z.object({
  title: z.string(),
  columns: z.array(reportColumnSchema),
  rows: z.array(z.record(z.string(), cell)),
  /** the total row, keyed like the rows; the first column holds "Total" */
  totals: z.record(z.string(), cell).nullable(),
  /** shown when there are no rows */
  empty: z.string(),
});
export type ReportTable = z.infer<typeof reportTableSchema>;

export const reportDocumentSchema = z.object({
  kind: z.enum(REPORT_KINDS),
  title: z.string(),
  schoolName: z.string(),
  /** what the report covers: "November 2026", "Session 2026-2027", "22 November 2026" */
  subtitle: z.string(),
  generatedAt: z.string(),
  summary: z.array(z.object({ label: z.string(), value: cell, kind: z.enum(COLUMN_KINDS), tone: z.enum(['default', 'good', 'bad']).optional() })),
  tables: z.array(reportTableSchema),
});
export type ReportDocument = z.infer<typeof reportDocumentSchema>;

/** A column helper that keeps builders short. */
export const col = (key: string, label: string, kind: ColumnKind = 'text'): ReportColumn => ({ key, label, kind });
