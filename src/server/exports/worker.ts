import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, isNotNull, lt, sql } from 'drizzle-orm';
import { formatIndiaDateTime } from '../../domain/dates';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { dataExports, schools } from '../db/schema';
import { rowsOf } from '../lib/sql-rows';
import { buildExport } from './build';

export interface ExportWorkerOptions {
  db: Db;
  clock: Clock;
  dataDir: string;
  log?: { warn: (obj: unknown, msg?: string) => void; error: (obj: unknown, msg?: string) => void };
  /** a running job is its worker's for this long, renewed at every progress step and by a timer */
  leaseMs?: number;
  /** how often that timer renews the lease while a job runs (default: a third of the lease) */
  renewEveryMs?: number;
  pageRows?: number;
}

/** A claimed job. `started_at` is the claim's own: a takeover writes a later one (see `run`). */
interface Claim {
  id: string;
  school_id: string;
  started_at: string;
}

/** The job was claimed by another process after this one's lease ran out: what this one built is dropped. */
class TakenOver extends Error {
  constructor() {
    super('the export was taken over by another worker');
  }
}

export const EXPORT_FAILED_MESSAGE = 'The export could not be finished. Please try again; if it fails again, contact support.';

/**
 * Runs whole-school exports in the background (docs/decisions/0036). There is no timer: a new
 * export nudges it, and at start it takes over whatever a stopped server left queued or running
 * (a running job whose lease ran out). One job at a time per process, so an export never takes
 * more than one of the machine's cores from the people collecting fees.
 */
export class ExportWorker {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly dataDir: string;
  private readonly leaseMs: number;
  private readonly renewEveryMs: number;
  private readonly pageRows: number | undefined;
  private readonly log: NonNullable<ExportWorkerOptions['log']>;
  private active: Promise<number> | null = null;
  private again = false;
  private closing = false;

  constructor(options: ExportWorkerOptions) {
    this.db = options.db;
    this.clock = options.clock;
    this.dataDir = options.dataDir;
    this.leaseMs = options.leaseMs ?? 120_000;
    this.renewEveryMs = options.renewEveryMs ?? Math.max(1_000, Math.floor(this.leaseMs / 3));
    this.pageRows = options.pageRows;
    this.log = options.log ?? { warn: () => {}, error: () => {} };
  }

  /** Start work now (or right after the job under way). */
  nudge(): void {
    if (this.closing) return;
    if (this.active) {
      this.again = true;
      return;
    }
    this.active = this.runAll().finally(() => {
      this.active = null;
      if (this.again && !this.closing) {
        this.again = false;
        this.nudge();
      }
    });
  }

  /** Runs every waiting job and resolves with how many ran; waits for a run already under way. */
  async runOnce(): Promise<number> {
    if (this.active) await this.active.catch(() => 0);
    this.active = this.runAll();
    try {
      return await this.active;
    } finally {
      this.active = null;
    }
  }

  async stop(): Promise<void> {
    this.closing = true;
    await this.active?.catch(() => 0);
  }

  private async runAll(): Promise<number> {
    let ran = 0;
    try {
      await this.removeExpired();
      while (!this.closing) {
        const job = await this.claim();
        if (!job) break;
        ran += 1;
        await this.run(job);
      }
    } catch (error) {
      this.log.error({ err: error }, 'export worker stopped on an error');
    }
    return ran;
  }

  private leaseEnd(): string {
    return new Date(this.clock.now().getTime() + this.leaseMs).toISOString();
  }

  /** Takes the oldest waiting job, or a running one whose worker stopped renewing its lease. */
  private async claim(): Promise<Claim | null> {
    const now = this.clock.now().toISOString();
    const rows = rowsOf<Claim>(
      await this.db.execute(sql`
        update data_exports set status = 'running', progress = 0, started_at = ${now}::timestamptz, lease_until = ${this.leaseEnd()}::timestamptz
        where id = (
          select id from data_exports
          where status = 'queued' or (status = 'running' and lease_until < ${now}::timestamptz)
          order by created_at limit 1 for update skip locked
        )
        returning id::text as id, school_id::text as school_id, started_at::text as started_at`),
    );
    return rows[0] ?? null;
  }

