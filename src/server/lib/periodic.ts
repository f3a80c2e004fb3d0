/**
 * Work a server does on a timer while it runs (the month's whole-school rows, the reminder
 * schedules, the subscription notices, the embedded database's daily backup): a first look soon
 * after start, then one every `everyMs`.
 *
 * - The timers never keep the process alive.
 * - A look asked for while the last one still runs joins it instead of starting a second beside it
 *   (the timer's and a test's `runOnce` alike).
 * - A failed look is reported to `onError`; the next one comes as planned.
 * - `stop()` ends the timers and waits for a look in progress, so the database is never closed
 *   under one; a long look can ask `stopping()` and end early.
 */
export interface PeriodicOptions<T> {
  everyMs: number;
  /** how long after `start()` the first look comes; 0 for at once */
  firstAfterMs: number;
  look(stopping: () => boolean): Promise<T>;
  onError(error: unknown): void;
}

export class Periodic<T> {
  private timer: NodeJS.Timeout | undefined;
  private first: NodeJS.Timeout | undefined;
  private running: Promise<T> | null = null;
  private stopped = false;

  constructor(private readonly options: PeriodicOptions<T>) {}

  start(): void {
    if (this.timer) return;
    this.stopped = false;
    const tick = () => {
      if (!this.stopped) this.runOnce().catch((error: unknown) => this.options.onError(error));
    };
    this.timer = setInterval(tick, this.options.everyMs);
    this.timer.unref();
    this.first = setTimeout(tick, this.options.firstAfterMs);
    this.first.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.first);
    this.timer = undefined;
    this.first = undefined;
    await this.running?.catch(() => undefined);
  }

  /** One look now, or the one in progress. */
  runOnce(): Promise<T> {
    if (this.running) return this.running;
    const run = this.options.look(() => this.stopped).finally(() => {
      this.running = null;
    });
    this.running = run;
    return run;
  }
}
