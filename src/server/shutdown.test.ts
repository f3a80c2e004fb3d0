import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './web/static';
import { freePort } from './test/ports';

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });

const connects = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

let child: ChildProcess | undefined;
const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-shutdown-'));
afterAll(() => {
  // npm, its shell and the server run in their own process group: whatever is left of it goes
  try {
    if (child?.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('stopping the server', () => {
  it('npm start stops on SIGTERM: answers the request in flight, exits 0 and frees the port', { timeout: 90_000 }, async () => {
    const port = await freePort();
    // the real `npm start`, as a service manager runs it; a clean environment: the embedded
    // database in a temporary folder, whatever database the test run itself uses
    child = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', PORT: String(port), DATA_DIR: dataDir, SERVE_WEB: 'false', PAYMENTS_PROVIDER: 'sandbox' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));

    await expect
      .poll(
        async () => {
          if (child!.exitCode !== null) throw new Error(`the server stopped while starting:\n${output}`);
          return fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.status, () => 0);
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe(200);

    // a request whose body is still arriving when the stop begins
    const body = JSON.stringify({ email: 'nobody@school.test', password: 'not-the-password' });
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      request.once('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      request.once('error', reject);
    });
    response.catch(() => undefined); // a failing run reports through the assertions below
    request.write(body.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 200)); // the server has the request's head

    const stopAsked = Date.now();
    child.kill('SIGTERM');
    await expect.poll(() => output, { timeout: 5_000 }).toContain('SIGTERM received');
    await expect.poll(() => connects(port), { timeout: 5_000 }).toBe(false); // no new connections
    expect(child.exitCode).toBeNull(); // still waiting for the request in flight

    request.end(body.slice(10));
    const answer = await response;
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body).error).toBe('Invalid email or password');

    expect(await exited).toBe(0);
    expect(Date.now() - stopAsked).toBeLessThan(10_000);
    expect(output).toContain('School Ledger stopped.');
    expect(await portIsFree(port)).toBe(true);
  });
});
