import { rejectedRowsCsv, type DuplicateMatch } from '@/domain/student-import';
import { getToken } from '@/web/lib/auth-storage';
import { api } from '@/web/lib/request';

/** Template columns of operations §5, in their order. */
export const TEMPLATE_COLUMNS = [
  'name',
  'class',
  'section',
  'father_name',
  'mother_name',
  'mobile_number',
  'aadhar_number',
  'residence',
  'monthly_bus_fee',
  'parent_name',
  'parent_phone',
  'parent_email',
  'parent_whatsapp',
] as const;

export const TEMPLATE_FILE_NAME = 'bulk-student-import-template.csv';

const EXAMPLE_ROWS = [
  ['Aarav Sharma', 'Class 5', 'A', 'Rakesh Sharma', 'Sunita Sharma', '9876543210', '', 'Lal Chowk, Srinagar', '500', 'Rakesh Sharma', '9876543210', 'rakesh@example.com', '9876543210'],
  ['Zoya Khan', 'LKG', 'B', 'Imran Khan', 'Sana Khan', '9123456780', '', 'Rajbagh, Srinagar', '0', 'Imran Khan', '9123456780', '', '9123456780'],
];

/** The template: the header and two example rows to overwrite. */
export function templateCsv(): string {
  const quote = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
  return [TEMPLATE_COLUMNS.join(','), ...EXAMPLE_ROWS.map((row) => row.map(quote).join(','))].join('\n') + '\n';
}

/** Builds the template in the browser and hands it to the user as a download. */
export function downloadTemplate(): void {
  downloadCsv(templateCsv(), TEMPLATE_FILE_NAME);
}

export const REJECTED_FILE_NAME = 'rejected-rows.csv';

/** The rows not imported, with an Errors column, to fix and import again (neutralised cells). */
export function downloadRejectedRows(csv: string, errors: ReadonlyArray<BulkRowError>): void {
  downloadCsv(rejectedRowsCsv(csv, errors), REJECTED_FILE_NAME);
}

function downloadCsv(text: string, fileName: string): void {
  const blob = new Blob([text], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export interface BulkProgress {
  processed: number;
  total: number;
  imported: number;
  errors: number;
  currentStudent: string;
}

export interface BulkRowError {
  row: number;
  name: string;
  reason: string;
  /** every problem of the row */
  reasons: string[];
}

export interface BulkDuplicate {
  row: number;
  name: string;
  matches: DuplicateMatch[];
  /** "Same Aadhaar number as Aarav Sharma, Class 5-A, already in the school" */
  description: string[];
}

/** The check before importing: nothing is written. */
export interface BulkCheck {
  total: number;
  ready: number;
  errors: BulkRowError[];
  duplicates: BulkDuplicate[];
}

export const checkBulkImport = (csv: string) => api.post<BulkCheck>('/api/students/bulk-check', { csv });

export interface BulkResult {
  imported: number;
  errors: BulkRowError[];
  skipped: Array<{ row: number; name: string; reason: string }>;
  sections: { class: string; section: string; count: number }[];
}

export type BulkEvent = ({ type: 'progress' } & BulkProgress) | { type: 'complete'; result: BulkResult } | { type: 'error'; message: string };

/** A failed import: the message is what the Import Failed toast shows. */
export class BulkImportError extends Error {}

/**
 * Splits a `data:` stream into events. Chunks may end mid-line, so the unfinished tail waits for
 * the next chunk; lines that are not `data:` (comments, blank separators) are skipped.
 */
export function createEventLineParser(onEvent: (event: BulkEvent) => void) {
  let buffer = '';
  const line = (text: string) => {
    const trimmed = text.trim();
    if (!trimmed.startsWith('data:')) return;
    const payload = trimmed.slice(5).trim();
    if (!payload) return;
    onEvent(JSON.parse(payload) as BulkEvent);
  };
  return {
    push(chunk: string) {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      lines.forEach(line);
    },
    end() {
      if (buffer) line(buffer);
      buffer = '';
    },
  };
}

/**
 * Sends the CSV to the import stream with the session token (ruling 23) and reports progress as
 * the server works through the rows. Resolves with the final result; rejects with a
 * BulkImportError whose message explains what went wrong.
 */
export async function streamBulkImport(
  csv: string,
  importAnyway: number[],
  onProgress: (progress: BulkProgress) => void,
  signal?: AbortSignal,
): Promise<BulkResult> {
  const token = getToken();
  let response: Response;
  try {
    response = await fetch('/api/students/bulk-progress', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ csv, importAnyway }),
      signal,
    });
  } catch {
    throw new BulkImportError('Network error. Please check your connection and try again.');
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    let message = '';
    try {
      const body = JSON.parse(text) as { error?: unknown };
      if (typeof body.error === 'string') message = body.error;
    } catch {
      message = text.slice(0, 300);
    }
    throw new BulkImportError(`HTTP ${response.status}: ${message || response.statusText || 'Import request failed'}`);
  }
  if (!response.body) throw new BulkImportError('Unable to read response stream');

  const outcome: { result: BulkResult | null; failure: string | null } = { result: null, failure: null };
  const parser = createEventLineParser((event) => {
    if (event.type === 'progress') onProgress(event);
    else if (event.type === 'complete') outcome.result = event.result;
    else if (event.type === 'error') outcome.failure = event.message;
  });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
    parser.end();
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new BulkImportError(error instanceof SyntaxError ? 'Unable to read response stream' : 'The connection was lost during the import. Check the student list before retrying.');
  }
  if (outcome.failure) throw new BulkImportError(outcome.failure);
  if (!outcome.result) throw new BulkImportError('The import stopped before it finished. Check the student list before retrying.');
  return outcome.result;
}

/** "Class 5-A (20), Class 5-B (5)" */
export function sectionsText(sections: BulkResult['sections']): string {
  return sections.map((s) => `${s.class}-${s.section} (${s.count})`).join(', ');
}

/** The success toast: how many, into which sections, how many errors (operations §8). */
export function importSummary(result: BulkResult): string {
  const students = `${result.imported} ${result.imported === 1 ? 'student' : 'students'}`;
  const where = result.sections.length ? ` into ${sectionsText(result.sections)}` : '';
  const errors = `${result.errors.length} ${result.errors.length === 1 ? 'error' : 'errors'}`;
  const skipped = result.skipped.length ? ` ${result.skipped.length} possible ${result.skipped.length === 1 ? 'duplicate' : 'duplicates'} skipped.` : '';
  return `Imported ${students}${where}. ${errors}.${skipped}`;
}
