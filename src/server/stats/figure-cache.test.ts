import { describe, expect, it } from 'vitest';
import { FigureCache } from './versions';

const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('FigureCache', () => {
  it('computes once for concurrent readers and again when the key changes', async () => {
    const cache = new FigureCache<number>(60_000, 10, 1_000);
    let runs = 0;
    const compute = (v: number) => () => later((runs += 1, v), 5);
    const [a, b] = await Promise.all([cache.get('s', 'k1', 0, compute(1)), cache.get('s', 'k1', 0, compute(1))]);
    expect([a, b, runs]).toEqual([1, 1, 1]);
    expect(await cache.get('s', 'k2', 10, compute(2))).toBe(2);
    expect(runs).toBe(2);
  });

  it('keeps serving a slow school its previous figures while the new ones are computed', async () => {
    const cache = new FigureCache<string>(60_000, 10, 20);
    expect(await cache.get('big', 'v1', 0, () => later('first', 30))).toBe('first');
    // the data changed: the previous figures come back at once, the new ones are on their way
    expect(await cache.get('big', 'v2', 100, () => later('second', 30))).toBe('first');
    expect(await cache.get('big', 'v2', 101, () => later('never', 1))).toBe('first');
    await later(null, 60);
    expect(await cache.get('big', 'v2', 200, () => later('never', 1))).toBe('second');
  });

  it('recomputes even a slow school once its figures are older than the limit', async () => {
    const cache = new FigureCache<string>(1_000, 10, 20);
    expect(await cache.get('big', 'v1', 0, () => later('first', 30))).toBe('first');
    expect(await cache.get('big', 'v2', 5_000, () => later('second', 30))).toBe('second');
  });

  it('forgets a failed computation', async () => {
    const cache = new FigureCache<string>();
    await expect(cache.get('s', 'k', 0, () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await cache.get('s', 'k', 1, () => later('ok', 1))).toBe('ok');
  });
});
