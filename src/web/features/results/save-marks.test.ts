import { describe, expect, it } from 'vitest';
import type { BulkResultsInput, ResultEntryInput } from '@/domain/results';
import { saveMarksInChunks, type SaveStage } from './save-marks';

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
