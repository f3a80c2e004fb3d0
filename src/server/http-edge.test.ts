import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import viteConfig from '../../vite.config';
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, gunzipSync } from 'node:zlib';
import { buildApp, SYNC_COMPRESS_BYTES } from './app';
import { MovableClock } from './clock';
import { BODY_TOO_LARGE } from './lib/errors';
import { createSmtpMailer } from './mail/mailer';
import { precompressDir } from './web/precompress';
import { createTestApp, signUpSchool, type TestContext } from './test/harness';

/** Issue "Trust before launch", item 18: the edges of every request and answer. */

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
beforeAll(async () => {
  ctx = await createTestApp();
  school = await signUpSchool(ctx);
});
afterAll(() => ctx.close());

describe('request bodies', () => {
  it('a body over 1 MB answers 413 with a clear message, except on the bulk student import', async () => {
    const big = { date: '2026-04-10', description: 'x'.repeat(1024 * 1024 + 10), category: 'Other', amount: '10.00' };
    const res = await school.api.post('/api/expenses', big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: BODY_TOO_LARGE });
    expect(BODY_TOO_LARGE).toBe('The request is larger than 1 MB. Send less at a time.');

    // two megabytes of CSV text reach the import's own checks instead
    const csv = `name,class\n${'Asha,Class 1\n'.repeat(170_000)}`;
    expect(csv.length).toBeGreaterThan(2 * 1024 * 1024);
    const bulk = await school.api.post('/api/students/bulk-progress', { csv });
    expect(bulk.statusCode).not.toBe(413);
  });
});

describe('answers of the API', () => {
  it('every authenticated answer says Cache-Control: no-store, and so does the sign-in that hands out a token', async () => {
    for (const url of ['/api/students', '/api/academic-sessions', '/api/stats/school', '/api/auth/me']) {
      const res = await school.api.get(url);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const login = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: school.email, password: school.password } });
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    const denied = await ctx.app.inject({ method: 'GET', url: '/api/students' });
    expect(denied.headers['cache-control']).toBe('no-store');
  });
});

describe('compression of the API (decisions 0065, 0075)', () => {
  it("a screen's JSON is compressed in one call, with its length; a larger answer still streams", async () => {
    const csv = `name,class\n${Array.from({ length: 60 }, (_, i) => `Pupil Number ${i + 1},Class 3`).join('\n')}`;
    const imported = await school.api.post('/api/students/bulk-progress', { csv });
    expect(imported.statusCode).toBe(200);

    const plain = await school.api.get('/api/students?limit=50');
    expect(plain.headers['content-encoding']).toBeUndefined();
    // past the library's own limit for one call on two cores (8 KB), under ours
    expect(plain.rawPayload.length).toBeGreaterThan(8 * 1024);
    expect(plain.rawPayload.length).toBeLessThan(SYNC_COMPRESS_BYTES);

    for (const encoding of ['gzip', 'br'] as const) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/students?limit=50', headers: { authorization: `Bearer ${school.token}`, 'accept-encoding': encoding } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding'], encoding).toBe(encoding);
      // compressed whole: the answer says its length; a stream would be sent in chunks without one
      expect(res.headers['content-length'], encoding).toBe(String(res.rawPayload.length));
      expect(res.headers['transfer-encoding'], encoding).toBeUndefined();
      const text = (encoding === 'gzip' ? gunzipSync(res.rawPayload) : brotliDecompressSync(res.rawPayload)).toString('utf8');
      expect(text).toBe(plain.payload);
      expect(JSON.parse(text) as unknown[]).toHaveLength(50);
      // brotli at quality 2, not the library's 4 (decision 0075): the same bytes as that quality gives
      if (encoding === 'br') {
        expect(res.rawPayload.equals(brotliCompressSync(plain.rawPayload, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 2 } }))).toBe(true);
      }
    }

    // the API reference (over 256 KB) is compressed as a stream, so the event loop never waits on it
    const docs = await ctx.app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-encoding']).toBe('gzip');
    expect(docs.headers['content-length']).toBeUndefined();
    expect(gunzipSync(docs.rawPayload).length).toBeGreaterThan(SYNC_COMPRESS_BYTES);
  });
});

describe('security headers', () => {
  it('every answer carries the same security headers: an API answer, a refusal and a page not found', async () => {
    const answers = [await school.api.get('/api/students'), await ctx.app.inject({ method: 'GET', url: '/api/students' }), await ctx.app.inject({ method: 'GET', url: '/api/no-such-route' })];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 401, 404]);
    const razorpay = 'https://checkout.razorpay.com https://api.razorpay.com';
    for (const res of answers) {
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'self';img-src 'self' data: blob: https:;" +
          `object-src 'none';script-src 'self' ${razorpay};script-src-attr 'none';style-src 'self' 'unsafe-inline';frame-src 'self' ${razorpay};connect-src 'self' ${razorpay}`,
      );
      expect(res.headers).toMatchObject({
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'x-frame-options': 'SAMEORIGIN',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
      });
      expect(res.headers['cross-origin-embedder-policy']).toBeUndefined();
    }
  });
});

