import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, openTestDatabase, type TestContext } from '../test/harness';
import { buildFixtureSchool, NOW, type FixtureSchool } from './test-school';

/**
 * Decision 0076: the app keeps about as many PostgreSQL connections as there are cores. A download
 * of the financial report holds one for the month of rows it is writing; it must never wait for a
 * second while it holds one. It used to open its first month beside the summary, and the summary
 * then waited for a connection the month held until the summary was read: on a pool of one it
 * waited for ever, and downloads as many as a pool's connections did the same, with every request
 * of the app queued behind them. PostgreSQL only: the embedded database reads one after another.
 */
let ctx: TestContext;
let fx: FixtureSchool;
beforeAll(async () => {
  ctx = await createTestApp({ now: NOW, database: await openTestDatabase({ max: 1 }) });
  fx = await buildFixtureSchool(ctx);
});
afterAll(() => ctx.close());

const SESSION = 'fromDate=2026-04-01&toDate=2026-11-30';

describe('downloads on a pool of one connection', () => {
  it('each finishes with its figures, three at once too, and a screen read after them answers', async () => {
    const csv = await fx.school.api.get(`/api/reports/financial.csv?${SESSION}`);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines).toContain('Net profit,-155750.75');
    expect(lines).toContain('Total,,,,,29200.00,6600.00,,35800.00');

    const three = await Promise.all([1, 2, 3].map(() => fx.school.api.get(`/api/reports/financial.csv?${SESSION}`)));
    expect(three.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    for (const r of three) expect(r.body).toBe(csv.body);

    const students = await fx.school.api.get('/api/students');
    expect(students.statusCode).toBe(200);
    expect(students.json().length).toBeGreaterThan(0);
  });
});
