import { checkLineAmount } from '@/domain/ledger';
import type { SessionMonth } from '@/domain/sessions';
import type { MonthlyEntry } from './api';

/**
 * What the clerk typed into the monthly grid, on top of what the ledger already holds. Saved
 * heads are locked (operations §4, ruling 3): the draft only ever holds heads still open.
 */
export type MonthlyHead = 'tuition' | 'bus';
export interface HeadDraft {
  amount: string;
  date: string;
}
export type MonthDraft = Partial<Record<MonthlyHead, HeadDraft>>;
export interface MonthlyDraft {
  months: Record<string, MonthDraft>;
  /** a payment towards the balance carried from earlier sessions (the banner) */
  previous: HeadDraft;
}

export const emptyDraft = (): MonthlyDraft => ({ months: {}, previous: { amount: '', date: '' } });

const HEAD_LABEL: Record<MonthlyHead, string> = { tuition: 'Tuition fee', bus: 'Bus fee' };

export const isLocked = (entry: MonthlyEntry | undefined, head: MonthlyHead) => Boolean(entry?.locked[head]);

/** A typed amount sets the date to today when none is set; clearing the amount clears the date. */
export function withAmount(head: HeadDraft | undefined, amount: string, today: string): HeadDraft {
  if (amount.trim() === '') return { amount, date: '' };
  return { amount, date: head?.date || today };
}

export function amountProblem(head: MonthlyHead | 'previous', amount: string | undefined): string | null {
  const check = checkLineAmount(amount ?? '', head === 'previous' ? 'Previous balance payment' : HEAD_LABEL[head]);
  return check.ok ? null : check.message;
}

const hasAmount = (h: HeadDraft | undefined) => {
  const check = checkLineAmount(h?.amount ?? '', 'amount');
  return check.ok && check.value !== null && check.value > 0;
};

/** Draft heads that would be saved: an amount above zero in a head that is not locked. */
export function pendingHeads(draft: MonthlyDraft, months: SessionMonth[], saved: Map<string, MonthlyEntry>) {
  const out: Array<{ month: SessionMonth; head: MonthlyHead; value: HeadDraft }> = [];
  for (const m of months) {
    for (const head of ['tuition', 'bus'] as const) {
      const value = draft.months[m.key]?.[head];
      if (value && hasAmount(value) && !isLocked(saved.get(m.key), head)) out.push({ month: m, head, value });
    }
  }
  return out;
}

/** Every problem with the typed amounts, keyed `2026-04:tuition` (or `previous`), for the grid to show. */
export function draftProblems(draft: MonthlyDraft, months: SessionMonth[], saved: Map<string, MonthlyEntry>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of months) {
    for (const head of ['tuition', 'bus'] as const) {
      if (isLocked(saved.get(m.key), head)) continue;
      const problem = amountProblem(head, draft.months[m.key]?.[head]?.amount);
      if (problem) out[`${m.key}:${head}`] = `${m.month} ${m.year}: ${problem}`;
    }
  }
  const previous = amountProblem('previous', draft.previous.amount);
  if (previous) out.previous = previous;
  return out;
}

/** The entries of POST /api/monthly-fee-entries/bulk (operations §7): nulls for empty, status pending. */
export function bulkEntries(studentId: string, draft: MonthlyDraft, months: SessionMonth[], saved: Map<string, MonthlyEntry>, submittedAt: string) {
  const heads = pendingHeads(draft, months, saved);
  const byMonth = new Map<string, { month: SessionMonth; tuition?: HeadDraft; bus?: HeadDraft }>();
  for (const { month, head, value } of heads) {
    const row = byMonth.get(month.key) ?? { month };
    row[head] = value;
    byMonth.set(month.key, row);
  }
  return [...byMonth.values()].map(({ month, tuition, bus }) => ({
    studentId,
    month: month.month,
    year: month.year,
    tuitionFee: tuition ? tuition.amount.trim() : null,
    tuitionDate: tuition ? tuition.date || null : null,
    busFee: bus ? bus.amount.trim() : null,
    busDate: bus ? bus.date || null : null,
    status: 'pending' as const,
    submittedAt,
  }));
}

// ---------------------------------------------------------------------------------------------
// The autosave backup (operations §4): per student and year in localStorage, merged with the
// server's data when newer, removed after a successful save.
// ---------------------------------------------------------------------------------------------

interface Backup {
  draft: MonthlyDraft;
  lastUpdated: string;
}

export const backupKey = (studentId: string, academicYear: string) => `monthlyFeeBackup:${studentId}:${academicYear}`;

export function readBackup(studentId: string, academicYear: string): Backup | null {
  try {
    const raw = localStorage.getItem(backupKey(studentId, academicYear));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Backup;
    return parsed && typeof parsed.lastUpdated === 'string' && parsed.draft && typeof parsed.draft.months === 'object' ? parsed : null;
  } catch {
    return null;
  }
}

export function writeBackup(studentId: string, academicYear: string, draft: MonthlyDraft): void {
  try {
    if (isEmptyDraft(draft)) localStorage.removeItem(backupKey(studentId, academicYear));
    else localStorage.setItem(backupKey(studentId, academicYear), JSON.stringify({ draft, lastUpdated: new Date().toISOString() } satisfies Backup));
  } catch {
    // storage full or private mode: the draft stays on screen
  }
}

export function removeBackup(studentId: string, academicYear: string): void {
  try {
    localStorage.removeItem(backupKey(studentId, academicYear));
  } catch {
    // nothing to remove
  }
}

export function isEmptyDraft(draft: MonthlyDraft): boolean {
  const months = Object.values(draft.months).some((m) => (m.tuition?.amount ?? '').trim() || (m.bus?.amount ?? '').trim());
  return !months && !draft.previous.amount.trim();
}

/**
 * The backup merged over the server's data when it is newer than the last save: heads saved since
 * (locked now) are dropped, so a restored draft never tries to change saved money.
 */
export function mergeBackup(backup: Backup | null, entries: MonthlyEntry[]): { draft: MonthlyDraft; restoredAt: string | null } {
  if (!backup) return { draft: emptyDraft(), restoredAt: null };
  const lastSave = entries.reduce((latest, e) => (e.submittedAt > latest ? e.submittedAt : latest), '');
  if (lastSave && backup.lastUpdated <= lastSave) return { draft: emptyDraft(), restoredAt: null };
  const saved = new Map(entries.map((e) => [e.monthKey, e]));
  const months: Record<string, MonthDraft> = {};
  for (const [key, m] of Object.entries(backup.draft.months)) {
    const kept: MonthDraft = {};
    for (const head of ['tuition', 'bus'] as const) if (m[head]?.amount && !isLocked(saved.get(key), head)) kept[head] = m[head];
    if (kept.tuition || kept.bus) months[key] = kept;
  }
  const draft = { months, previous: backup.draft.previous ?? { amount: '', date: '' } };
  return isEmptyDraft(draft) ? { draft: emptyDraft(), restoredAt: null } : { draft, restoredAt: backup.lastUpdated };
}
