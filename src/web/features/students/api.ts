import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AddStudentInput, ReminderPreference, UpdateStudentInput } from '@/domain/students';
import { api } from '@/web/lib/request';
import { classSummaryQuery, rosterQuery } from '@/web/lib/school-data';

export { classSummaryQuery, rosterQuery };
export type { ClassSummaryRow } from '@/web/lib/school-data';

/** The student as the API returns it (amounts are rupee strings, Aadhaar masked). */
export interface Student {
  id: string;
  schoolId: string;
  name: string;
  class: string;
  section: string;
  rollNumber: number;
  admissionNumber: string | null;
  fatherName: string;
  motherName: string;
  dateOfBirth: string | null;
  mobileNumber: string;
  aadharNumber: string | null;
  residence: string;
  parentName: string;
  parentPhone: string;
  parentEmail: string;
  parentWhatsApp: string;
  monthlyBusFee: string;
  enrollmentDate: string | null;
  feesFromMonth: string | null;
  status: string;
  sessionId: string | null;
  enableSmsReminders: boolean;
  enableWhatsappReminders: boolean;
  reminderPreference: ReminderPreference;
  createdAt: string;
  monthlyFee: string | null;
  admissionFee: string | null;
}

export interface StudentFilter {
  class?: string;
  section?: string;
  q?: string;
  limit?: number;
}

export const STUDENTS_KEY = ['/api/students'] as const;

function searchParams(filter: StudentFilter): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** One class and section, or a name / admission number search: never the whole school. */
export const studentsQuery = (filter: StudentFilter) =>
  queryOptions({
    queryKey: [...STUDENTS_KEY, filter],
    queryFn: ({ signal }) => api.get<Student[]>(`/api/students${searchParams(filter)}`, { signal }),
  });

export const studentQuery = (id: string) =>
  queryOptions({ queryKey: [`/api/students/${id}`], queryFn: ({ signal }) => api.get<Student>(`/api/students/${id}`, { signal }) });

const nextRollPath = (className: string, section: string) =>
  `/api/students/next-roll-number/${encodeURIComponent(className)}/${encodeURIComponent(section)}`;

/** The roll number the server will most likely give; always asked afresh (someone else may add a student). */
export const nextRollNumberQuery = (className: string, section: string) =>
  queryOptions({
    queryKey: [nextRollPath(className, section)],
    queryFn: ({ signal }) => api.get<{ nextRollNumber: number }>(nextRollPath(className, section), { signal }),
    staleTime: 0,
    enabled: Boolean(className && section),
  });

/** After any change to students: every list, the class counts, roll suggestions and the stats. */
export function refreshStudents(queryClient: QueryClient): Promise<unknown> {
  // ['/api/students', …], ['/api/students/class-summary'], ['/api/students/{id}'], next roll numbers
  const isStudentKey = (key: unknown) => key === STUDENTS_KEY[0] || (typeof key === 'string' && key.startsWith(`${STUDENTS_KEY[0]}/`));
  return Promise.all([
    queryClient.invalidateQueries({ predicate: (q) => isStudentKey(q.queryKey[0]) }),
    queryClient.invalidateQueries({ queryKey: ['/api/stats/school'] }),
  ]);
}

/** An add carries the dialog's clientId (ruling 5): the server adds the student once, so the helper may retry it. */
export function useCreateStudent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddStudentInput) => api.post<Student>('/api/students', input, { idempotent: true }),
    onSuccess: () => refreshStudents(queryClient),
  });
}

export function useUpdateStudent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateStudentInput }) => api.put<Student>(`/api/students/${id}`, input),
    onSuccess: () => refreshStudents(queryClient),
  });
}

export function useDeleteStudent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ message: string }>(`/api/students/${id}`),
    onSuccess: () => refreshStudents(queryClient),
  });
}

/** Shows the full Aadhaar number once; the server writes an audit row for each reveal (ruling 24). */
export function useRevealAadhaar() {
  return useMutation({
    mutationFn: (id: string) => api.post<{ aadharNumber: string }>(`/api/students/${id}/reveal-aadhaar`, {}),
  });
}
