/**
 * At most `limit` heavy computations at once in this process; the others wait their turn, first come
 * first served. Whole-school report builds read a session's ledger lines (hundreds of thousands at
 * 60,000 students) and each holds a database connection for seconds: unbounded, a burst of them took
 * every connection of the pool and the clerk's lookups and saves queued behind them (the mixed-load
 * bench, decision 0042). A slot is handed straight to the next waiter, so none is lost.
 */
export class WorkGate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) this.active += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }

  /** Running and waiting computations. */
  get load(): { running: number; waiting: number } {
    return { running: this.active, waiting: this.waiting.length };
  }
}
