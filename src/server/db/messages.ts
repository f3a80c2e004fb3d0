/** What the server and the commands (seed:demo, create-admin, backup, restore) say about DATA_DIR. */

export interface LockHolderText {
  holder: string;
  pid: number;
  hostname: string;
  startedAt: string;
}

const serverHolder = 'the School Ledger server';

export const dataDirTexts = {
  serverHolder,

  inUse: (dataDir: string, lock: LockHolderText, hint?: string): string =>
    [
      `The embedded database in ${dataDir} is in use by ${lock.holder}: process ${lock.pid} on ${lock.hostname}, started ${lock.startedAt}.`,
      'Only one program may open it at a time; a second one would damage it.',
      `Stop ${lock.holder === serverHolder ? 'the server' : 'it'} first (Ctrl+C in its window, or \`kill ${lock.pid}\`), then run this again.`,
      ...(hint ? [hint] : []),
    ].join('\n'),

  createAdminWhileServerRuns:
    'Or, with the server running: set ADMIN_EMAIL and ADMIN_PASSWORD and restart it; it creates (or resets) the administrator at start.',

  lockBusy: (dataDir: string): string =>
    `Another program is opening the embedded database in ${dataDir} right now. Try again in a few seconds.`,

  backupWhileServerRuns: (backupsDir: string): string =>
    `The running server already writes a backup every day (and before every upgrade) to ${backupsDir}.`,

  backupOnPostgres:
    'DATABASE_URL points to PostgreSQL: back it up with pg_dump (for example `pg_dump -Fc "$DATABASE_URL" > ledger.dump`) and restore with pg_restore.',

  nothingToBackUp: (dbDir: string): string => `There is no embedded database in ${dbDir} yet: nothing to back up.`,

  backupWritten: (file: string, bytes: number): string => `Backup written: ${file} (${(bytes / 1_048_576).toFixed(1)} MB).`,

  backupBeforeMigration: (file: string): string => `Backup before upgrading the database: ${file}`,

  dailyBackupWritten: (file: string): string => `Daily backup written: ${file}`,

  dailyBackupFailed: (message: string): string => `The daily backup failed: ${message}`,

  restoreUsage: 'Usage: npm run restore -- data/backups/ledger-20260410-053000.tar.gz',

  restoreNoFile: (file: string): string => `There is no backup file at ${file}.`,

  restoreUnreadable: (file: string, reason: string): string =>
    `${file} is not a School Ledger backup that opens (${reason}). Nothing was changed.`,

  restoreDone: (file: string, dbDir: string, keptAside: string | null): string =>
    [
      `Restored ${file} into ${dbDir}.`,
      keptAside ? `The database it replaced is kept in ${keptAside}; delete it once the restored one looks right.` : '',
      'Start the server with npm start.',
    ]
      .filter(Boolean)
      .join('\n'),

  restoreOnPostgres: 'DATABASE_URL points to PostgreSQL: restore it with pg_restore (see the README).',
};
