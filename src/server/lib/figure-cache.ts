/**
 * The one cache of computed figures (school stats, charts, report documents): per entry (a school,
 * or a school's report and query) and a validity key (the school's data version and India's date).
 * Single flight: an entry is computed by at most one computation at a time, and every request that
 * wants it meanwhile awaits that same computation (docs/decisions/0021-single-flight-figures.md).
 *
 * - A key is read by the caller before it asks, so figures are stored under a key no newer than
 *   the data they were computed from: a change made while they are computed gives a new key, and
 *   the next request computes again instead of taking them as current.
 * - When the key changes while a computation runs, the next one waits for it to end and then runs
 *   once for every request that arrived meanwhile: it starts after all of them read their keys, so
 *   its figures are at least as new as any of them asked for. With `overlap` (decision 0105) the
 *   next one begins at once, beside the running one, and is joined until it starts reading.
 * - A failure is not kept: the requests that shared it get the error, the next one computes again.
 * - Never stale (issue 14): after a write, every request waits for figures computed after it,
 *   however long they take. Whole-school figures read the running balances (decision 0041), so
 *   that wait is short; there is no serving of the previous figures meanwhile.
 * - A request may bring a signal that aborts when its asker has gone (the HTTP client closed). It
 *   stops waiting at once; when every request sharing a computation has gone, the computation's own
 *   signal aborts, so a computation still waiting for its turn (WorkGate) never starts. An abandoned
 *   computation is never joined: the next request computes again, after it (one at a time), unless
 *   it finished anyway with figures the request can take (decision 0042).
 */

interface Settled<T> {
  key: string;
  at: number;
  value: T;
  /** when its computation began reading (`reading`): figures are never replaced by ones read before them */
  order: number;
}

/**
 * A computation of an entry. `reading` is for a cache with `overlap`: the computation calls it just
 * before it sends its first read (once it holds its database connection); until then it is the
 * computation every new request of the entry joins. Elsewhere it does nothing.
 */
type Compute<T> = (signal: AbortSignal, reading: () => void) => Promise<T>;

interface Flight<T> {
  key: string;
  at: number;
  compute: Compute<T>;
  promise: Promise<T>;
  /** aborts when every request that joined has gone */
  controller: AbortController;
  /** requests still waiting for it that can leave */
  present: number;
  /** a request without a signal joined: it is never abandoned */
  kept: boolean;
  /** set when it began reading; 0 before */
  order: number;
}

interface Slot<T> {
  settled?: Settled<T>;
  /** computations begun and not yet ended: one, or two with `overlap` */
  running: Flight<T>[];
  /** the computation every request joins until it begins (with `overlap`: until it reads) */
  next?: Flight<T>;
}

export interface FigureCacheOptions {
  /**
   * The next computation begins as soon as it is asked for, beside the one running (two at most),
   * and every request joins it until it calls `reading` (decision 0105). Without it the next one
   * waits for the running one to end. For figures that are cheap to compute once the rows are up
   * to date (the dashboard's cards), whose requests would otherwise wait for two computations
   * in turn, each behind the pool's queue.
   */
  overlap?: boolean;
}

const ignore = () => undefined;
const abandoned = <T>(flight: Flight<T> | undefined) => flight?.controller.signal.aborted === true;

export class FigureCache<T> {
  private readonly slots = new Map<string, Slot<T>>();
  /** how many computations of this cache have begun reading: the order of their figures */
  private reads = 0;
  private readonly overlap: boolean;

  constructor(
    private readonly maxAgeMs = 60_000,
    private readonly maxEntries = 500,
    options: FigureCacheOptions = {},
  ) {
    this.overlap = options.overlap === true;
  }

  /**
   * `now` is the app clock's time in ms (the age limit); `key` was read before this call. `signal`
   * aborts when the asker has gone: the returned promise then rejects with its reason.
   */
  get(id: string, key: string, now: number, compute: Compute<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const slot = this.slots.get(id) ?? this.add(id);
    const settled = this.usable(slot, key, now);
    if (settled) return Promise.resolve(settled.value);
    return this.join(slot, this.flight(id, slot, key, now, compute), signal);
  }

  /** How many computations are running or waiting to run (for tests and health). */
  get inFlight(): number {
    let n = 0;
    for (const slot of this.slots.values()) n += slot.running.length + (slot.next && !slot.running.includes(slot.next) ? 1 : 0);
    return n;
  }

  private usable(slot: Slot<T>, key: string, now: number): Settled<T> | undefined {
    const settled = slot.settled;
    return settled && now - settled.at < this.maxAgeMs && settled.key === key ? settled : undefined;
  }

