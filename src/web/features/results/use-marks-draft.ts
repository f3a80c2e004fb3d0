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

/**
 * The teacher's edits: per edited cell, all eight marks as shown (`edits`) and the marks the cell
 * showed when its first edit was made (`loadedAt`). The save sends both, so the server writes only
 * the marks this teacher changed and refuses one that someone else changed since. A cell's
 * `loadedAt` stays what its edits were typed over even when the class is read again, until the
 * save goes through or `rebaseDraft` moves it.
 */
export interface MarksDraft {
  edits: MarksBySubject;
  loadedAt: MarksBySubject;
}

const NO_MARKS: MarkTexts = Object.freeze(emptyMarkTexts()) as MarkTexts;
const EMPTY_DRAFT: MarksDraft = { edits: {}, loadedAt: {} };

const sameTexts = (a: MarkTexts, b: MarkTexts) => a === b || MARK_FIELDS.every((f) => a[f] === b[f]);

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

/** Typed values on top of the draft; a cell's first edit copies the marks it shows now and remembers them as loaded. */
export function applyCellEdits(draft: MarksDraft, baseline: MarksBySubject, list: CellEdit[]): MarksDraft {
  const edits = { ...draft.edits };
  const loadedAt = { ...draft.loadedAt };
  for (const { studentId, subjectId, field, value } of list) {
    const row = { ...(edits[studentId] ?? {}) };
    let texts = row[subjectId];
    if (!texts) {
      const shown = baseline[studentId]?.[subjectId] ?? NO_MARKS;
      loadedAt[studentId] = { ...(loadedAt[studentId] ?? {}), [subjectId]: shown };
      texts = shown;
    }
    row[subjectId] = { ...texts, [field]: value };
    edits[studentId] = row;
  }
  return { edits, loadedAt };
}

/**
 * What each cell was loaded as: the class as last read, but for an edited cell the marks its edits
 * were typed over. A row keeps its object while nothing in it differs, so the grid redraws only rows
 * whose cells do.
 */
export function loadedMarks(baseline: MarksBySubject, loadedAt: MarksBySubject): MarksBySubject {
  let out: MarksBySubject | null = null;
  for (const [studentId, cells] of Object.entries(loadedAt)) {
    const row = baseline[studentId];
    if (Object.entries(cells).every(([subjectId, texts]) => sameTexts(row?.[subjectId] ?? NO_MARKS, texts))) continue;
    out ??= { ...baseline };
    out[studentId] = { ...(row ?? {}), ...cells };
  }
  return out ?? baseline;
}

/**
 * The draft moved onto the class as read again (after a save refused because someone else changed a
 * mark): a mark the teacher did not touch shows what is stored now; a typed mark stays unless someone
 * else changed that same mark meanwhile, then the cell shows theirs, to be entered again if still wanted.
 */
export function rebaseDraft(draft: MarksDraft, fresh: MarksBySubject): MarksDraft {
  const edits: MarksBySubject = {};
  const loadedAt: MarksBySubject = {};
  for (const [studentId, row] of Object.entries(draft.edits)) {
    for (const [subjectId, texts] of Object.entries(row)) {
      const was = draft.loadedAt[studentId]?.[subjectId] ?? NO_MARKS;
      const now = fresh[studentId]?.[subjectId] ?? NO_MARKS;
      const next = { ...texts };
      for (const f of MARK_FIELDS) {
        const touched = texts[f].trim() !== was[f].trim();
        const changedMeanwhile = was[f].trim() !== now[f].trim();
        if (!touched || changedMeanwhile) next[f] = now[f];
      }
      (edits[studentId] ??= {})[subjectId] = next;
      (loadedAt[studentId] ??= {})[subjectId] = now;
    }
  }
  return { edits, loadedAt };
}

/**
 * What the teacher typed on top of the loaded marks. Edits are kept per student, so typing in
 * one row re-renders only that row. `dataKey` names the loaded class: a new class starts clean.
 */
export function useMarksDraft(data: ClassResults | undefined, dataKey: string) {
  const current = useMemo(() => baselineOf(data), [data]);
  const [state, setState] = useState<{ key: string; draft: MarksDraft }>({ key: dataKey, draft: EMPTY_DRAFT });
  const draft = state.key === dataKey ? state.draft : EMPTY_DRAFT;
  const baseline = useMemo(() => loadedMarks(current, draft.loadedAt), [current, draft.loadedAt]);

  const applyEdits = useCallback(
    (list: CellEdit[]) => {
      setState((prev) => ({ key: dataKey, draft: applyCellEdits(prev.key === dataKey ? prev.draft : EMPTY_DRAFT, current, list) }));
    },
    [dataKey, current],
  );

  const reset = useCallback(() => setState({ key: dataKey, draft: EMPTY_DRAFT }), [dataKey]);

  /** After a refused save: the edits moved onto the class as read again (see rebaseDraft). */
  const rebase = useCallback(
    (fresh: ClassResults) => {
      setState((prev) => (prev.key === dataKey ? { key: dataKey, draft: rebaseDraft(prev.draft, baselineOf(fresh)) } : prev));
    },
    [dataKey],
  );

  const summary = useMemo(() => summarizeDraft(draft.edits, baseline), [draft.edits, baseline]);

  return { baseline, edits: draft.edits, applyEdits, reset, rebase, changed: summary.changed, invalidCount: summary.invalid };
}

export interface ChangedCell {
  studentId: string;
  subjectId: string;
  /** the eight marks as shown */
  texts: MarkTexts;
  /** the eight marks as the cell was loaded */
  loaded: MarkTexts;
}

/** The edited cells that count as changed (operations §4), each with the marks it was loaded as, and how many typed marks are not marks. */
export function summarizeDraft(edits: MarksBySubject, loadedAs: MarksBySubject): { changed: ChangedCell[]; invalid: number } {
  const changed: ChangedCell[] = [];
  let invalid = 0;
  for (const [studentId, row] of Object.entries(edits)) {
    for (const [subjectId, texts] of Object.entries(row)) {
      invalid += Object.keys(parseMarkTexts(texts).errors).length;
      const loaded = loadedAs[studentId]?.[subjectId] ?? NO_MARKS;
      if (isEntryChanged(texts, loaded)) changed.push({ studentId, subjectId, texts, loaded });
    }
  }
  return { changed, invalid };
}

const trimmed = (texts: MarkTexts) => Object.fromEntries(MARK_FIELDS.map((f) => [f, texts[f].trim()])) as MarkTexts;

/**
 * The changed entries as POST /api/results/bulk wants them (operations §7): marks as strings, and
 * with them the marks as loaded, so marks left as loaded keep whatever is stored by then.
 */
export function toBulkEntries(changed: ChangedCell[], subjectName: (id: string) => string, academicSession: string): ResultEntryInput[] {
  return changed.map(({ studentId, subjectId, texts, loaded }) => ({
    studentId,
    academicSession,
    subject: subjectName(subjectId),
    ...trimmed(texts),
    loaded: trimmed(loaded),
  }));
}
