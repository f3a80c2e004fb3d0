import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiNotFound } from '../lib/errors';
import { ROOT } from '../lib/root';

export { ROOT };

/** WEB_DIST lets parallel test runs build into their own folder. */
export const webDist = () => (process.env.WEB_DIST ? path.resolve(process.env.WEB_DIST) : path.join(ROOT, 'dist/web'));

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** The web build is stale when any of its sources is newer than the built index.html. */
export function webBuildIsStale(): boolean {
  const built = path.join(webDist(), 'index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  const sources = ['src/web', 'src/domain', 'index.html', 'vite.config.ts', 'package-lock.json'].map((p) => path.join(ROOT, p));
  return sources.some((s) => newestMtime(s) > builtAt);
}

export async function buildWebIfStale(log: (line: string) => void = console.log): Promise<void> {
  if (!webBuildIsStale()) return;
  await buildWeb(log);
}

/**
 * A build is what people are served, so it is always a production build, whatever NODE_ENV the
 * process asking for it runs under: in-process, CI's and the suites' NODE_ENV=test gave Vite a
 * development build (React's development code and JSX runtime, 197 kB of initial JavaScript instead
 * of 133 kB). Vite reads NODE_ENV once per process, hence a child process with its own.
 */
export async function buildWeb(log: (line: string) => void = console.log): Promise<void> {
  log('Building the web app (first start or sources changed)…');
  const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
  const args = [vite, 'build', '--config', path.join(ROOT, 'vite.config.ts'), '--outDir', webDist(), '--emptyOutDir', '--logLevel', 'warn'];
  const result = spawnSync(process.execPath, args, { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`The web build failed (vite build exited with ${result.status ?? result.signal})`);
  log('Web app built.');
}

/** Source maps would hand out the app's source: the build writes them without a reference (vite.config.ts) and they are never served. */
const isServable = (pathName: string) => !pathName.toLowerCase().endsWith('.map');

/**
 * Files under assets/ carry a content hash in their name, so a browser may keep them for a year
 * without asking; everything else (index.html, favicon) is revalidated so a deploy shows at once
 * (decision 0044).
 */
export function cacheControlFor(filePath: string): string {
  return filePath.split(path.sep).includes('assets') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** Serves the built app; every other non-API GET gets index.html so client routes work on reload. */
export async function serveWeb(app: FastifyInstance): Promise<void> {
  await app.register(fastifyStatic, {
    root: webDist(),
    prefix: '/',
    wildcard: false,
    index: ['index.html'],
    allowedPath: isServable,
    // the build's brotli and gzip copies (vite.config.ts, decision 0067) go out as they are; a file
    // without one is compressed by @fastify/compress as before. They are no paths of their own.
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    // @fastify/static's own cache-control is replaced by cacheControlFor
    cacheControl: false,
    setHeaders: (reply, filePath) => reply.header('cache-control', cacheControlFor(filePath)),
  });
}

export function spaNotFound(request: FastifyRequest, reply: FastifyReply) {
  const url = request.url.split('?')[0] ?? '';
  if ((request.method === 'GET' || request.method === 'HEAD') && !url.startsWith('/api/') && !path.extname(url)) {
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  }
  return apiNotFound(request, reply);
}
