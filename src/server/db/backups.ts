import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Periodic } from '../lib/periodic';
import { lockDataDir } from './data-dir-lock';
import { dataDirTexts } from './messages';

/**
 * Backups of the embedded database (decision 0024): PGlite's own dump of its data directory, a
 * gzipped tarball that `PGlite.create({ loadDataDir })` opens again. Written to DATA_DIR/backups as
 * ledger-YYYYMMDD-HHMMSS[-label].tar.gz (UTC), before pending migrations and once a day, kept 14 days.
 */

export const keepDays = 14;
const dayMs = 24 * 60 * 60 * 1000;
const backupName = /^ledger-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})(?:-[a-z0-9-]+)?\.tar\.gz$/;
const partialSuffix = '.partial';

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

export function backupsDir(dataDir: string): string {
  return path.join(dataDir, 'backups');
}

export function embeddedDbDir(dataDir: string): string {
  return path.join(dataDir, 'db');
}

function stamp(at: Date): string {
  return at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/**
 * Dumps the open database to a new backup file and prunes old ones. The dump waits for running
 * transactions (PGlite's transaction queue), so a backup never holds half of a receipt.
 */
export async function writeBackup(client: PGlite, dataDir: string, options: { now: Date; label?: string }): Promise<string> {
  const dir = backupsDir(dataDir);
  mkdirSync(dir, { recursive: true });
  const dump = await client._runExclusiveTransaction(() => client.dumpDataDir('gzip'));
  const bytes = new Uint8Array(await dump.arrayBuffer());
  const base = `ledger-${stamp(options.now)}${options.label ? `-${options.label}` : ''}`;
  let name = `${base}.tar.gz`;
  for (let n = 2; existsSync(path.join(dir, name)); n++) name = `${base}-${n}.tar.gz`;
  const file = path.join(dir, name);
  writeAtomically(file, bytes);
  pruneBackups(dataDir, options.now);
  return file;
}

/** A reader sees the whole backup or none: temp file, fsync, rename, fsync of the folder. */
function writeAtomically(file: string, bytes: Uint8Array): void {
  const temp = `${path.join(path.dirname(file), `.${path.basename(file)}`)}.${process.pid}${partialSuffix}`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
  try {
    const dirFd = openSync(path.dirname(file), 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // some platforms cannot fsync a directory; the rename is still atomic
  }
}

export interface BackupFile {
  file: string;
  takenAt: Date;
}

/** The backups in DATA_DIR/backups, newest first, by the time in their names. */
export function listBackups(dataDir: string): BackupFile[] {
  const dir = backupsDir(dataDir);
  if (!existsSync(dir)) return [];
  const found: BackupFile[] = [];
  for (const name of readdirSync(dir)) {
    const m = backupName.exec(name);
    if (!m) continue;
    const [, y, mo, d, h, mi, s] = m;
    found.push({ file: path.join(dir, name), takenAt: new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`) });
  }
  return found.sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime() || b.file.localeCompare(a.file));
}

/** Deletes backups older than 14 days, never the newest one; and temp files a crash left behind. */
export function pruneBackups(dataDir: string, now: Date): string[] {
  const [, ...older] = listBackups(dataDir);
  const removed: string[] = [];
  for (const backup of older) {
    if (now.getTime() - backup.takenAt.getTime() > keepDays * dayMs) {
      rmSync(backup.file, { force: true });
      removed.push(backup.file);
    }
  }
  const dir = backupsDir(dataDir);
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (name.endsWith(partialSuffix) && now.getTime() - statSync(file).mtimeMs > dayMs) rmSync(file, { force: true });
  }
  return removed;
}

/** Takes a backup when the newest one is a day old (or there is none); false when none was due. */
export async function backupIfDue(client: PGlite, dataDir: string, now: Date): Promise<string | null> {
  const newest = listBackups(dataDir)[0];
  if (newest && now.getTime() - newest.takenAt.getTime() < dayMs) return null;
  return writeBackup(client, dataDir, { now });
}

export interface BackupSchedule {
  stop(): Promise<void>;
}

/**
 * While the server runs: a check every hour (and one shortly after start) that takes the day's
 * backup when due, so a server restarted often still gets one a day. The timer never keeps the
 * process alive; stop() waits for a backup in progress before the database closes.
 */
export function startDailyBackups(
  client: PGlite,
  dataDir: string,
  options: { now?: () => Date; checkEveryMs?: number; firstCheckMs?: number; log?: (line: string) => void } = {},
): BackupSchedule {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((line: string) => console.log(line));
  const job = new Periodic({
    everyMs: options.checkEveryMs ?? 60 * 60 * 1000,
    firstAfterMs: options.firstCheckMs ?? 60_000,
    look: async () => {
      const file = await backupIfDue(client, dataDir, now());
      if (file) log(dataDirTexts.dailyBackupWritten(file));
    },
    onError: (error) => log(dataDirTexts.dailyBackupFailed(error instanceof Error ? error.message : String(error))),
  });
  job.start();
  return { stop: () => job.stop() };
}

/**
 * npm run restore: replaces DATA_DIR/db with a backup. Refused while anything holds the data
 * directory; the backup is unpacked and opened beside the current database first, and the current
 * one is kept as db.before-restore-<stamp>, never deleted.
 */
export async function restoreBackup(
  dataDir: string,
  file: string,
  options: { holder: string; now?: Date },
): Promise<{ dbDir: string; keptAside: string | null }> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupError(dataDirTexts.restoreNoFile(file));
  const lock = lockDataDir(dataDir, options.holder);
  try {
    const at = stamp(options.now ?? new Date());
    const dbDir = embeddedDbDir(dataDir);
    const staging = path.join(dataDir, `db.restoring-${at}`);
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    try {
      await checkOpens(staging, readFileSync(file));
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      throw new BackupError(dataDirTexts.restoreUnreadable(file, error instanceof Error ? error.message : String(error)));
    }
    let keptAside: string | null = null;
    if (existsSync(dbDir)) {
      keptAside = path.join(dataDir, `db.before-restore-${at}`);
      renameSync(dbDir, keptAside);
    }
    renameSync(staging, dbDir);
    return { dbDir, keptAside };
  } finally {
    lock.release();
  }
}

/** Unpacks the backup into `dir` and reads from it: a file that is not a School Ledger database fails here. */
async function checkOpens(dir: string, bytes: Buffer): Promise<void> {
  const client = await PGlite.create({ dataDir: dir, loadDataDir: new Blob([new Uint8Array(bytes)]) });
  try {
    await client.query('select count(*) from drizzle.__drizzle_migrations');
  } finally {
    await client.close();
  }
}
