/** Every text of the data export card, in one place (a Hindi file can sit beside it later). */
export const EXPORT_TEXTS = {
  title: "Export your school's data",
  description:
    'Your school owns its data. Download everything in one zip: students, enrolments, receipts and their lines, cancellations, carried balances, fee structures, sessions, expenses, results, passouts and the audit log.',
  contents: 'A CSV file and an Excel sheet for each, and a README that explains every column. Aadhaar numbers stay masked.',
  readOnlyNote: 'Works even when your plan has ended.',
  start: 'Export all data',
  starting: 'Starting…',
  again: 'Export again',
  queued: 'Waiting to start…',
  running: (percent: number) => `Preparing your export… ${percent}%`,
  progressLabel: 'Export progress',
  ready: 'Your export is ready',
  readyDetail: (size: string, until: string) => `${size} zip · available until ${until}`,
  download: 'Download zip',
  downloading: 'Downloading…',
  failed: 'The export failed',
  expired: (date: string) => `Your last export (${date}) has expired. Start a new one to download your data.`,
  startFailed: 'Could not start the export',
  downloadFailed: 'Download failed',
  fileName: 'school-ledger-export.zip',
} as const;

/** "1.2 MB", "840 KB": the size of the zip. */
export function sizeText(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
