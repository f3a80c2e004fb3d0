import { BULK_MAX_ENTRIES, type BulkResultsInput, type ResultEntryInput } from '@/domain/results';
import type { BulkAnswer } from './api';

/**
 * The marks save with a progress bar that follows the real work (ruling 18): the server checks
 * every changed entry first (nothing stored), then the entries go in chunks and the bar moves as
 * each chunk is stored, then the class is read back.
 */

export const SAVE_CHUNK = 50;

export interface SaveStage {
  label: string;
  percent: number;
  detail?: string;
}

export interface SaveRun {
  entries: ResultEntryInput[];
  className: string;
  section: string;
  save: (body: BulkResultsInput) => Promise<BulkAnswer>;
  /** reads the saved marks back (the new baseline) */
  finalize: () => Promise<void>;
  onStage: (stage: SaveStage) => void;
  chunkSize?: number;
}

const chunksOf = <T,>(list: T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
};

export async function saveMarksInChunks({ entries, className, section, save, finalize, onStage, chunkSize = SAVE_CHUNK }: SaveRun): Promise<{ saved: number; unchanged: number }> {
  onStage({ label: 'Initializing', percent: 2 });
  const n = entries.length;
  onStage({ label: `Processing ${n} changed ${n === 1 ? 'entry' : 'entries'}`, percent: 5 });

  onStage({ label: 'Validating data', percent: 10 });
  for (const part of chunksOf(entries, BULK_MAX_ENTRIES)) {
    await save({ class: className, section, validateOnly: true, results: part });
  }

  const chunks = chunksOf(entries, chunkSize);
  let done = 0;
  let saved = 0;
  let unchanged = 0;
  const savingPercent = () => 15 + Math.round((80 * done) / n);
  onStage({ label: 'Saving to database', percent: savingPercent(), detail: `0 of ${n} entries stored` });
  for (const chunk of chunks) {
    const answer = await save({ class: className, section, results: chunk });
    saved += answer.saved;
    unchanged += answer.unchanged;
    done += chunk.length;
    onStage({ label: 'Saving to database', percent: savingPercent(), detail: `${done} of ${n} entries stored` });
  }

  onStage({ label: 'Finalizing', percent: 97 });
  await finalize();
  onStage({ label: 'Finalizing', percent: 100, detail: 'All changes saved' });
  return { saved, unchanged };
}
