import { describe, expect, it } from 'vitest';
import { Periodic } from './periodic';

/** A promise and the function that settles it, for a look the test finishes when it chooses. */
function gate(): { promise: Promise<void>; open(): void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('Periodic: the server’s background jobs', () => {
  it('looks once soon after start, then once an interval, until stopped', async () => {
    // the first look alone: an interval of a minute has not come yet
    let firstLooks = 0;
    const soon = new Periodic({ everyMs: 60_000, firstAfterMs: 0, look: async () => void (firstLooks += 1), onError: () => {} });
    soon.start();
    await expect.poll(() => firstLooks, { timeout: 5_000 }).toBe(1);
    await soon.stop();

    // the interval alone: the first look is a minute away
    let looks = 0;
    const every = new Periodic({ everyMs: 30, firstAfterMs: 60_000, look: async () => void (looks += 1), onError: () => {} });
    every.start();
    await expect.poll(() => looks, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    await every.stop();
    const counted = looks;
    await new Promise((r) => setTimeout(r, 150));
    expect(looks).toBe(counted);
  });

  it('joins a look in progress instead of starting a second beside it', async () => {
    let started = 0;
    const held = gate();
    const job = new Periodic({
      everyMs: 60_000,
      firstAfterMs: 60_000,
      look: async () => {
        started += 1;
        await held.promise;
        return started;
      },
      onError: () => {},
    });
    const first = job.runOnce();
    const second = job.runOnce();
    held.open();
    expect(await Promise.all([first, second])).toEqual([1, 1]);
    expect(started).toBe(1);
    // once it has ended, the next look is a new one
    expect(await job.runOnce()).toBe(2);
  });

  it('reports a failed look and keeps looking', async () => {
    const errors: string[] = [];
    let looks = 0;
    const job = new Periodic({
      everyMs: 20,
      firstAfterMs: 0,
      look: async () => {
        looks += 1;
        if (looks === 1) throw new Error('database unreachable');
        return looks;
      },
      onError: (error) => errors.push((error as Error).message),
    });
    job.start();
    await expect.poll(() => looks, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    await job.stop();
    expect(errors).toEqual(['database unreachable']);
  });

  it('stop() waits for the look in progress, which can see that it is stopping', async () => {
    const held = gate();
    const seen: boolean[] = [];
    let finished = false;
    const job = new Periodic({
      everyMs: 60_000,
      firstAfterMs: 0,
      look: async (stopping) => {
        seen.push(stopping());
        await held.promise;
        seen.push(stopping());
        finished = true;
      },
      onError: () => {},
    });
    job.start();
    await expect.poll(() => seen.length, { timeout: 5_000 }).toBe(1);
    const stopped = job.stop();
    let stopDone = false;
    void stopped.then(() => (stopDone = true));
    await new Promise((r) => setTimeout(r, 30));
    expect(stopDone).toBe(false);
    held.open();
    await stopped;
    expect(finished).toBe(true);
    expect(seen).toEqual([false, true]);
  });
});
