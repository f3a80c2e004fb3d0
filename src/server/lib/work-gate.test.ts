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

  it('a waiter whose signal aborts leaves the queue without taking a slot, and the others keep their order', async () => {
    const gate = new WorkGate(1);
    const started: string[] = [];
    const first = deferred();
    const running = gate.run(async () => {
      started.push('first');
      await first.promise;
    });
    const gone = new AbortController();
    const left = gate.run(async () => void started.push('gone'), gone.signal);
    const stays = new AbortController();
    const last = gate.run(async () => void started.push('last'), stays.signal);
    await tick();
    expect(gate.load).toEqual({ running: 1, waiting: 2 });
    gone.abort(new Error('the client went away'));
    await expect(left).rejects.toThrow('the client went away');
    expect(gate.load).toEqual({ running: 1, waiting: 1 });
    first.resolve();
    await Promise.all([running, last]);
    expect(started).toEqual(['first', 'last']);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('keeps its slot count right when waiters leave: the limit still holds and every slot comes back', async () => {
    const gate = new WorkGate(2);
    let now = 0;
    let most = 0;
    const work = async () => {
      now += 1;
      most = Math.max(most, now);
      await tick();
      now -= 1;
    };
    const controllers = Array.from({ length: 8 }, () => new AbortController());
    const runs = controllers.map((c) => gate.run(work, c.signal));
    // leave from the front, the middle and the end of the queue while the first two run
    for (const k of [2, 5, 7]) controllers[k]!.abort();
    const outcomes = await Promise.allSettled(runs);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect(most).toBe(2);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
    // the full limit is still there
    const both = [deferred(), deferred()];
    const again = both.map((d) => gate.run(() => d.promise));
    await tick();
    expect(gate.load).toEqual({ running: 2, waiting: 0 });
    both.forEach((d) => d.resolve());
    await Promise.all(again);
  });

  it('an aborted signal is refused at once, and a running computation is not stopped by its signal', async () => {
    const gate = new WorkGate(1);
    const already = new AbortController();
    already.abort(new Error('gone before asking'));
    await expect(gate.run(async () => 'never', already.signal)).rejects.toThrow('gone before asking');
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
    const late = new AbortController();
    const job = deferred();
    const running = gate.run(async () => {
      await job.promise;
      return 'finished';
    }, late.signal);
    await tick();
    late.abort();
    job.resolve();
    expect(await running).toBe('finished');
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });
});