  private flight(id: string, slot: Slot<T>, key: string, now: number, compute: Compute<T>): Flight<T> {
    // one already reading under this very key: no write came since that key was read
    const same = slot.running.find((f) => f.key === key && f !== slot.next && !abandoned(f));
    if (same) return same;
    const next = slot.next;
    if (next) {
      // not reading yet: it will see data at least as new as this request's key, so it is labelled with it
      // (and, not begun, it will run this request's computation, with its time)
      Object.assign(next, slot.running.includes(next) ? { key, at: now } : { key, at: now, compute });
      return next;
    }
    const most = this.overlap ? 2 : 1;
    const begin = (flight: Flight<T>) => this.start(id, slot, flight);
    if (slot.running.length < most) {
      const flight = this.newFlight(key, now, compute, begin);
      // begun (its computation runs from the next microtask on): with overlap still the one to join, until it reads
      if (this.overlap) slot.next = flight;
      return flight;
    }
    // an abandoned computation may still be running: the next one waits for it, so at most `most` run at once
    const waiting = this.newFlight(key, now, compute, async (flight) => {
      while (slot.running.length >= most) await Promise.race(slot.running.map((f) => f.promise.then(ignore, ignore)));
      if (!this.overlap && slot.next === flight) slot.next = undefined;
      flight.controller.signal.throwIfAborted();
      // what an abandoned computation before it finished with, when it ran on regardless
      const settled = this.usable(slot, flight.key, flight.at);
      if (settled) {
        if (slot.next === flight) slot.next = undefined;
        return settled.value;
      }
      return this.start(id, slot, flight);
    });
    slot.next = waiting;
    return waiting;
  }

  private newFlight(key: string, at: number, compute: Compute<T>, begin: (flight: Flight<T>) => Promise<T>): Flight<T> {
    const flight = { key, at, compute, controller: new AbortController(), present: 0, kept: false, order: 0 } as Flight<T>;
    flight.promise = begin(flight);
    return flight;
  }

  /** Runs the flight's computation now, as one of the slot's running ones. */
  private start(id: string, slot: Slot<T>, flight: Flight<T>): Promise<T> {
    const { controller } = flight;
    slot.running.push(flight);
    const reading = () => {
      if (flight.order === 0) flight.order = ++this.reads;
      if (slot.next === flight) slot.next = undefined;
    };
    const ended = () => {
      slot.running = slot.running.filter((f) => f !== flight);
      if (slot.next === flight) slot.next = undefined;
    };
    const promise = Promise.resolve().then(() => flight.compute(controller.signal, this.overlap ? reading : ignore));
    promise.then(
      (value) => {
        reading();
        ended();
        // labelled with the newest key it was joined under; never over figures read after it
        if (!slot.settled || slot.settled.order < flight.order) slot.settled = { key: flight.key, at: flight.at, value, order: flight.order };
        this.touch(id, slot);
      },
      () => {
        ended();
        this.prune();
      },
    );
    return promise;
  }

  /** This request's wait for the flight; when the last request that can leave leaves, the flight is abandoned. */
  private join(slot: Slot<T>, flight: Flight<T>, signal: AbortSignal | undefined): Promise<T> {
    if (!signal) {
      flight.kept = true;
      return flight.promise;
    }
    flight.present += 1;
    return new Promise<T>((resolve, reject) => {
      const leave = () => {
        flight.present -= 1;
        reject(signal.reason);
        if (flight.present === 0 && !flight.kept) {
          if (slot.next === flight) slot.next = undefined;
          flight.controller.abort();
        }
      };
      signal.addEventListener('abort', leave, { once: true });
      flight.promise.then(
        (value) => {
          signal.removeEventListener('abort', leave);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', leave);
          reject(error);
        },
      );
    });
  }

  private add(id: string): Slot<T> {
    const slot: Slot<T> = { running: [] };
    this.slots.set(id, slot);
    this.prune(id);
    return slot;
  }

  /** The most recently computed entries are kept longest. */
  private touch(id: string, slot: Slot<T>): void {
    this.slots.delete(id);
    this.slots.set(id, slot);
    this.prune(id);
  }

  /** Drops the oldest entries over the limit; an entry being computed is never dropped, so its requests stay joined. */
  private prune(keep?: string): void {
    if (this.slots.size <= this.maxEntries) return;
    for (const [id, slot] of this.slots) {
      if (this.slots.size <= this.maxEntries) return;
      if (id !== keep && slot.running.length === 0 && !slot.next) this.slots.delete(id);
    }
  }
}
