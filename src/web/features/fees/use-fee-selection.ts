import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { compareClasses } from '@/domain/classes';
import type { FeeStudent } from '@/web/components/fees/fee-student';
import { api } from '@/web/lib/request';
import { classSummaryQuery, rosterQuery, sessionsQuery } from '@/web/lib/school-data';

export interface FeeSelection {
  academicYear: string;
  className: string;
  section: string;
  studentId: string;
}

const STORAGE_KEY = 'fees.selection';
const EMPTY: FeeSelection = { academicYear: '', className: '', section: '', studentId: '' };

/**
 * The student chosen on one fee screen stays chosen on the others (monthly, yearly, fee status),
 * and across a reload of the tab: a clerk collecting fees moves between them for one parent.
 */
let current: FeeSelection = (() => {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as FeeSelection | null;
    return saved && typeof saved === 'object' ? { ...EMPTY, ...saved } : EMPTY;
  } catch {
    return EMPTY;
  }
})();
const listeners = new Set<() => void>();

function setSelection(next: FeeSelection): void {
  current = next;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // private mode: the choice lasts for this page only
  }
  for (const l of listeners) l();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export interface RosterStudent extends FeeStudent {
  status: string;
}

/** The picked student as the fee screens and their dialogs need them: class, session and fees of that year. */
const pickedQuery = (studentId: string, academicYear: string | undefined) => {
  const filter = academicYear ? `?${new URLSearchParams({ academicYear })}` : '';
  return {
    queryKey: ['/api/students/roster', studentId, academicYear ?? ''] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => api.get<RosterStudent>(`/api/students/roster/${encodeURIComponent(studentId)}${filter}`, { signal }),
  };
};

/** Where a student sat in an academic year (null when they were not in it). */
async function placementIn(student: RosterStudent, academicYear: string | undefined): Promise<{ className: string; section: string } | null> {
  const query = new URLSearchParams({ q: student.name, status: 'all', limit: '100', ...(academicYear ? { academicYear } : {}) });
  const found = (await api.get<RosterStudent[]>(`/api/students?${query}`)).find((s) => s.id === student.id);
  return found ? { className: found.class, section: found.section } : null;
}

/**
 * Academic year (the active session by default), class, section and roll number (operations §2,
 * §4): picking a class clears the section and student, picking a section clears the student.
 */
export function useFeeSelection() {
  const selection = useSyncExternalStore(subscribe, () => current);
  const sessions = useQuery(sessionsQuery());
  const { academicYear, className, section, studentId } = selection;
  const active = sessions.data?.find((s) => s.isActive) ?? sessions.data?.[0];
  const known = sessions.data?.some((s) => s.sessionName === academicYear);
  // the active year lists today's classes; an earlier (or later) year lists where students sat in it
  const rosterYear = (year: string) => (active && year && year !== active.sessionName ? year : undefined);
  const summary = useQuery(classSummaryQuery(rosterYear(academicYear)));
  useEffect(() => {
    if (active && (!academicYear || (sessions.data && !known))) setSelection({ ...current, academicYear: active.sessionName });
  }, [active, academicYear, known, sessions.data]);

  const classes = useMemo(() => {
    const totals = new Map<string, number>();
    for (const row of summary.data ?? []) totals.set(row.class, (totals.get(row.class) ?? 0) + row.count);
    return [...totals.entries()].filter(([, n]) => n > 0).sort(([a], [b]) => compareClasses(a, b));
  }, [summary.data]);

  const sections = useMemo(
    () => (summary.data ?? []).filter((r) => r.class === className && r.count > 0).sort((a, b) => a.section.localeCompare(b.section)),
    [summary.data, className],
  );

  // a class with one section needs no second choice
  useEffect(() => {
    if (className && !section && sections.length === 1) setSelection({ ...current, section: sections[0]!.section, studentId: '' });
  }, [className, section, sections]);

  const roster = useQuery({ ...rosterQuery(className, section, rosterYear(academicYear)), enabled: Boolean(className && section) });
  const students = useMemo(() => [...(roster.data ?? [])].sort((a, b) => a.rollNumber - b.rollNumber), [roster.data]);
  // the roll number chosen in this class and section; the screens show the student once their own row is in
  const picked = students.find((s) => s.id === studentId) ?? null;
  const own = useQuery({ ...pickedQuery(studentId, rosterYear(academicYear)), enabled: Boolean(picked) });
  const student = picked && own.data?.id === picked.id ? own.data : null;

  return {
    selection,
    sessions: sessions.data ?? [],
    session: sessions.data?.find((s) => s.sessionName === academicYear) ?? null,
    classes,
    sections,
    students,
    picked,
    student,
    loading: { sessions: sessions.isPending, classes: summary.isPending, roster: Boolean(className && section) && roster.isPending, student: Boolean(picked) && own.isPending },
    errors: { sessions: sessions.error, classes: summary.error, roster: roster.error ?? own.error },
    // the chosen student stays chosen in the other year, in the class they had then
    setYear: (v: string) => {
      setSelection({ ...current, academicYear: v });
      if (!student) return;
      placementIn(student, rosterYear(v)).then(
        (placed) => {
          if (current.academicYear !== v || current.studentId !== student.id) return;
          setSelection(placed ? { ...current, ...placed } : { ...current, className: '', section: '', studentId: '' });
        },
        () => undefined,
      );
    },
    setClass: useCallback((v: string) => setSelection({ ...current, className: v, section: '', studentId: '' }), []),
    setSection: useCallback((v: string) => setSelection({ ...current, section: v, studentId: '' }), []),
    setStudent: useCallback((v: string) => setSelection({ ...current, studentId: v }), []),
  };
}

export type FeeSelectionState = ReturnType<typeof useFeeSelection>;
