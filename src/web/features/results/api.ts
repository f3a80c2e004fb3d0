import { queryOptions } from '@tanstack/react-query';
import type { BulkResultsInput, MarkField } from '@/domain/results';
import { api, ApiError } from '@/web/lib/request';

/** The results feature's server calls (operations §7 /api/results*), their types and query options. */

export interface Selection {
  academicSession: string;
  className: string;
  section: string;
}

export const isComplete = (s: Selection) => Boolean(s.academicSession && s.className && s.section);

export interface Subject {
  id: string;
  class: string;
  name: string;
  sortOrder: number;
  hasMarks: boolean;
}

export type ResultRow = Record<MarkField, string | null> & {
  id: string;
  studentId: string;
  subjectId: string;
  subject: string;
  academicSession: string;
  fa: string;
  totalMarks: string;
  percent: string;
  grade: string;
  remarks: string;
  updatedAt: string;
};

export interface ClassResults {
  academicSession: string;
  class: string;
  section: string;
  subjects: Array<{ id: string; name: string }>;
  students: Array<{ id: string; name: string; rollNumber: number; admissionNumber: string | null }>;
  results: ResultRow[];
}

export type SubjectMarks = Record<MarkField, string | null> & { fa: string; total: string; percent: string; grade: string; remarks: string };

export interface Marksheet {
  school: { name: string; phone: string; address: string; schoolCode: string | null };
  academicSession: string;
  student: {
    id: string;
    name: string;
    admissionNumber: string | null;
    fatherName: string;
    motherName: string;
    class: string;
    section: string;
    rollNumber: number;
    dateOfBirth: string | null;
    residence: string;
  };
  subjects: string[];
  resultsBySubject: Record<string, SubjectMarks>;
  grandTotal: { fa: string; ca: string; sa: string; total: string; maxMarks: number; countedSubjects: number; percent: string; grade: string | null };
  remarks: string;
}

export interface AcademicSession {
  id: string;
  sessionName: string;
  startDate: string;
  endDate: string;
  isActive: boolean;
}

export interface BulkAnswer {
  success: true;
  saved: number;
  unchanged: number;
  validateOnly: boolean;
}

const params = (s: Selection, extra: Record<string, string | number> = {}) =>
  new URLSearchParams({ class: s.className, section: s.section, academicSession: s.academicSession, ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, String(v)])) }).toString();

/** A read whose failure shows the spec's fallback text when the server gave none. */
async function read<T>(path: string, fallback: string): Promise<T> {
  try {
    return await api.get<T>(path);
  } catch (error) {
    if (error instanceof ApiError && error.message) throw error;
    throw new ApiError(0, fallback);
  }
}

export const resultsKeys = {
  all: ['/api/results'] as const,
  classResults: (s: Selection) => ['/api/results', 'class', s] as const,
  marksheet: (s: Selection, rollNumber: number) => ['/api/results', 'marksheet', s, rollNumber] as const,
  subjects: (className: string) => ['/api/results/subjects', className] as const,
};

export const sessionsQuery = () =>
  queryOptions({ queryKey: ['/api/academic-sessions'], queryFn: () => api.get<AcademicSession[]>('/api/academic-sessions') });

export const classResultsQuery = (s: Selection) =>
  queryOptions({
    queryKey: resultsKeys.classResults(s),
    queryFn: () => read<ClassResults>(`/api/results?${params(s)}`, 'Failed to fetch results'),
    enabled: isComplete(s),
    staleTime: 0,
  });

export const marksheetQuery = (s: Selection, rollNumber: number | null) =>
  queryOptions({
    queryKey: resultsKeys.marksheet(s, rollNumber ?? 0),
    queryFn: () => read<Marksheet>(`/api/results/marksheet?${params(s, { rollNumber: rollNumber ?? 0 })}`, 'Failed to fetch marksheet data'),
    enabled: isComplete(s) && rollNumber !== null,
    staleTime: 0,
  });

export const subjectsQuery = (className: string) =>
  queryOptions({
    queryKey: resultsKeys.subjects(className),
    queryFn: () => api.get<{ class: string; subjects: Subject[]; names: string[] }>(`/api/results/subjects?class=${encodeURIComponent(className)}`),
    enabled: Boolean(className),
  });

export const resultsApi = {
  /** The bulk save is idempotent on the server (same marks change nothing), so a lost answer may be retried. */
  saveBulk: (body: BulkResultsInput) => api.post<BulkAnswer>('/api/results/bulk', body, { idempotent: true }),
  addSubject: (className: string, name: string) => api.post<Subject>('/api/results/subjects', { class: className, name }),
  renameSubject: (id: string, name: string) => api.put<Subject>(`/api/results/subjects/${id}`, { name }),
  reorderSubjects: (className: string, subjectIds: string[]) => api.put('/api/results/subjects/order', { class: className, subjectIds }),
  removeSubject: (id: string) => api.delete<{ message: string }>(`/api/results/subjects/${id}`),
};

export { downloadFile as downloadPdf } from '@/web/lib/download';

export const marksheetPdfPath = (s: Selection, rollNumber: number) => `/api/results/marksheet.pdf?${params(s, { rollNumber })}`;
export const classPdfPath = (s: Selection) => `/api/results/marksheets.pdf?${params(s)}`;
