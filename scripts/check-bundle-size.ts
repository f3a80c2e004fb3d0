/**
 * npm run size [-- --no-build]
 * The web app's initial JavaScript — what index.html loads before any route renders: its module
 * script, the modulepreloads and whatever those import statically — must stay within the budget in
 * gzip (issue 14, item 5; docs/decisions/0044-web-weight-and-accessibility.md). Builds first unless
 * --no-build (then dist/web must exist), prints each initial file and what the login page, the
 * dashboard and Fee Status add on top, and exits 1 above the budget.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { buildWeb, webDist } from '../src/server/web/static';

/** kB as Vite prints them (1,000 bytes), gzip at the level @fastify/compress serves. */
export const INITIAL_JS_BUDGET_KB = 150;

/** Routes worth watching, by the file name of the chunk that renders them. */
const ROUTES: Array<{ name: string; chunks: string[] }> = [
  { name: 'login page', chunks: ['login-page'] },
  { name: 'dashboard (students tab)', chunks: ['dashboard-page', 'students-tab', 'school-stats-panel'] },
  { name: 'Fee Status', chunks: ['dashboard-page', 'fee-status-tab', 'opening-panel'] },
];

const { values } = parseArgs({ options: { 'no-build': { type: 'boolean', default: false } } });
const dist = webDist();
if (!values['no-build']) await buildWeb(() => {});
const indexHtml = path.join(dist, 'index.html');
if (!existsSync(indexHtml)) throw new Error(`${indexHtml} is missing: run without --no-build`);

const kb = (bytes: number) => (bytes / 1000).toFixed(1).padStart(7);
const gzipped = new Map<string, number>();
const gzipSize = (file: string) => {
  if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(path.join(dist, file))).length);
  return gzipped.get(file)!;
};

/** A chunk and every chunk it imports statically (dynamic import() is loaded later, on demand). */
function closure(files: string[], seen = new Set<string>()): Set<string> {
  for (const file of files) {
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(path.join(dist, file), 'utf8');
    // minified static imports: import{a as b}from"./x.js"; import"./x.js"; export{…}from"./x.js"
    const imports = [...code.matchAll(/(?:import|from)\s*["']\.\/([^"']+\.js)["']/g)].map((m) => path.posix.join(path.posix.dirname(file), m[1]!));
    closure(imports, seen);
  }
  return seen;
}

const html = readFileSync(indexHtml, 'utf8');
const refs = (re: RegExp) => [...html.matchAll(re)].map((m) => m[1]!.replace(/^\//, ''));
const entry = refs(/<script[^>]*type="module"[^>]*src="([^"]+)"/g);
const preloads = refs(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g);
const css = refs(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g);
const initial = closure([...entry, ...preloads]);

console.log('Initial JavaScript (gzip kB):');
let total = 0;
for (const file of [...initial].sort((a, b) => gzipSize(b) - gzipSize(a))) {
  total += gzipSize(file);
  console.log(`  ${kb(gzipSize(file))}  ${file}`);
}
console.log(`  ${kb(total)}  total, budget ${INITIAL_JS_BUDGET_KB} kB`);
// what a browser downloads: the build's brotli copies, which the server sends as they are (decision 0067)
const sentSize = (file: string) => (existsSync(path.join(dist, `${file}.br`)) ? statSync(path.join(dist, `${file}.br`)).size : gzipSize(file));
console.log(`  ${kb([...initial].reduce((sum, f) => sum + sentSize(f), 0))}  as sent to a browser that takes brotli (the build's .br copies)`);
for (const file of css) console.log(`  ${kb(gzipSize(file))}  ${file} (stylesheet, not counted)`);

const assets = readdirSync(path.join(dist, 'assets'));
console.log('\nWhat a route adds on top (gzip kB):');
for (const route of ROUTES) {
  const starts = route.chunks.map((prefix) => assets.find((f) => f.endsWith('.js') && new RegExp(`^${prefix}-[\\w-]{8}\\.js$`).test(f))).filter((f): f is string => Boolean(f));
  const extra = [...closure(starts.map((f) => `assets/${f}`))].filter((f) => !initial.has(f));
  console.log(`  ${kb(extra.reduce((sum, f) => sum + gzipSize(f), 0))}  ${route.name} (${extra.length} files)`);
}

if (total > INITIAL_JS_BUDGET_KB * 1000) {
  console.error(`\nInitial JavaScript is ${(total / 1000).toFixed(1)} kB gzip, over the ${INITIAL_JS_BUDGET_KB} kB budget.`);
  console.error('Load the heavy part with a lazy route or React.lazy (see src/web/app/router.tsx).');
  process.exitCode = 1;
}
