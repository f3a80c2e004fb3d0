import { useCallback, useMemo, useState } from 'react';
import {
  emptyMarkTexts,
  isEntryChanged,
  MARK_FIELDS,
  parseMarkTexts,
  type MarkField,
  type MarkTexts,
  type ResultEntryInput,
} from '@/domain/results';
import type { ClassResults } from './api';

/** studentId → subjectId → typed marks */
export type MarksBySubject = Record<string, Record<string, MarkTexts>>;

export interface CellEdit {
  studentId: string;
  subjectId: string;
  field: MarkField;
  value: string;
}

/** The loaded marks as the grid shows them: the baseline edits are compared against. */
export function baselineOf(data: ClassResults | undefined): MarksBySubject {
  const out: MarksBySubject = {};
  for (const r of data?.results ?? []) {
    const row = (out[r.studentId] ??= {});
    const texts = emptyMarkTexts();
    for (const f of MARK_FIELDS) texts[f] = r[f] ?? '';
    row[r.subjectId] = texts;
  }
  return out;
}

/**
 * What the teacher typed on top of the loaded marks. Edits are kept per student, so typing in
 * one row re-renders only that row. `dataKey` names the loaded class: a new class starts clean.
 */
export function useMarksDraft(data: ClassResults | undefined, dataKey: string) {
  const baseline = useMemo(() => baselineOf(data), [data]);
  const [state, setState] = useState<{ key: string; edits: MarksBySubject }>({ key: dataKey, edits: {} });
  const edits = useMemo(() => (state.key === dataKey ? state.edits : {}), [state, dataKey]);

  const applyEdits = useCallback(
    (list: CellEdit[]) => {
      setState((prev) => {
        const current = prev.key === dataKey ? prev.edits : {};
        const next = { ...current };
        for (const { studentId, subjectId, field, value } of list) {
          const row = { ...(next[studentId] ?? {}) };
          const texts = { ...(row[subjectId] ?? baseline[studentId]?.[subjectId] ?? emptyMarkTexts()) };
          texts[field] = value;
          row[subjectId] = texts;
          next[studentId] = row;
        }
        return { key: dataKey, edits: next };
      });
    },
    [dataKey, baseline],
  );

  const reset = useCallback(() => setState({ key: dataKey, edits: {} }), [dataKey]);

  const summary = useMemo(() => {
    const changed: Array<{ studentId: string; subjectId: string; texts: MarkTexts }> = [];
    let invalid = 0;
    for (const [studentId, row] of Object.entries(edits)) {
      for (const [subjectId, texts] of Object.entries(row)) {
        invalid += Object.keys(parseMarkTexts(texts).errors).length;
        if (isEntryChanged(texts, baseline[studentId]?.[subjectId] ?? emptyMarkTexts())) changed.push({ studentId, subjectId, texts });
      }
    }
    return { changed, invalid };
  }, [edits, baseline]);

  return { baseline, edits, applyEdits, reset, changed: summary.changed, invalidCount: summary.invalid };
}

/** The changed entries as POST /api/results/bulk wants them (operations §7): marks as strings. */
export function toBulkEntries(
  changed: Array<{ studentId: string; subjectId: string; texts: MarkTexts }>,
  subjectName: (id: string) => string,
  academicSession: string,
): ResultEntryInput[] {
  return changed.map(({ studentId, subjectId, texts }) => ({
    studentId,
    academicSession,
    subject: subjectName(subjectId),
    ...Object.fromEntries(MARK_FIELDS.map((f) => [f, texts[f].trim()])),
  }));
}
