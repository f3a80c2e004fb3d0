import { useCallback, useEffect, useState } from 'react';
import type { MonthlyEntry } from './api';
import { emptyDraft, mergeBackup, readBackup, removeBackup, withAmount, writeBackup, type HeadDraft, type MonthlyDraft, type MonthlyHead } from './monthly-draft';

/**
 * The monthly grid's draft for one student and year, mirrored into the local backup as it is
 * typed. It starts from the backup (when newer than the last save) once the ledger has answered.
 */
export function useMonthlyDraft(studentId: string, academicYear: string, entries: MonthlyEntry[] | undefined) {
  const key = `${studentId}|${academicYear}`;
  const [state, setState] = useState<{ key: string; draft: MonthlyDraft; restoredAt: string | null } | null>(null);
  const ready = state?.key === key;

  useEffect(() => {
    if (!studentId || !academicYear || !entries || state?.key === key) return;
    const { draft, restoredAt } = mergeBackup(readBackup(studentId, academicYear), entries);
    setState({ key, draft, restoredAt });
  }, [key, studentId, academicYear, entries, state?.key]);

  const draft = ready ? state.draft : emptyDraft();

  const update = useCallback(
    (change: (d: MonthlyDraft) => MonthlyDraft) =>
      setState((prev) => {
        if (!prev || prev.key !== key) return prev;
        const next = change(prev.draft);
        writeBackup(studentId, academicYear, next);
        return { ...prev, draft: next };
      }),
    [key, studentId, academicYear],
  );

  const setAmount = useCallback(
    (monthKey: string, head: MonthlyHead, amount: string, today: string) =>
      update((d) => ({ ...d, months: { ...d.months, [monthKey]: { ...d.months[monthKey], [head]: withAmount(d.months[monthKey]?.[head], amount, today) } } })),
    [update],
  );

  const setDate = useCallback(
    (monthKey: string, head: MonthlyHead, date: string) =>
      update((d) => {
        const current: HeadDraft = d.months[monthKey]?.[head] ?? { amount: '', date: '' };
        return { ...d, months: { ...d.months, [monthKey]: { ...d.months[monthKey], [head]: { ...current, date } } } };
      }),
    [update],
  );

  const setPrevious = useCallback((patch: Partial<HeadDraft>, today: string) => {
    update((d) => {
      const next = patch.amount !== undefined ? withAmount(d.previous, patch.amount, today) : { ...d.previous, ...patch };
      return { ...d, previous: next };
    });
  }, [update]);

  /** After a successful save, or when the clerk discards what was restored. */
  const clear = useCallback(() => {
    removeBackup(studentId, academicYear);
    setState({ key, draft: emptyDraft(), restoredAt: null });
  }, [key, studentId, academicYear]);

  return { draft, ready, restoredAt: ready ? state.restoredAt : null, setAmount, setDate, setPrevious, clear };
}
