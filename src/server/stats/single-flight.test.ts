import type { SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';

/**
 * Issue "Trust before launch", item 14: when a school's figures were stale, every concurrent
 * request computed them again (30 requests at 2,000 students took 28 s). The seam: the statement the
 * cards are read with, handed to `readAfterCatchUp` (decision 0080), which is wrapped to count (and
 * slow down) it, so this school is "slow" (over a second) like a big one.
 */

let ctx: TestContext;
let statsStatements = 0;
const STATS_DELAY_MS = 1_100;
const isStatsStatement = (query: SQL) =>
  query.queryChunks.some((chunk) => Array.isArray((chunk as { value?: unknown }).value) && (chunk as { value: string[] }).value.join('').includes('json_build_array(e.category, e.total)'));

vi.mock('./student-positions', async (importOriginal) => {
  const original = await importOriginal<typeof import('./student-positions')>();
  return {
    ...original,
    readAfterCatchUp: async (...args: Parameters<typeof original.readAfterCatchUp>) => {
      if (isStatsStatement(args[3])) {
        statsStatements += 1;
        await new Promise((resolve) => setTimeout(resolve, STATS_DELAY_MS));
      }
      return original.readAfterCatchUp(...args);
    },
  };
});

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  vi.useRealTimers();
  await ctx.close();
});

const student = (name: string) => ({ name, class: 'Class 1', section: 'A', fatherName: 'Ravi', mobileNumber: '9876543210', monthlyBusFee: '0.00' });

describe('stats of a school are computed once however many ask', () => {
  it('twenty concurrent requests for stale stats run the stats query once and all get the same figures', async () => {
    const school = await signUpSchool(ctx);
    expect((await school.api.post('/api/students', student('Asha'))).statusCode).toBe(201);
    const first = await school.api.get('/api/stats/school');
    expect(first.json().totalStudents).toBe(1);
    expect(statsStatements).toBe(1);

    // a change, and two minutes later (past the age limit of the previous figures) the office opens the dashboard at once
    expect((await school.api.post('/api/students', student('Bilal'))).statusCode).toBe(201);
    ctx.clock.advance(2 * 60_000);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * 60_000);
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, () => school.api.get('/api/stats/school')),
      ...Array.from({ length: 5 }, () => school.api.get('/api/stats/charts')),
    ]);
    vi.useRealTimers();

    expect(answers.map((a) => a.statusCode)).toEqual(Array(25).fill(200));
    expect(statsStatements).toBe(2);
    const stats = answers.slice(0, 20).map((a) => a.json());
    expect(new Set(stats.map((s) => s.totalStudents))).toEqual(new Set([2]));
    expect(new Set(stats.map((s) => s.generatedAt)).size).toBe(1);
  }, 30_000);

  it('a request made after a write joins the computation still waiting to read, and sees the write (decision 0105)', async () => {
    const school = await signUpSchool(ctx);
    expect((await school.api.post('/api/students', student('Asha'))).statusCode).toBe(201);
    const before = statsStatements;
    // the cards' computation waits (here for 1.1 s, under a load for the pool) before it reads
    const first = school.api.get('/api/stats/school');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await school.api.post('/api/students', student('Bilal'))).statusCode).toBe(201);
    const started = Date.now();
    const second = await school.api.get('/api/stats/school');
    // it did not wait for that computation and then a second one of its own
    expect(Date.now() - started).toBeLessThan(2 * STATS_DELAY_MS);
    expect(second.statusCode).toBe(200);
    expect(second.json().totalStudents).toBe(2);
    expect((await first).json().totalStudents).toBe(2);
    expect(statsStatements - before).toBe(1);
  }, 30_000);
});
