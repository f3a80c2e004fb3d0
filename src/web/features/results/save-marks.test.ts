import { describe, expect, it } from 'vitest';
import type { BulkResultsInput, ResultEntryInput } from '@/domain/results';
import type { ClassResults, ResultRow } from './api';
import { saveMarksInChunks, type SaveStage } from './save-marks';
import { applyCellEdits, baselineOf, loadedMarks, rebaseDraft, summarizeDraft, toBulkEntries, type MarksDraft } from './use-marks-draft';

const entries = (n: number): ResultEntryInput[] =>
  Array.from({ length: n }, (_, i) => ({ studentId: `s${i}`, academicSession: '2025-2026', subject: 'English', sa: '10' }));

describe('saveMarksInChunks', () => {
  it('validates everything first, then stores chunk by chunk, moving the bar as each is stored', async () => {
    const calls: BulkResultsInput[] = [];
    const stages: SaveStage[] = [];
    let finalized = false;
    const out = await saveMarksInChunks({
      entries: entries(120),
      className: 'Class 5',
      section: 'A',
      chunkSize: 50,
      save: async (body) => {
        calls.push(body);
        return { success: true, saved: body.validateOnly ? 0 : body.results.length - 1, unchanged: body.validateOnly ? 0 : 1, validateOnly: Boolean(body.validateOnly) };
      },
      finalize: async () => {
        finalized = true;
      },
      onStage: (s) => stages.push(s),
    });
    expect(calls.map((c) => [c.validateOnly ?? false, c.results.length])).toEqual([[true, 120], [false, 50], [false, 50], [false, 20]]);
    expect(calls.every((c) => c.class === 'Class 5' && c.section === 'A')).toBe(true);
    expect(out).toEqual({ saved: 117, unchanged: 3 });
    expect(finalized).toBe(true);
    expect(stages.map((s) => s.label)).toEqual([
      'Initializing',
      'Processing 120 changed entries',
      'Validating data',
      'Saving to database',
      'Saving to database',
      'Saving to database',
      'Saving to database',
      'Finalizing',
      'Finalizing',
    ]);
    const saving = stages.filter((s) => s.label === 'Saving to database');
    expect(saving.map((s) => s.detail)).toEqual(['0 of 120 entries stored', '50 of 120 entries stored', '100 of 120 entries stored', '120 of 120 entries stored']);
    // the bar only moves forward and ends at 100
    const percents = stages.map((s) => s.percent);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
    expect(percents.at(-1)).toBe(100);
  });

  it('stops at the first failure: no later chunk is sent', async () => {
    let sent = 0;
    const run = saveMarksInChunks({
      entries: entries(10),
      className: 'Class 5',
      section: 'A',
      chunkSize: 4,
      save: async (body) => {
        if (body.validateOnly) throw new Error('Aarav Sharma — Mathematics: CA must be between 0 and 20');
        sent += 1;
        return { success: true, saved: 0, unchanged: 0, validateOnly: false };
      },
      finalize: async () => {},
      onStage: () => {},
    });
    await expect(run).rejects.toThrow('Aarav Sharma — Mathematics: CA must be between 0 and 20');
    expect(sent).toBe(0);
  });
});

