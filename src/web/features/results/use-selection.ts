import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { sessionsQuery, type Selection } from './api';

export type ResultsTab = 'entry' | 'class' | 'marksheet';
const TABS: ResultsTab[] = ['entry', 'class', 'marksheet'];

/**
 * The session, class, section, roll number and tab live in the address, so a reload or a shared
 * link opens the same class; the active session is chosen when none is given.
 */
export function useResultsSelection() {
  const [params, setParams] = useSearchParams();
  const sessions = useQuery(sessionsQuery());

  const selection: Selection = useMemo(
    () => ({ academicSession: params.get('session') ?? '', className: params.get('class') ?? '', section: params.get('section') ?? 'A' }),
    [params],
  );
  const rollText = params.get('roll');
  const rollNumber = rollText && /^\d+$/.test(rollText) ? Number(rollText) : null;
  const tabParam = params.get('tab') as ResultsTab | null;
  const tab: ResultsTab = tabParam && TABS.includes(tabParam) ? tabParam : 'entry';

  const update = useCallback(
    (changes: Record<string, string | null>) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes)) {
            if (v === null || v === '') next.delete(k);
            else next.set(k, v);
          }
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  // default to the active session (operations §2 pickers), once the list is known
  const active = sessions.data?.find((s) => s.isActive) ?? sessions.data?.[0];
  useEffect(() => {
    if (!selection.academicSession && active) update({ session: active.sessionName });
  }, [selection.academicSession, active, update]);

  return {
    selection,
    rollNumber,
    tab,
    sessions: sessions.data ?? [],
    sessionsError: sessions.isError,
    setTab: (t: ResultsTab) => update({ tab: t === 'entry' ? null : t }),
    // operations §4: changing the class clears the section's student; changing the section clears the student
    setSession: (v: string) => update({ session: v, roll: null }),
    setClass: (v: string) => update({ class: v, roll: null }),
    setSection: (v: string) => update({ section: v, roll: null }),
    setRoll: (v: number | null) => update({ roll: v === null ? null : String(v) }),
  };
}

export type ResultsSelection = ReturnType<typeof useResultsSelection>;
