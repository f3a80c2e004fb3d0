import { describe, expect, it } from 'vitest';
import { FigureCache } from './figure-cache';

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
});
