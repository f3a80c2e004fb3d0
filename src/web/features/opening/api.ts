import { api } from '@/web/lib/request';
import { getToken } from '@/web/lib/auth-storage';

export interface OpeningArrear {
  id: string;
  head: string;
  headLabel: string;
  amount: string;
  note: string;
  status: 'live' | 'cancelled';
  cancelReason: string | null;
}

export interface OpeningReceipt {
  id: string;
  receiptNumber: string;
  status: 'live' | 'cancelled';
  total: string;
  lines: Array<{ head: string; period: string | null; periodLabel?: string | null; amount: string }>;
}

export interface StudentOpening {
  studentId: string;
  arrears: OpeningArrear[];
  recorded: string;
  paid: string;
  remaining: string;
  receipts: OpeningReceipt[];
}

export interface ImportResult {
  message: string;
  imported: number;
  arrearsTotal: string;
  monthsPaid: number;
  skipped: Array<{ row: number; name: string; reason: string }>;
  errors: Array<{ row: number; name: string; reasons: string[] }>;
}

export const openingKey = (studentId: string) => [`/api/students/${studentId}/opening`];

export const getStudentOpening = (studentId: string, signal?: AbortSignal) => api.get<StudentOpening>(`/api/students/${studentId}/opening`, { signal });

export const saveOpening = (body: { studentId: string; amounts: Record<string, string>; paidMonths: string[]; note: string }) =>
  api.post<{ message: string }>('/api/opening-balances', body);

export const cancelArrear = (id: string, reason: string) => api.post<{ message: string }>(`/api/opening-balances/${id}/cancel`, { reason });

export const cancelReceipt = (id: string, reason: string) => api.post<{ message: string }>(`/api/receipts/${id}/cancel`, { reason });

export const importOpening = (body: { fileName: string; csv?: string; xlsxBase64?: string }) => api.post<ImportResult>('/api/opening-balances/import', body);

/** Downloads the template with the session token (every school endpoint needs it, ruling 23). */
export async function downloadTemplate(format: 'csv' | 'xlsx'): Promise<void> {
  const res = await fetch(`/api/opening-balances/template?format=${format}`, { headers: { authorization: `Bearer ${getToken() ?? ''}` } });
  if (!res.ok) throw new Error('The template could not be downloaded');
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = `opening-balances-template.${format}`;
  a.click();
  URL.revokeObjectURL(url);
}

/** Reads a chosen file as the import expects it: CSV as text, Excel as base64. */
export async function fileBody(file: File): Promise<{ fileName: string; csv?: string; xlsxBase64?: string }> {
  if (/\.xlsx$/i.test(file.name)) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { fileName: file.name, xlsxBase64: btoa(binary) };
  }
  return { fileName: file.name, csv: await file.text() };
}