describe('source maps', () => {
  it('the production build does not reference its source maps, and the server never serves *.map', async () => {
    expect(viteConfig.build?.sourcemap).toBe('hidden');

    const dist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(path.join(dist, 'assets', 'app.js.map'), '{"version":3,"sources":["src/web/secret.ts"]}');
    const previous = process.env.WEB_DIST;
    process.env.WEB_DIST = dist;
    try {
      const app = await buildApp({
        db: ctx.database.db,
        dbKind: ctx.database.kind,
        config: { ...ctx.config, nodeEnv: 'production' },
        clock: new MovableClock(),
        mailer: createSmtpMailer(ctx.smtp.url, ctx.config.mailFrom),
        web: true,
      });
      await app.ready();
      expect((await app.inject({ method: 'GET', url: '/assets/app.js' })).statusCode).toBe(200);
      const map = await app.inject({ method: 'GET', url: '/assets/app.js.map' });
      expect(map.statusCode).toBe(404);
      expect(map.body).not.toContain('secret.ts');
      await app.close();
    } finally {
      if (previous === undefined) delete process.env.WEB_DIST;
      else process.env.WEB_DIST = previous;
      rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe('caching and compression of the web app (decisions 0044, 0067)', () => {
  it("hashed assets are kept for a year, index.html and client routes are revalidated, and the build's compressed copies are sent as they are", async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    const page = `<!doctype html><html lang="en-IN"><head><title>School Ledger</title></head><body>${'<div id="root"></div>'.repeat(80)}</body></html>`;
    const code = readFileSync(path.join(import.meta.dirname, '../domain/money.ts'), 'utf8');
    writeFileSync(path.join(dist, 'index.html'), page);
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(path.join(dist, 'assets', 'index-AbCd1234.js'), code);
    await precompressDir(dist);
    // a file without copies (one no copy makes smaller, or one put there by hand) is compressed when sent
    writeFileSync(path.join(dist, 'assets', 'late-AbCd1234.js'), `export const a = "${'x'.repeat(4000)}";`);
    const previous = process.env.WEB_DIST;
    process.env.WEB_DIST = dist;
    try {
      const app = await buildApp({
        db: ctx.database.db,
        dbKind: ctx.database.kind,
        config: { ...ctx.config, nodeEnv: 'production' },
        clock: new MovableClock(),
        mailer: createSmtpMailer(ctx.smtp.url, ctx.config.mailFrom),
        web: true,
      });
      await app.ready();
      const brCopy = readFileSync(path.join(dist, 'assets', 'index-AbCd1234.js.br'));
      const gzCopy = readFileSync(path.join(dist, 'assets', 'index-AbCd1234.js.gz'));
      // Chrome's accept-encoding gets the brotli copy, byte for byte, with its length
      const script = await app.inject({ method: 'GET', url: '/assets/index-AbCd1234.js', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
      expect(script.statusCode).toBe(200);
      expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(script.headers['content-encoding']).toBe('br');
      expect(script.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(script.headers['vary']).toMatch(/accept-encoding/i);
      expect(Number(script.headers['content-length'])).toBe(brCopy.length);
      expect(script.rawPayload.equals(brCopy)).toBe(true);
      expect(brotliDecompressSync(script.rawPayload).toString('utf8')).toBe(code);
      // gzip alone gets the gzip copy; no encoding gets the file itself
      const gzipped = await app.inject({ method: 'GET', url: '/assets/index-AbCd1234.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(gzipped.rawPayload.equals(gzCopy)).toBe(true);
      const plain = await app.inject({ method: 'GET', url: '/assets/index-AbCd1234.js', headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(code);
      // the copies are no addresses of their own
      expect((await app.inject({ method: 'GET', url: '/assets/index-AbCd1234.js.br' })).statusCode).toBe(404);
      // a client route gets index.html's brotli copy, revalidated
      const route = await app.inject({ method: 'GET', url: '/school/dashboard', headers: { 'accept-encoding': 'br' } });
      expect(route.headers['content-encoding']).toBe('br');
      expect(route.headers['cache-control']).toBe('no-cache');
      expect(brotliDecompressSync(route.rawPayload).toString('utf8')).toBe(page);
      const late = await app.inject({ method: 'GET', url: '/assets/late-AbCd1234.js', headers: { 'accept-encoding': 'gzip' } });
      expect(late.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(late.rawPayload).toString('utf8')).toContain('xxxx');
      for (const url of ['/', '/index.html', '/favicon.svg', '/school/dashboard']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['cache-control'], url).toBe('no-cache');
      }
      await app.close();
    } finally {
      if (previous === undefined) delete process.env.WEB_DIST;
      else process.env.WEB_DIST = previous;
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
