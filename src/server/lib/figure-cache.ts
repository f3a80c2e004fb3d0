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
}

type Compute<T> = (signal: AbortSignal) => Promise<T>;

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
}

interface Slot<T> {
  settled?: Settled<T>;
  running?: Flight<T>;
  /** the computation that starts when the running one ends; joined by every request until then */
  next?: Flight<T>;
}

const ignore = () => undefined;
const abandoned = <T>(flight: Flight<T> | undefined) => flight?.controller.signal.aborted === true;

export class FigureCache<T> {
  private readonly slots = new Map<string, Slot<T>>();

  constructor(
    private readonly maxAgeMs = 60_000,
    private readonly maxEntries = 500,
  ) {}

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
    for (const slot of this.slots.values()) n += (slot.running ? 1 : 0) + (slot.next ? 1 : 0);
    return n;
  }

  private usable(slot: Slot<T>, key: string, now: number): Settled<T> | undefined {
    const settled = slot.settled;
    return settled && now - settled.at < this.maxAgeMs && settled.key === key ? settled : undefined;
  }

  private flight(id: string, slot: Slot<T>, key: string, now: number, compute: Compute<T>): Flight<T> {
    const running = abandoned(slot.running) ? undefined : slot.running;
    if (running?.key === key) return running;
    if (slot.next) {
      // not started yet: it will see data at least as new as this request's key, so it is labelled with it
      Object.assign(slot.next, { key, at: now, compute });
      return slot.next;
    }
    // an abandoned computation may still be running: the next one waits for it, so one runs at a time
    const before = slot.running;
    if (!before) return this.newFlight(key, now, compute, (flight) => this.start(id, slot, flight));
    const next = this.newFlight(key, now, compute, (flight) =>
      before.promise.then(ignore, ignore).then(() => {
        if (slot.next === flight) slot.next = undefined;
        flight.controller.signal.throwIfAborted();
        // what the abandoned computation before it finished with, when it ran on regardless
        const settled = this.usable(slot, flight.key, flight.at);
        return settled ? settled.value : this.start(id, slot, flight);
      }),
    );
    slot.next = next;
    return next;
  }

  private newFlight(key: string, at: number, compute: Compute<T>, begin: (flight: Flight<T>) => Promise<T>): Flight<T> {
    const flight = { key, at, compute, controller: new AbortController(), present: 0, kept: false } as Flight<T>;
    flight.promise = begin(flight);
    return flight;
  }

  /** Runs the flight's computation now, as the slot's running one. */
  private start(id: string, slot: Slot<T>, flight: Flight<T>): Promise<T> {
    const { key, at, controller } = flight;
    slot.running = flight;
    const promise = Promise.resolve().then(() => flight.compute(controller.signal));
    promise.then(
      (value) => {
        if (slot.running === flight) slot.running = undefined;
        slot.settled = { key, at, value };
        this.touch(id, slot);
      },
      () => {
        if (slot.running === flight) slot.running = undefined;
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