describe('what a save sends: each changed cell with the marks it was loaded as', () => {
  const blank = { f1: '', f2: '', f3: '', f4: '', f5: '', f6: '', ca: '', sa: '' };
  const stored = (studentId: string, subjectId: string, marks: Partial<Record<keyof typeof blank, string>>): ResultRow => ({
    id: `${studentId}-${subjectId}`,
    studentId,
    subjectId,
    subject: subjectId === 'maths' ? 'Mathematics' : 'English',
    academicSession: '2025-2026',
    f1: null, f2: null, f3: null, f4: null, f5: null, f6: null, ca: null, sa: null,
    ...marks,
    fa: '', totalMarks: '', percent: '', grade: '', remarks: '', updatedAt: '',
  });
  const classWith = (results: ResultRow[]): ClassResults => ({
    academicSession: '2025-2026',
    class: 'Class 5',
    section: 'A',
    subjects: [{ id: 'maths', name: 'Mathematics' }, { id: 'english', name: 'English' }],
    students: [{ id: 'asha', name: 'Asha Kaul', rollNumber: 1, admissionNumber: null }, { id: 'rohan', name: 'Rohan Dar', rollNumber: 2, admissionNumber: null }],
    results,
  });
  const subjectName = (id: string) => (id === 'maths' ? 'Mathematics' : 'English');

  /** The save of the grid's state as the marks tab runs it, with the bodies the server would get. */
  const saveOf = async (draft: MarksDraft, baseline: ReturnType<typeof baselineOf>) => {
    const loadedAs = loadedMarks(baseline, draft.loadedAt);
    const { changed } = summarizeDraft(draft.edits, loadedAs);
    const bodies: BulkResultsInput[] = [];
    await saveMarksInChunks({
      entries: toBulkEntries(changed, subjectName, '2025-2026'),
      className: 'Class 5',
      section: 'A',
      save: async (body) => {
        bodies.push(body);
        return { success: true, saved: body.results.length, unchanged: 0, validateOnly: Boolean(body.validateOnly) };
      },
      finalize: async () => {},
      onStage: () => {},
    });
    return bodies.filter((b) => !b.validateOnly).flatMap((b) => b.results);
  };

  it('sends the loaded marks of each changed cell from the baseline, next to the marks as typed', async () => {
    const baseline = baselineOf(classWith([stored('asha', 'maths', { f2: '3', sa: '40' })]));
    const draft = applyCellEdits({ edits: {}, loadedAt: {} }, baseline, [
      { studentId: 'asha', subjectId: 'maths', field: 'ca', value: ' 8 ' },
      { studentId: 'rohan', subjectId: 'english', field: 'f1', value: '4.5' },
    ]);
    expect(await saveOf(draft, baseline)).toEqual([
      { studentId: 'asha', academicSession: '2025-2026', subject: 'Mathematics', ...blank, f2: '3', ca: '8', sa: '40', loaded: { ...blank, f2: '3', sa: '40' } },
      { studentId: 'rohan', academicSession: '2025-2026', subject: 'English', ...blank, f1: '4.5', loaded: blank },
    ]);
  });

  it('keeps sending what the edits were typed over when the class is read again before the save', async () => {
    const before = baselineOf(classWith([]));
    const draft = applyCellEdits({ edits: {}, loadedAt: {} }, before, [{ studentId: 'asha', subjectId: 'maths', field: 'ca', value: '8' }]);
    // someone else's F1 arrives with a new read: F1 is still sent as this page had it, and as loaded
    const after = baselineOf(classWith([stored('asha', 'maths', { f1: '4' })]));
    const [entry] = await saveOf(draft, after);
    expect(entry).toMatchObject({ f1: '', ca: '8', loaded: blank });
  });

  it('after a refused save: untouched marks show what is stored now, a mark someone else changed too shows theirs, the rest stay typed', async () => {
    const before = baselineOf(classWith([]));
    const draft = applyCellEdits({ edits: {}, loadedAt: {} }, before, [
      { studentId: 'asha', subjectId: 'maths', field: 'f1', value: '3' },
      { studentId: 'asha', subjectId: 'maths', field: 'ca', value: '9' },
    ]);
    const fresh = baselineOf(classWith([stored('asha', 'maths', { f1: '4', f2: '2' })]));
    const moved = rebaseDraft(draft, fresh);
    expect(moved.edits.asha?.maths).toEqual({ ...blank, f1: '4', f2: '2', ca: '9' });
    expect(await saveOf(moved, fresh)).toEqual([
      expect.objectContaining({ f1: '4', f2: '2', ca: '9', loaded: { ...blank, f1: '4', f2: '2' } }),
    ]);
  });
});
