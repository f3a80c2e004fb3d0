import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, serverBuildIsStale, serverBundle } from '../../scripts/server-build.mjs';
import { ROOT } from './lib/root';
import { freePort } from './test/ports';

/**
 * `npm start` serves from a bundle of the server compiled by esbuild, not through tsx (decision
 * 0051): what it builds, when it builds again, and that the bundle alone, run by plain node from
 * another folder, finds the project's migrations and serves.
 */

const scratch = mkdtempSync(path.join(tmpdir(), 'ledger-server-build-'));
const previousDist = process.env.SERVER_DIST;
let child: ChildProcess | undefined;

// inside the project, as dist/server is: the bundle imports its packages from the project's node_modules
const dist = path.join(ROOT, 'dist', `server-test-${process.pid}`);

beforeAll(() => {
  process.env.SERVER_DIST = dist;
});
afterAll(() => {
  child?.kill('SIGKILL');
  if (previousDist === undefined) delete process.env.SERVER_DIST;
  else process.env.SERVER_DIST = previousDist;
  rmSync(scratch, { recursive: true, force: true });
  rmSync(dist, { recursive: true, force: true });
});

describe('the server bundle of npm start', () => {
  it('is built once, and again when a source it was built from is newer or its list is gone', { timeout: 60_000 }, async () => {
    expect(serverBuildIsStale()).toBe(true);
    const lines: string[] = [];
    await buildServer((line) => lines.push(line));
    expect(lines).toEqual(['Building the server (first start or sources changed)…', 'Server built.']);
    expect(serverBuildIsStale()).toBe(false);

    // the project's own modules are inside it; packages are imported from node_modules
    const inputs = JSON.parse(readFileSync(path.join(dist, 'inputs.json'), 'utf8')) as string[];
    expect(inputs).toContain('src/server/main.ts');
    expect(inputs).toContain('src/domain/money.ts');
    expect(inputs.some((input) => input.endsWith('.test.ts'))).toBe(false);
    const code = readFileSync(serverBundle(), 'utf8');
    expect(code).toMatch(/from "fastify"/);
    expect(code).not.toMatch(/from "\.\.?\//);
    expect(code).not.toContain('sourceMappingURL');

    // a bundle older than its sources (a source saved since) is built again
    utimesSync(serverBundle(), new Date('2020-01-01'), new Date('2020-01-01'));
    expect(serverBuildIsStale()).toBe(true);
    const now = new Date();
    utimesSync(serverBundle(), now, now);
    expect(serverBuildIsStale()).toBe(false);
    unlinkSync(path.join(dist, 'inputs.json'));
    expect(serverBuildIsStale()).toBe(true);
  });

  it('serves when run by plain node, without tsx, from another working folder: migrations applied, plans seeded', { timeout: 90_000 }, async () => {
    if (!existsSync(serverBundle())) await buildServer(() => {});
    const port = await freePort();
    child = spawn(process.execPath, [serverBundle()], {
      cwd: scratch,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', PORT: String(port), DATA_DIR: path.join(scratch, 'data'), SERVE_WEB: 'false', PAYMENTS_PROVIDER: 'sandbox' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await expect
      .poll(
        async () => {
          if (child!.exitCode !== null) throw new Error(`the server stopped while starting:\n${output}`);
          return fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.status, () => 0);
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe(200);
    expect(output).toContain(`School Ledger is running on`);
    const plans = (await (await fetch(`http://127.0.0.1:${port}/api/plans`)).json()) as Array<{ name: string }>;
    expect(plans.map((p) => p.name)).toEqual(expect.arrayContaining(['Basic', 'Premium']));
    expect(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0')).not.toContain('tsx');
  });
});
