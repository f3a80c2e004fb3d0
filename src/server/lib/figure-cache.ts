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
 *   its figures are at least as new as any of them asked for.
 * - A failure is not kept: the requests that shared it get the error, the next one computes again.
 * - Never stale (issue 14): after a write, every request waits for figures computed after it,
 *   however long they take. Whole-school figures read the running balances (decision 0041), so
 *   that wait is short; there is no serving of the previous figures meanwhile.
 */

interface Settled<T> {
  key: string;
  at: number;
  value: T;
}

interface Flight<T> {
  key: string;
  at: number;
  compute: () => Promise<T>;
  promise: Promise<T>;
}

interface Slot<T> {
  settled?: Settled<T>;
  running?: Flight<T>;
  /** the computation that starts when the running one ends; joined by every request until then */
  next?: Flight<T>;
}

const ignore = () => undefined;

export class FigureCache<T> {
  private readonly slots = new Map<string, Slot<T>>();

  constructor(
    private readonly maxAgeMs = 60_000,
    private readonly maxEntries = 500,
  ) {}

  /** `now` is the app clock's time in ms (the age limit); `key` was read before this call. */
  get(id: string, key: string, now: number, compute: () => Promise<T>): Promise<T> {
    const slot = this.slots.get(id) ?? this.add(id);
    const settled = slot.settled;
    const fresh = settled !== undefined && now - settled.at < this.maxAgeMs;
    if (settled && fresh && settled.key === key) return Promise.resolve(settled.value);
    return this.flight(id, slot, key, now, compute);
  }

  /** How many computations are running or waiting to run (for tests and health). */
  get inFlight(): number {
    let n = 0;
    for (const slot of this.slots.values()) n += (slot.running ? 1 : 0) + (slot.next ? 1 : 0);
    return n;
  }

  private flight(id: string, slot: Slot<T>, key: string, now: number, compute: () => Promise<T>): Promise<T> {
    if (slot.running?.key === key) return slot.running.promise;
    if (slot.next) {
      // not started yet: it will see data at least as new as this request's key, so it is labelled with it
      Object.assign(slot.next, { key, at: now, compute });
      return slot.next.promise;
    }
    if (!slot.running) return this.run(id, slot, { key, at: now, compute });
    const next: Flight<T> = {
      key,
      at: now,
      compute,
      promise: slot.running.promise.then(ignore, ignore).then(() => {
        slot.next = undefined;
        return this.run(id, slot, next);
      }),
    };
    slot.next = next;
    return next.promise;
  }

  private run(id: string, slot: Slot<T>, flight: Omit<Flight<T>, 'promise'>): Promise<T> {
    const { key, at } = flight;
    const promise = Promise.resolve().then(flight.compute);
    const running: Flight<T> = { ...flight, promise };
    slot.running = running;
    promise.then(
      (value) => {
        if (slot.running === running) slot.running = undefined;
        slot.settled = { key, at, value };
        this.touch(id, slot);
      },
      () => {
        if (slot.running === running) slot.running = undefined;
        this.prune();
      },
    );
    return promise;
  }

  private add(id: string): Slot<T> {
    const slot: Slot<T> = {};
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
      if (id !== keep && !slot.running && !slot.next) this.slots.delete(id);
    }
  }
}
