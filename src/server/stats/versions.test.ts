import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { notifyBus } from '../lib/notify-bus';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { dataVersionKey, markSchoolChanged, raiseSchoolVersion } from './versions';

/**
 * The key under which a school's figures (stats, charts, report documents) are cached: it moves once
 * per change, at once for a change made through this process, and then stays put until the next one.
 * It used to move a second time when the shared counter's cached read was renewed up to a second
 * later, with nothing changed in between, and every cached figure of the school was computed again
 * (seen in CI on a loaded machine: a report read twice, a second apart, after a write, built twice).
 */
let ctx: TestContext;
let schoolId: string;
beforeAll(async () => {
  ctx = await createTestApp();
  ({ schoolId } = await signUpSchool(ctx));
});
afterAll(() => ctx.close());

describe('the data version key of a school', () => {
  it('moves at once on a change through this process, then stays put when the shared counter is read again', async () => {
    const db = ctx.database.db;
    const t = 1_000_000;
    const before = await dataVersionKey(db, schoolId, t);
    expect(await dataVersionKey(db, schoolId, t + 10)).toBe(before);

    await markSchoolChanged(db, schoolId);
    const after = await dataVersionKey(db, schoolId, t + 20);
    expect(after).not.toBe(before);
    // a second and more later the shared counter is read afresh: nothing changed, so neither does the key
    expect(await dataVersionKey(db, schoolId, t + 1_500)).toBe(after);
    expect(await dataVersionKey(db, schoolId, t + 3_000)).toBe(after);
  });

  it('moves after a change without reading the shared counter again, and still sees another process raise it (decision 0080)', async () => {
    const db = ctx.database.db;
    const t = 5_000_000;
    const before = await dataVersionKey(db, schoolId, t);
    const statements = vi.spyOn(db, 'execute');
    try {
      await markSchoolChanged(db, schoolId);
      expect(statements).toHaveBeenCalledTimes(1);
      // the counter as this process raised it: the next figures are keyed without a round trip
      const after = await dataVersionKey(db, schoolId, t + 20);
      expect(after).not.toBe(before);
      expect(statements).toHaveBeenCalledTimes(1);
      // the renewed read a second later finds what the key already holds
      expect(await dataVersionKey(db, schoolId, t + 1_200)).toBe(after);
      expect(statements).toHaveBeenCalledTimes(2);
    } finally {
      statements.mockRestore();
    }
    // a raise this process was not told of is seen when the read is renewed
    await db.execute(raiseSchoolVersion(schoolId));
    const held = await dataVersionKey(db, schoolId, t + 1_300);
    const renewed = await dataVersionKey(db, schoolId, t + 2_400);
    expect(renewed).not.toBe(held);
    expect(renewed.split('.')[1]).toBe(String(Number(held.split('.')[1]) + 1));
  });

  it('while other processes are heard, a read over a second old is renewed beside the request, not in front of it (decision 0105)', async () => {
    const db = ctx.database.db;
    const t = 9_000_000;
    const held = await dataVersionKey(db, schoolId, t);
    // another process raised the counter and its message was lost: the backstop read must find it
    await db.execute(raiseSchoolVersion(schoolId));
    notifyBus.attach({ listening: true, send: () => undefined });
    let release!: () => void;
    const pool = new Promise<void>((resolve) => (release = resolve));
    const execute = db.execute.bind(db);
    // the renewal waits in the pool's queue until released
    const statements = vi.spyOn(db, 'execute').mockImplementation(((query: Parameters<typeof db.execute>[0]) => pool.then(() => execute(query))) as typeof db.execute);
    try {
      const waited = new Promise<string>((resolve) => setTimeout(() => resolve('waited for the read'), 300));
      expect(await Promise.race([dataVersionKey(db, schoolId, t + 1_500), waited])).toBe(held);
      expect(statements).toHaveBeenCalledTimes(1);
      // one renewal at a time
      expect(await dataVersionKey(db, schoolId, t + 1_600)).toBe(held);
      expect(statements).toHaveBeenCalledTimes(1);
      release();
      await vi.waitFor(async () => expect(await dataVersionKey(db, schoolId, t + 1_700)).not.toBe(held));
      const renewed = await dataVersionKey(db, schoolId, t + 1_800);
      expect(renewed.split('.')[1]).toBe(String(Number(held.split('.')[1]) + 1));
      expect(statements).toHaveBeenCalledTimes(1);
    } finally {
      statements.mockRestore();
      notifyBus.attach(null);
    }
    // not heard (the embedded database, or the listening connection lost): the read is waited for
    await db.execute(raiseSchoolVersion(schoolId));
    const before = await dataVersionKey(db, schoolId, t + 1_900);
    const after = await dataVersionKey(db, schoolId, t + 3_000);
    expect(after.split('.')[1]).toBe(String(Number(before.split('.')[1]) + 1));
  });
});
