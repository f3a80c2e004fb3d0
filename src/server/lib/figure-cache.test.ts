import { describe, expect, it } from 'vitest';
import { FigureCache } from './figure-cache';
import { WorkGate } from './work-gate';

const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('FigureCache', () => {
  it('computes once for concurrent readers and again when the key changes', async () => {
    const cache = new FigureCache<number>(60_000, 10);
    let runs = 0;
    const compute = (v: number) => () => later((runs += 1, v), 5);
    const [a, b] = await Promise.all([cache.get('s', 'k1', 0, compute(1)), cache.get('s', 'k1', 0, compute(1))]);
    expect([a, b, runs]).toEqual([1, 1, 1]);
    expect(await cache.get('s', 'k2', 10, compute(2))).toBe(2);
    expect(runs).toBe(2);
  });

  it('never serves figures older than the last write, however slow they are to compute', async () => {
    const cache = new FigureCache<string>(60_000, 10);
    expect(await cache.get('big', 'v1', 0, () => later('first', 30))).toBe('first');
    // the data changed: the request waits for the new figures (issue 14: no screen shows stale figures)
    expect(await cache.get('big', 'v2', 100, () => later('second', 30))).toBe('second');
    expect(await cache.get('big', 'v2', 101, () => later('never', 1))).toBe('second');
  });

  it('forgets a failed computation', async () => {
    const cache = new FigureCache<string>();
    await expect(cache.get('s', 'k', 0, () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await cache.get('s', 'k', 1, () => later('ok', 1))).toBe('ok');
  });

  it('ten concurrent readers of a slow school whose figures are stale share one computation', async () => {
    const cache = new FigureCache<string>(1_000, 10);
    let runs = 0;
    expect(await cache.get('big', 'v1', 0, () => later('first', 30))).toBe('first');
    // a minute later, after a change: every reader waits, all for the same computation
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => cache.get('big', 'v2', 5_000, () => later(`second ${(runs += 1)}`, 30))),
    );
    expect(runs).toBe(1);
    expect(new Set(answers)).toEqual(new Set(['second 1']));
  });

  it('a change made during a computation is computed again, one computation at a time', async () => {
    const cache = new FigureCache<string>();
    let running = 0;
    let most = 0;
    const compute = (value: string) => async () => {
      running += 1;
      most = Math.max(most, running);
      await later(null, 20);
      running -= 1;
      return value;
    };
    const before = cache.get('s', 'v1', 0, compute('figures of v1'));
    await later(null, 5);
    // the data changed while v1 was being computed: v2's readers must not get v1's figures
    const after = [cache.get('s', 'v2', 1, compute('figures of v2')), cache.get('s', 'v3', 2, compute('figures of v3'))];
    expect(await before).toBe('figures of v1');
    // both waited for one computation that started after v1's ended, labelled with the newest key
    expect(await Promise.all(after)).toEqual(['figures of v3', 'figures of v3']);
    expect(most).toBe(1);
    expect(await cache.get('s', 'v3', 3, compute('never'))).toBe('figures of v3');
    expect(cache.inFlight).toBe(0);
  });

  it('an entry being computed is never dropped to make room, so its readers stay joined', async () => {
    const cache = new FigureCache<string>(60_000, 1);
    let runs = 0;
    const slow = () => later(`a ${(runs += 1)}`, 30);
    const first = cache.get('a', 'k', 0, slow);
    await cache.get('b', 'k', 0, () => later('b', 1));
    const second = cache.get('a', 'k', 0, slow);
    expect(await Promise.all([first, second])).toEqual(['a 1', 'a 1']);
    expect(runs).toBe(1);
  });

  it('a failure reaches every reader that shared it and is not kept', async () => {
    const cache = new FigureCache<string>();
    let runs = 0;
    const failing = () => later(null, 10).then(() => {
      runs += 1;
      throw new Error('db down');
    });
    const answers = await Promise.allSettled([cache.get('s', 'k', 0, failing), cache.get('s', 'k', 0, failing)]);
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected']);
    expect(runs).toBe(1);
    expect(await cache.get('s', 'k', 1, () => later('ok', 1))).toBe('ok');
  });

  describe('with overlap (the dashboard cards, decision 0105)', () => {
    /** A computation that waits for its connection until `connect` is called, then reads for 10 ms. */
    const pooled = () => {
      let runs = 0;
      let running = 0;
      let most = 0;
      const connects: Array<() => void> = [];
      const compute = (label: string) => (_signal: AbortSignal, reading: () => void) =>
        new Promise<string>((resolve) => {
          running += 1;
          most = Math.max(most, running);
          connects.push(() => {
            reading();
            runs += 1;
            const value = `${label} (computation ${runs})`;
            setTimeout(() => {
              running -= 1;
              resolve(value);
            }, 10);
          });
        });
      return { compute, connect: () => connects.shift()!(), runs: () => runs, most: () => most };
    };

    /** v1's computation reading, and after a write v2's begun beside it, waiting for its connection. */
    const secondWaiting = async () => {
      const cache = new FigureCache<string>(60_000, 10, { overlap: true });
      const pool = pooled();
      const first = cache.get('s', 'v1', 0, pool.compute('v1'));
      await later(null, 1);
      pool.connect();
      // v2's request does not wait for v1's computation to end: its own begins at once
      const second = cache.get('s', 'v2', 1, pool.compute('v2'));
      await later(null, 1);
      return { cache, pool, first, second };
    };

    it('a request arriving while the next computation waits for its connection joins it instead of waiting for two in turn', async () => {
      const { cache, pool, first, second } = await secondWaiting();
      expect(cache.inFlight).toBe(2);
      // more writes before it has its connection: they join it, and it is labelled with the newest key
      const third = cache.get('s', 'v3', 2, pool.compute('v3'));
      const fourth = cache.get('s', 'v4', 3, pool.compute('v4'));
      pool.connect();
      expect(await first).toBe('v1 (computation 1)');
      expect(await Promise.all([second, third, fourth])).toEqual(['v2 (computation 2)', 'v2 (computation 2)', 'v2 (computation 2)']);
      expect(pool.runs()).toBe(2);
      expect(await cache.get('s', 'v4', 4, pool.compute('never'))).toBe('v2 (computation 2)');
      expect(cache.inFlight).toBe(0);
    });

    it('a request after the computation began reading gets a computation of its own, and never more than two run at once', async () => {
      const { cache, pool, first, second } = await secondWaiting();
      pool.connect();
      // both are reading: a write now is not in either's figures, so v3 waits for a third, after one of them ends
      const third = cache.get('s', 'v3', 2, pool.compute('v3'));
      await later(null, 1);
      expect(cache.inFlight).toBe(3);
      expect(pool.most()).toBe(2);
      await first;
      await later(null, 1);
      pool.connect();
      expect(await third).toBe('v3 (computation 3)');
      expect(await second).toBe('v2 (computation 2)');
      expect(pool.most()).toBe(2);
    });

    it('figures that began reading earlier never replace figures that began reading later', async () => {
      const cache = new FigureCache<string>(60_000, 10, { overlap: true });
      let finishOld!: () => void;
      const old = cache.get('s', 'v1', 0, (_signal, reading) =>
        new Promise<string>((resolve) => {
          reading();
          finishOld = () => resolve('old');
        }),
      );
      await later(null, 1);
      // v2's computation reads after v1's did, and ends first
      expect(await cache.get('s', 'v2', 1, async (_signal, reading) => (reading(), 'new'))).toBe('new');
      finishOld();
      expect(await old).toBe('old');
      expect(await cache.get('s', 'v2', 2, async () => 'never')).toBe('new');
    });
  });

  describe('requests that go away', () => {
    const gone = () => new Error('the client went away');
    // a build behind a gate whose one slot is taken, as report documents are built (decision 0042)
    const gated = () => {
      const gate = new WorkGate(1);
      let release!: () => void;
      const busy = gate.run(() => new Promise<void>((r) => (release = r)));
      let builds = 0;
      const build = (value: string) => (signal: AbortSignal) => gate.run(async () => `${value} ${(builds += 1)}`, signal);
      return { gate, build, free: () => (release(), busy), builds: () => builds };
    };

    it('two requesters share a build; when one leaves, the build still runs for the other', async () => {
      const cache = new FigureCache<string>();
      const { gate, build, free, builds } = gated();
      const a = new AbortController();
      const b = new AbortController();
      const first = cache.get('s', 'k', 0, build('doc'), a.signal);
      const second = cache.get('s', 'k', 0, build('doc'), b.signal);
      await later(null, 1);
      expect(gate.load).toEqual({ running: 1, waiting: 1 });
      a.abort(gone());
      await expect(first).rejects.toThrow('the client went away');
      expect(gate.load).toEqual({ running: 1, waiting: 1 });
      await free();
      expect(await second).toBe('doc 1');
      expect(builds()).toBe(1);
      expect(await cache.get('s', 'k', 1, build('never'))).toBe('doc 1');
    });

    it('when every requester has left, the build leaves the gate before it starts, and the next request builds again', async () => {
      const cache = new FigureCache<string>();
      const { gate, build, free, builds } = gated();
      const a = new AbortController();
      const b = new AbortController();
      const first = cache.get('s', 'k', 0, build('doc'), a.signal);
      const second = cache.get('s', 'k', 0, build('doc'), b.signal);
      await later(null, 1);
      a.abort(gone());
      b.abort(gone());
      await expect(Promise.allSettled([first, second])).resolves.toMatchObject([{ status: 'rejected' }, { status: 'rejected' }]);
      await later(null, 1);
      expect(gate.load).toEqual({ running: 1, waiting: 0 });
      expect(cache.inFlight).toBe(0);
      // not poisoned: the next request is not given the abandoned build's abort
      const third = cache.get('s', 'k', 2, build('doc'));
      await free();
      expect(await third).toBe('doc 1');
      expect(builds()).toBe(1);
    });

    it('a request arriving just after the last one left does not join the abandoned build', async () => {
      const cache = new FigureCache<string>();
      const { build, free, builds } = gated();
      const a = new AbortController();
      const first = cache.get('s', 'k', 0, build('doc'), a.signal);
      a.abort(gone());
      // in the same turn: the abandoned build has not yet been taken out of the gate's queue
      const next = cache.get('s', 'k', 0, build('doc'));
      await expect(first).rejects.toThrow('the client went away');
      await free();
      expect(await next).toBe('doc 1');
      expect(builds()).toBe(1);
    });

    it('a build that had already started when its requesters left is finished and kept for the next request', async () => {
      const cache = new FigureCache<string>();
      let runs = 0;
      const slow = () => later(`doc ${(runs += 1)}`, 20);
      const a = new AbortController();
      const first = cache.get('s', 'k', 0, slow, a.signal);
      await later(null, 5);
      a.abort(gone());
      await expect(first).rejects.toThrow('the client went away');
      // it cannot be stopped, so the next one waits for it (one at a time) and takes what it made
      expect(await cache.get('s', 'k', 1, slow)).toBe('doc 1');
      expect(runs).toBe(1);
    });

    it('a waiting next build whose requesters all left is dropped; a later request makes a new one', async () => {
      const cache = new FigureCache<string>();
      let runs = 0;
      const compute = (value: string) => () => later(`${value} ${(runs += 1)}`, 20);
      const before = cache.get('s', 'v1', 0, compute('v1'));
      await later(null, 1);
      const a = new AbortController();
      const left = cache.get('s', 'v2', 1, compute('v2'), a.signal);
      a.abort(gone());
      await expect(left).rejects.toThrow('the client went away');
      expect(cache.inFlight).toBe(1);
      const after = cache.get('s', 'v3', 2, compute('v3'));
      expect(await before).toBe('v1 1');
      expect(await after).toBe('v3 2');
      expect(runs).toBe(2);
    });

    it('a requester without a signal keeps the build whoever else leaves', async () => {
      const cache = new FigureCache<string>();
      const { build, free } = gated();
      const a = new AbortController();
      const leaving = cache.get('s', 'k', 0, build('doc'), a.signal);
      const staying = cache.get('s', 'k', 0, build('doc'));
      a.abort(gone());
      await expect(leaving).rejects.toThrow('the client went away');
      await free();
      expect(await staying).toBe('doc 1');
    });

    it('an already aborted request is refused without computing', async () => {
      const cache = new FigureCache<string>();
      const a = new AbortController();
      a.abort(gone());
      let runs = 0;
      await expect(cache.get('s', 'k', 0, async () => `x ${(runs += 1)}`, a.signal)).rejects.toThrow('the client went away');
      expect(runs).toBe(0);
      expect(cache.inFlight).toBe(0);
    });
  });
});
