import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { errorForLog } from './log';

let ctx: TestContext;
let quiet: TestContext;
const lines: string[] = [];
const quietLines: string[] = [];
beforeAll(async () => {
  ctx = await createTestApp({ env: { LOG_REQUESTS: 'true' }, logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } });
  quiet = await createTestApp({ logger: { level: 'info', stream: { write: (line: string) => void quietLines.push(line) } } });
});
afterAll(async () => {
  await ctx.close();
  await quiet.close();
});

describe('what the log holds', () => {
  it('a failed SQL statement is logged with its code and without its parameters', async () => {
    const error = await ctx.database.db.execute(sql`select ${'Ravi Kumar 9876543210'}::uuid as id`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    // the driver's own message names the value: the log must not
    expect(JSON.stringify({ message: (error as Error).message, cause: String((error as Error).cause) })).toContain('Ravi Kumar');
    const logged = JSON.stringify(errorForLog(error));
    expect(logged).not.toContain('Ravi Kumar');
    expect(logged).not.toContain('9876543210');
    expect(errorForLog(error)).toMatchObject({ code: '22P02', message: 'invalid input syntax for type uuid: "…"' });
  });

  it('a search in the query string never reaches the request log', async () => {
    const school = await signUpSchool(ctx);
    lines.length = 0;
    const res = await school.api.get('/api/students?q=Ravi%20Kumar&class=Class%201');
    expect(res.statusCode).toBe(200);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain('Ravi');
    expect(lines.join('\n')).toContain('"url":"/api/students"');
  });

  it('without LOG_REQUESTS a good request writes no line, and a failed one still does', async () => {
    const school = await signUpSchool(quiet);
    quietLines.length = 0;
    expect((await school.api.get('/api/students?q=Ravi')).statusCode).toBe(200);
    expect(quietLines.filter((l) => l.includes('/api/students'))).toEqual([]);
    // a table that has gone away answers 500: that request is logged, without its query string
    await quiet.database.db.execute(sql`alter table students rename to students_gone`);
    const res = await school.api.get('/api/students?q=Ravi');
    expect(res.statusCode).toBe(500);
    const failed = quietLines.map((l) => JSON.parse(l) as { msg: string; statusCode?: number; req?: { url: string } }).filter((l) => l.msg === 'request failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ statusCode: 500, req: { url: '/api/students' } });
  });
});
