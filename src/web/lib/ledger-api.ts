import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { FeePaymentInput } from '@/domain/ledger';
import { api } from './request';

/**
 * The fee ledger as the browser sees it (issue 4): receipts, carried balances and what a student
 * owes. The fee screens, the student record's fee actions and the passouts tab all read and write
 * through here, and every write refreshes every screen that shows money (ruling 2: one ledger).
 * Query keys are the API paths with their query strings.
 */

export type PaymentMode = 'cash' | 'cheque' | 'upi' | 'card' | 'bank_transfer' | 'online' | 'credit';

export interface ReceiptLine {
  id: string;
  head: string;
  headLabel: string;
  feeType: string;
  period: string | null;
  periodLabel: string | null;
  amount: string;
  paidOn: string;
  sessionId: string;
  academicYear: string;
}

export interface Receipt {
  id: string;
  receiptNumber: string;
  prefix: 'MON' | 'YRL' | 'FEE' | 'ONL';
  academicYear: string;
  source: 'monthly' | 'yearly' | 'fee_payment' | 'online';
  studentId: string;
  studentName: string;
  className: string;
  section: string;
  rollNumber: number;
  sessionId: string;
  paymentMode: PaymentMode;
  chequeNumber: string | null;
  bankName: string | null;
  upiReference: string | null;
  transactionReference: string | null;
  receivedBy: string;
  receivedAt: string;
  total: string;
  totalInWords: string;
  status: 'live' | 'cancelled';
  cancelledAt: string | null;
  cancelReason: string | null;
  clientId: string | null;
  lines: ReceiptLine[];
}

export interface ReceiptSchool {
  name: string;
  address: string;
  phone: string;
  schoolCode: string | null;
  email: string;
  hasLogo: boolean;
}

/** A receipt with everything its printed copy shows (the same as the server's PDF). */
export interface ReceiptDocument {
  receipt: Receipt;
  school: ReceiptSchool;
  student: { fatherName: string; admissionNumber: string | null };
  /** what is still due as on `asOn` (today); null on a cancelled receipt */
  balance: { asOn: string; amount: string } | null;
}

export interface CarriedSummary {
  monthlyOutstanding: string;
  yearlyOutstanding: string;
  balance: string;
  balances: Array<{
    id: string;
    sessionId: string;
    academicYear: string;
    className: string;
    balance: string;
    monthlyOutstanding: string;
    yearlyOutstanding: string;
    recordedBalance: string;
    paid: string;
    reason: 'promotion' | 'rollover' | 'discharge' | 'graduation';
  }>;
}

export interface OutstandingFees {
  monthlyFees: string;
  yearlyFees: string;
  total: string;
  horizon: 'tillDate' | 'annual';
  asOfMonth: string;
  currentSession: { academicYear: string; monthlyOutstanding: string; yearlyOutstanding: string; total: string } | null;
  previousBalance: CarriedSummary;
}

/** The receipt as Record Fee Payment answers it: the spec's { studentId, fees, totalPaid } plus the receipt. */
export interface FeePaymentReceipt extends Receipt {
  fees: Array<{ type: string; amount: string; month: string | null }>;
  totalPaid: string;
}

export const studentReceiptsPath = (studentId: string) => `/api/students/${studentId}/receipts`;
export const outstandingPath = (studentId: string) => `/api/students/${studentId}/outstanding-fees`;
export const receiptPath = (id: string) => `/api/receipts/${id}`;

export const studentReceiptsQuery = (studentId: string) =>
  queryOptions({ queryKey: [studentReceiptsPath(studentId)], queryFn: () => api.get<Receipt[]>(studentReceiptsPath(studentId)), staleTime: 0 });

export const outstandingQuery = (studentId: string) =>
  queryOptions({ queryKey: [outstandingPath(studentId)], queryFn: () => api.get<OutstandingFees>(outstandingPath(studentId)), staleTime: 0 });

export const receiptQuery = (id: string) =>
  queryOptions({ queryKey: [receiptPath(id)], queryFn: () => api.get<ReceiptDocument>(receiptPath(id)) });

/** Paths whose answers change when money moves or a student moves (promotion, discharge, passouts). */
const LEDGER_PREFIXES = [
  '/api/monthly-fee-entries',
  '/api/yearly-fee-entries',
  '/api/students',
  '/api/student-previous-balances',
  '/api/passouts',
  '/api/fees',
  '/api/receipts',
  '/api/stats/school',
  '/api/reports',
];

/** After any money write: fee status, outstanding, previous balances, passouts, students and the stats. */
export function refreshLedger(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: (q) => {
      const key = q.queryKey[0];
      return typeof key === 'string' && LEDGER_PREFIXES.some((p) => key === p || key.startsWith(`${p}/`) || key.startsWith(`${p}?`));
    },
  });
}

/** Record Fee Payment (operations §3): one FEE receipt; idempotent on clientId, so it may be retried. */
export function recordFeePayment(input: FeePaymentInput) {
  return api.post<{ message: string; replayed: boolean; receipt: FeePaymentReceipt }>('/api/fees', input, { idempotent: true });
}

/** A fresh idempotency key for one save attempt (ruling 5); the same key is sent again on a retry. */
export function newClientId(): string {
  // getRandomValues works on plain http too (a school's LAN server), randomUUID does not
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The receipt PDF the server renders: office and parent copies, the stored "Received by". */
export const receiptPdfPath = (id: string) => `/api/receipts/${id}/pdf`;

/** The printable receipt page of the app, opened in its own window. */
export const receiptPrintHref = (id: string) => `/school/receipts/${id}/print`;

export { downloadFile } from './download';

const MODE_LABELS: Record<PaymentMode, string> = { cash: 'Cash', cheque: 'Cheque', upi: 'UPI', card: 'Card', bank_transfer: 'Bank Transfer', online: 'Online', credit: "From the student's credit" };

/** "Cheque No. 123456, State Bank of India", "UPI (ref 4093…)", "Cash": the same words as the PDF. */
export function paymentModeLabel(r: Pick<Receipt, 'paymentMode' | 'chequeNumber' | 'bankName' | 'upiReference' | 'transactionReference'>): string {
  const label = MODE_LABELS[r.paymentMode];
  if (r.paymentMode === 'cheque') return [`${label} No. ${r.chequeNumber ?? ''}`.trim(), r.bankName].filter(Boolean).join(', ');
  if (r.paymentMode === 'upi' && r.upiReference) return `${label} (ref ${r.upiReference})`;
  if ((r.paymentMode === 'bank_transfer' || r.paymentMode === 'online') && r.transactionReference) return `${label} (ref ${r.transactionReference})`;
  return label;
}

/** The India calendar date of an instant, 22/11/2026, as receipts show it (en-IN). */
export function receiptDate(iso: string): string {
  const d = new Date(new Date(iso).getTime() + 330 * 60_000).toISOString().slice(0, 10);
  const [y, m, day] = d.split('-');
  return `${day}/${m}/${y}`;
}

/** `2026-11-22` → `22/11/2026` */
export function isoToIndian(date: string): string {
  const [y, m, d] = date.split('-');
  return `${d}/${m}/${y}`;
}
