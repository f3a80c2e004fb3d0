import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { dataVersionKey, markSchoolChanged } from './versions';

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
});