  /**
   * Builds one claimed job. The lease is renewed by a timer as well as at each progress step: the
   * count, the workbook's commit and the zip report no progress, and a large school's took longer
   * than the lease, so another process claimed the job still being built and both wrote the same
   * files (decision 0036). Every write of the job's row names this claim (`owned`); the files are
   * built under a name of this run's own and moved to the download's name only while the job is
   * still this worker's, so a run that lost its job removes only what it wrote.
   */
  private async run(job: Claim): Promise<void> {
    const relative = path.join('exports', `${job.id}.zip`);
    const target = path.join(this.dataDir, relative);
    const built = path.join(this.dataDir, 'exports', `${job.id}.${randomUUID().slice(0, 8)}.zip`);
    const owned = and(eq(dataExports.id, job.id), eq(dataExports.status, 'running'), sql`${dataExports.startedAt} = ${job.started_at}::timestamptz`);
    let lost = false;
    const renew = async (progress?: number) => {
      const kept = await this.db
        .update(dataExports)
        .set({ ...(progress === undefined ? {} : { progress }), leaseUntil: new Date(this.leaseEnd()) })
        .where(owned)
        .returning({ id: dataExports.id });
      if (kept.length === 0) lost = true;
      if (lost) throw new TakenOver();
    };
    const heartbeat = setInterval(() => {
      renew().catch((error: unknown) => {
        if (!(error instanceof TakenOver)) this.log.warn({ err: error, exportId: job.id }, 'could not renew the export lease');
      });
    }, this.renewEveryMs);
    heartbeat.unref();
    try {
      await mkdir(path.dirname(target), { recursive: true });
      await this.removeLeftovers(job.id, path.basename(built));
      const [school] = await this.db.select({ name: schools.name }).from(schools).where(eq(schools.id, job.school_id)).limit(1);
      const result = await buildExport({
        db: this.db,
        schoolId: job.school_id,
        schoolName: school?.name ?? '',
        generatedAt: formatIndiaDateTime(this.clock.now()),
        target: built,
        pageRows: this.pageRows,
        onProgress: (percent) => renew(percent),
      });
      await renew();
      await rename(built, target);
      await this.db
        .update(dataExports)
        .set({ status: 'done', progress: 100, filePath: relative, sizeBytes: result.sizeBytes, finishedAt: this.clock.now(), leaseUntil: null, error: null })
        .where(owned);
    } catch (error) {
      await rm(built, { force: true }).catch(() => {});
      if (error instanceof TakenOver || lost) {
        this.log.warn({ exportId: job.id }, 'data export taken over by another worker; this run dropped what it built');
        return;
      }
      this.log.error({ err: error, exportId: job.id }, 'data export failed');
      const failed = await this.db
        .update(dataExports)
        .set({ status: 'failed', error: EXPORT_FAILED_MESSAGE, finishedAt: this.clock.now(), leaseUntil: null })
        .where(owned)
        .returning({ id: dataExports.id });
      if (failed.length > 0) await rm(target, { force: true }).catch(() => {});
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Files of the job's earlier runs that stopped (a server that died mid-build): not the download, not this run's. */
  private async removeLeftovers(id: string, keep: string): Promise<void> {
    const dir = path.join(this.dataDir, 'exports');
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (name.startsWith(`${id}.`) && name !== `${id}.zip` && !name.startsWith(keep)) await rm(path.join(dir, name), { recursive: true, force: true });
    }
  }

  /** Deletes the zips past their expiry; the rows stay as the record that an export was made. */
  private async removeExpired(): Promise<void> {
    const expired = await this.db
      .select({ id: dataExports.id, filePath: dataExports.filePath })
      .from(dataExports)
      .where(and(isNotNull(dataExports.filePath), lt(dataExports.expiresAt, this.clock.now())));
    for (const row of expired) {
      await rm(path.join(this.dataDir, row.filePath!), { force: true });
      await this.db.update(dataExports).set({ filePath: null }).where(eq(dataExports.id, row.id));
    }
  }
}
