import type { Clock } from '../clock';

/** Waits after the 1st, 2nd, … failed attempt; after the last one the row is marked failed. */
export const DEFAULT_RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000, 6 * 60 * 60_000];

export interface OutboxWorkerOptions {
  clock: Clock;
  /** how often to look for due rows when nothing nudges the worker */
  pollMs?: number;
  /** one delay per retry; attempts = delays + 1 */
  retryDelaysMs?: readonly number[];
  /** the longest one send may take before it counts as failed */
  sendTimeoutMs?: number;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * The background half of every outbox (mail, reminder messages; decision 0014, ruling 31): polls,
 * wakes at once when nudged after a response that queued something, sends due rows one at a time
 * until none is left, and stops cleanly. What a row is, how it is claimed (SKIP LOCKED and a lease)
 * and how it is sent belong to the subclass; the loop, its timing and the backoff are kept here once.
 */
export abstract class OutboxWorker<Row> {
  protected readonly clock: Clock;
  protected readonly retryDelaysMs: readonly number[];
  protected readonly sendTimeoutMs: number;
  /** a row being sent stays claimed this long; a worker that died mid-send is taken over after it */
  protected readonly leaseMs: number;
  protected readonly log: NonNullable<OutboxWorkerOptions['log']>;
  private readonly pollMs: number;
  private started = false;
  private closing = false;
  private timer: NodeJS.Timeout | undefined;
  private active: Promise<number> | null = null;
  private pending: Promise<number> | null = null;
  private seenGeneration: number;

  constructor(
    options: OutboxWorkerOptions,
    defaults: { sendTimeoutMs: number },
    /** the outbox's count of queued rows so far: a change since the last look means work */
    private readonly generation: () => number,
  ) {
    this.clock = options.clock;
    this.pollMs = options.pollMs ?? 5_000;
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.sendTimeoutMs = options.sendTimeoutMs ?? defaults.sendTimeoutMs;
    this.leaseMs = this.sendTimeoutMs + 60_000;
    this.log = options.log ?? { warn: () => {}, error: () => {} };
    this.seenGeneration = generation();
  }

  /** Takes the next due row for this worker, or nothing when none is due. */
  protected abstract claim(): Promise<Row | undefined>;
  /** Sends one claimed row and records the outcome (sent, or the failure and its retry). */
  protected abstract deliver(row: Row): Promise<void>;
  /** Logged when the outbox cannot be read at all. */
  protected abstract readonly readFailure: string;

  get maxAttempts(): number {
    return this.retryDelaysMs.length + 1;
  }

  /** The wait before the next try after `attempts` failed ones; undefined: give up. */
  protected retryDelay(attempts: number): number | undefined {
    return this.retryDelaysMs[attempts - 1];
  }

  start(): void {
    if (this.started || this.closing) return;
    this.started = true;
    this.schedule(0);
  }

  /** Stops polling and waits for the row being sent (if any); sends nothing more afterwards. */
  async stop(): Promise<void> {
    this.closing = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.allSettled([this.active, this.pending]);
  }

  /** Looks for due rows now instead of at the next poll. */
  nudge(): void {
    if (this.started && !this.closing) this.schedule(0);
  }

  /** Nudges when something was queued since the last look (called after each response). */
  nudgeIfQueued(): void {
    const now = this.generation();
    if (this.seenGeneration === now) return;
    this.seenGeneration = now;
    this.nudge();
  }

  /**
   * Sends every row due now and resolves with how many were attempted. A call while a run is
   * going waits for it and then runs again, so a row queued meanwhile is not left for the next poll.
   */
  runOnce(): Promise<number> {
    if (this.pending) return this.pending;
    if (!this.active) {
      this.active = this.drain().finally(() => {
        this.active = null;
      });
      return this.active;
    }
    this.pending = this.active
      .catch(() => 0)
      .then(() => {
        this.pending = null;
        return this.runOnce();
      });
    return this.pending;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), ms);
    this.timer.unref();
  }

  private tick(): void {
    this.timer = undefined;
    this.runOnce()
      .catch((error: unknown) => this.log.error({ err: error }, this.readFailure))
      .finally(() => {
        if (!this.closing && !this.timer) this.schedule(this.pollMs);
      });
  }

  private async drain(): Promise<number> {
    let attempted = 0;
    this.seenGeneration = this.generation();
    while (!this.closing) {
      const row = await this.claim();
      if (!row) break;
      attempted += 1;
      await this.deliver(row);
    }
    return attempted;
  }
}
