import { describe, expect, it } from 'vitest';
import { WorkGate } from './work-gate';

const tick = () => new Promise((r) => setTimeout(r, 0));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

describe('WorkGate', () => {
  it('runs at most its limit at once and starts the waiters in the order they came', async () => {
    const gate = new WorkGate(2);
    const started: number[] = [];
    const jobs = [0, 1, 2, 3, 4].map(() => deferred());
    const results = jobs.map((job, k) =>
      gate.run(async () => {
        started.push(k);
        await job.promise;
        return k * 10;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(gate.load).toEqual({ running: 2, waiting: 3 });
    jobs[1]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    jobs[0]!.resolve();
    jobs[2]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    jobs[3]!.resolve();
    jobs[4]!.resolve();
    expect(await Promise.all(results)).toEqual([0, 10, 20, 30, 40]);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('gives the slot of a failed computation to the next one and passes the failure to its caller', async () => {
    const gate = new WorkGate(1);
    const failing = gate.run(async () => {
      throw new Error('the database went away');
    });
    const next = gate.run(async () => 'built');
    await expect(failing).rejects.toThrow('the database went away');
    expect(await next).toBe('built');
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });
});
