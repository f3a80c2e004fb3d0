import type { BenchContext, BenchRow } from './types';

/** The cost every signed-in request pays: token check plus the session row lookup. */
export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const school = await ctx.createSchool('Bench Platform School');
  return [
    await ctx.load({ name: 'GET /api/auth/me (session check)', path: '/api/auth/me', token: school.token, duration: 3, target: { p99Ms: 50, label: 'p99 < 50 ms' } }),
  ];
}
