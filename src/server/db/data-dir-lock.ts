import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { dataDirTexts, type LockHolderText } from './messages';

/**
 * One program at a time on the embedded database (decision 0023). PGlite has no locking of its own:
 * two processes on one data directory each keep their own copy of the pages in memory and overwrite
 * each other's files, which is how a `seed:demo` next to a running server destroyed a school's data.
 *
 * The lock is a file created with O_EXCL (`wx`) holding who took it. It dies with its process: a
 * lock whose process is gone (checked with signal 0, and on Linux with the process's start time so a
 * recycled PID after a container restart does not count) is taken over.
 */

export const lockFileName = 'db.lock';

interface LockInfo extends LockHolderText {
  /** /proc/<pid>/stat start time on Linux: tells a live lock holder from a process that reused its PID */
  processStart: string | null;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly lock: LockHolderText,
    hint?: string,
  ) {
    super(dataDirTexts.inUse(dataDir, lock, hint));
    this.name = 'DataDirInUseError';
  }
}

export interface DataDirLock {
  file: string;
  release(): void;
}

/** Lock files this process holds: a second opener inside the same process is refused too. */
const heldHere = new Set<string>();

/** Ours, or a takeover in progress that died: a guard file older than this is abandoned. */
const guardTimeoutMs = 10_000;

/**
 * Takes DATA_DIR's lock for `holder` (named in the refusal others see), or throws DataDirInUseError
 * naming the live process that has it. `hint` is added to that refusal (e.g. where backups are).
 */
export function lockDataDir(dataDir: string, holder: string, options: { hint?: string } = {}): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, lockFileName);
  const mine: LockInfo = {
    holder,
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    processStart: processStartTime(process.pid),
  };
  const text = JSON.stringify(mine);

  for (let attempt = 0; attempt < 100; attempt++) {
    if (createExclusive(file, text)) return holdLock(file, text);
    const current = readLock(file);
    if (current === 'gone') continue;
    if (current === 'being-written') {
      sleep(50);
      continue;
    }
    if (isAlive(file, current.info)) throw new DataDirInUseError(dataDir, current.info, options.hint);
    removeStaleLock(file, current.raw);
  }
  throw new Error(dataDirTexts.lockBusy(dataDir));
}

function holdLock(file: string, text: string): DataDirLock {
  heldHere.add(file);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    heldHere.delete(file);
    process.removeListener('exit', release);
    // only our own lock: never one a later opener took over after a mistake elsewhere
    if (readRaw(file) === text) unlinkQuietly(file);
  };
  // process.exit() without closing the database still frees the data directory
  process.on('exit', release);
  return { file, release };
}

function createExclusive(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o644);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

type ReadLock = 'gone' | 'being-written' | { raw: string; info: LockInfo };

function readLock(file: string): ReadLock {
  const raw = readRaw(file);
  if (raw === null) return 'gone';
  const info = parseLock(raw);
  if (info) return { raw, info };
  // created but not yet written by its owner, or garbage left by a crash mid-write
  if (ageMs(file) < guardTimeoutMs) return 'being-written';
  return { raw, info: { holder: 'an unknown program', pid: 0, hostname: '?', startedAt: '?', processStart: null } };
}

function parseLock(raw: string): LockInfo | null {
  try {
    const value = JSON.parse(raw) as Partial<LockInfo>;
    if (typeof value.pid !== 'number' || typeof value.holder !== 'string') return null;
    return {
      holder: value.holder,
      pid: value.pid,
      hostname: String(value.hostname ?? '?'),
      startedAt: String(value.startedAt ?? '?'),
      processStart: typeof value.processStart === 'string' ? value.processStart : null,
    };
  } catch {
    return null;
  }
}

function isAlive(file: string, info: LockInfo): boolean {
  if (info.pid <= 0) return false;
  // our own PID: alive only if this process really holds it (a restarted container often gets
  // the same PID as the server that ran before it)
  if (info.pid === process.pid) return heldHere.has(file);
  try {
    process.kill(info.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user
    if (errorCode(error) !== 'EPERM') return false;
  }
  if (info.processStart === null) return true;
  const now = processStartTime(info.pid);
  return now === null || now === info.processStart;
}

/**
 * Two openers may find the same stale lock at once; a guard file makes only one of them remove it,
 * and only if it is still the stale lock they read (not a fresh lock the other one just took).
 */
function removeStaleLock(file: string, staleRaw: string): void {
  const guard = `${file}.takeover`;
  if (!createExclusive(guard, String(process.pid))) {
    if (ageMs(guard) > guardTimeoutMs) unlinkQuietly(guard);
    else sleep(50);
    return;
  }
  try {
    if (readRaw(file) === staleRaw) unlinkQuietly(file);
  } finally {
    unlinkQuietly(guard);
  }
}

/** Field 22 of /proc/<pid>/stat (ticks after boot); null where there is no /proc. */
function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: count from its closing one
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function readRaw(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
