import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, STAFF_ROLES, type StaffRole } from '../../domain/permissions';
import type { SchoolRoute } from '../auth/context';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { addStaff } from './staff-helpers';

/**
 * Ruling 32: every school route names its permission, and the server answers each role as the one
 * table says: 403 (with the permission named) exactly where the role lacks it.
 */
let ctx: TestContext;
let routes: SchoolRoute[];
const tokens = new Map<StaffRole, string>();

beforeAll(async () => {
  ctx = await createTestApp();
  routes = ctx.app.schoolRoutes;
  const owner = await signUpSchool(ctx, { selectedPlan: 'premium' });
  tokens.set('owner', owner.token);
  for (const role of ['administrator', 'accountant', 'clerk', 'teacher'] as const) tokens.set(role, (await addStaff(ctx, owner, role)).token);
});
afterAll(() => ctx.close());

const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');

describe('the permission table on every school route', () => {
  it('finds a declared permission on every school route', () => {
    expect(routes.length).toBeGreaterThan(90);
    expect(routes.filter((r) => r.permission === null).map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('answers every role as the table says', async () => {
    const wrong: string[] = [];
    // the owner last: a walk with empty bodies must not change what the other roles see first
    for (const role of [...STAFF_ROLES].reverse()) {
      for (const { method, url, permission } of routes) {
        const res = await ctx.app.inject({
          method: method as 'GET',
          url: concrete(url),
          headers: { authorization: `Bearer ${tokens.get(role)}` },
          ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
        });
        const refused = res.statusCode === 403 && 'permission' in (res.json() as object);
        if (refused === can(role, permission!)) wrong.push(`${role} ${method} ${url} (${permission}) → ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
    // every route five times, PDFs and spreadsheets among them: 30 s was too short on a busy CI machine
  }, 180_000);
});
