/**
 * At most `limit` heavy computations at once in this process; the others wait their turn, first come
 * first served. Whole-school report builds read a session's ledger lines (hundreds of thousands at
 * 60,000 students) and each holds a database connection for seconds: unbounded, a burst of them took
 * every connection of the pool and the clerk's lookups and saves queued behind them (the mixed-load
 * bench, decision 0042). A slot is handed straight to the next waiter, so none is lost.
 *
 * A waiter whose signal aborts (nobody wants its result any more) leaves the queue without ever
 * taking a slot; one that has started is left to finish, since its database work is already under way.
 */
interface Waiter {
  /** called with the slot already counted as this waiter's */
  start: () => void;
}

export class WorkGate {
  private active = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    if (this.active < this.limit) this.active += 1;
    else await this.turn(signal);
    try {
      // aborted between being handed the slot and running: the slot goes straight to the next one
      signal?.throwIfAborted();
      return await work();
    } finally {
      this.release();
    }
  }

  /** Running and waiting computations. */
  get load(): { running: number; waiting: number } {
    return { running: this.active, waiting: this.waiting.length };
  }

  /** Resolves once a slot is handed over; rejects with the signal's reason, holding none, when it aborts first. */
  private turn(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', leave);
          resolve();
        },
      };
      const leave = () => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', leave, { once: true });
      this.waiting.push(waiter);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next.start();
    else this.active -= 1;
  }
}
