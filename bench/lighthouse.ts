/**
 * npm run bench:lighthouse [-- --form-factor desktop|mobile --runs 3 --students 300 --port 5104 --reports DIR]
 * Lighthouse performance and accessibility of the login page, the dashboard and Fee Status (issue 14,
 * item 5; docs/decisions/0044-web-weight-and-accessibility.md). The app runs on a fresh embedded
 * database with the seeded demo school and serves the production build; Lighthouse (the npm package)
 * drives Debian's Chromium. Signed-in pages get the demo's token in localStorage first, as
 * scripts/screenshot.ts does. Writes bench/results/lighthouse-<time>.json, prints a table and exits 1
 * when a score is under the target.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Result } from 'lighthouse';
import { chromium } from 'playwright-core';
import { buildApp } from '../src/server/app';
import { systemClock } from '../src/server/clock';
import { loadConfig } from '../src/server/config';
import { migrateDatabase, openPglite } from '../src/server/db/client';
import { seedDemoSchool } from '../src/server/demo/seed-demo';
import { createOutboxMailer } from '../src/server/mail/mailer';
import { seedPlans } from '../src/server/plans/queries';
import { buildWeb } from '../src/server/web/static';
import { chromiumPath } from '../e2e/browser';

const TARGET = 95;
const { values } = parseArgs({
  options: {
    'form-factor': { type: 'string', default: 'desktop' },
    students: { type: 'string', default: '300' },
    // each page is measured this many times and the median run kept, as Lighthouse advises for noisy machines
    runs: { type: 'string', default: '3' },
    port: { type: 'string', default: process.env.PORT ?? '5104' },
    // a folder for Lighthouse's full JSON reports, to see what lost the points
    reports: { type: 'string' },
  },
});
const formFactor = values['form-factor'] === 'mobile' ? 'mobile' : 'desktop';

const PAGES = [
  { page: 'login', path: '/login', signedIn: false },
  { page: 'dashboard', path: '/school/dashboard', signedIn: true },
  { page: 'fee status', path: '/school/dashboard?tab=student-fee-status', signedIn: true },
] as const;

const executablePath = chromiumPath();
if (!executablePath) throw new Error('No Chromium found (apt-get install chromium)');

// the scores follow the machine's load (decision 0044): it is recorded beside them
const loadAverageAtStart = os.loadavg().map((n) => Number(n.toFixed(1)));
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ledger-lighthouse-'));
const database = await openPglite({ dataDir: path.join(dataDir, 'db') });
await migrateDatabase(database);
await seedPlans(database.db);
const port = Number(values.port);
const config = loadConfig({
  NODE_ENV: 'production',
  PAYMENTS_PROVIDER: 'sandbox',
  PORT: String(port),
  APP_URL: `http://127.0.0.1:${port}`,
  SESSION_SECRET: 'lighthouse-secret-that-is-long-enough-for-hs256',
  ENCRYPTION_KEY: 'lighthouse-encryption-key-that-is-long-enough-0',
  DATA_DIR: dataDir,
});
// what a deploy serves: the production build, made fresh so the scores are of the current sources.
// Before the app is built: the app reads index.html and the asset list when it registers the static
// files, so a build made after it served an index.html naming chunks the new build had replaced
// (every page blank, Lighthouse's NO_FCP).
await buildWeb(() => {});
const app = await buildApp({
  db: database.db,
  dbKind: database.kind,
  config,
  clock: systemClock,
  mailer: createOutboxMailer(path.join(dataDir, 'outbox'), config.mailFrom, () => {}),
  web: true,
});
let chrome: chromeLauncher.LaunchedChrome | undefined;
const rows: Array<{ page: string; url: string; formFactor: string; runs: number[]; performance: number; accessibility: number; target: number; pass: boolean; failing: string[] }> = [];
try {
  await app.ready();
  console.log('Seeding the demo school…');
  const demo = await seedDemoSchool(app, database.db, {
    email: 'lighthouse@greenvalley.demo',
    password: 'GreenValley2026',
    schoolName: 'Green Valley Public School',
    students: Number(values.students),
    now: systemClock.now(),
    log: () => {},
  });
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: demo.email, password: demo.password } });
  const token = (login.json() as { token?: string }).token;
  if (!token) throw new Error(`Demo sign-in failed: ${login.statusCode} ${login.body.slice(0, 200)}`);
  await app.listen({ port, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${port}`;

  chrome = await chromeLauncher.launch({
    chromePath: executablePath,
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
  for (const target of PAGES) {
    console.log(`Lighthouse: ${target.page}`);
    // the token goes into the browser's own profile (its default context), which Lighthouse's tabs
    // share; the tab that set it is closed first, or Lighthouse's tab loads in the background and never paints
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const page = await browser.contexts()[0]!.newPage();
    await page.goto(`${baseUrl}/favicon.svg`);
    await page.evaluate((t) => (t ? localStorage.setItem('auth_token', t) : localStorage.removeItem('auth_token')), target.signedIn ? token : '');
    await page.close();
    await browser.close();
    const url = `${baseUrl}${target.path}`;
    const runs: Result[] = [];
    for (let i = 0; i < Math.max(1, Number(values.runs)); i++) {
      const result = await lighthouse(
        url,
        { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], disableStorageReset: true },
        formFactor === 'desktop' ? desktopConfig : undefined,
      );
      if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
      runs.push(result.lhr);
    }
    const perf = (r: Result) => r.categories.performance?.score ?? 0;
    const lhr = [...runs].sort((a, b) => perf(a) - perf(b))[Math.floor(runs.length / 2)]!;
    if (values.reports) {
      mkdirSync(values.reports, { recursive: true });
      writeFileSync(path.join(values.reports, `${target.page.replace(/\W+/g, '-')}.json`), JSON.stringify(lhr));
    }
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const performance = score('performance');
    const accessibility = score('accessibility');
    // what to look at when a score drops: the audits that lost points
    const failing = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && (a.scoreDisplayMode === 'binary' || a.scoreDisplayMode === 'numeric' || a.scoreDisplayMode === 'metricSavings'))
      .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`);
    // a run that failed scores 0 and a median hides it: each such run is named with its reason
    runs.forEach((r, i) => {
      const problem = r.runtimeError
        ? `${r.runtimeError.code}: ${r.runtimeError.message}`
        : r.finalDisplayedUrl.includes('/login') && target.signedIn
          ? 'redirected to /login: the token was not used'
          : r.categories.performance?.score == null
            ? 'no performance score'
            : null;
      if (problem) failing.unshift(`run ${i + 1}: ${problem}`);
    });
    rows.push({ page: target.page, url: target.path, formFactor, runs: runs.map((r) => Math.round(perf(r) * 100)), performance, accessibility, target: TARGET, pass: performance >= TARGET && accessibility >= TARGET, failing });
  }
} finally {
  await chrome?.kill();
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const resultsDir = path.join(path.dirname(new URL(import.meta.url).pathname), 'results');
mkdirSync(resultsDir, { recursive: true });
const file = path.join(resultsDir, `lighthouse-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), chromium: executablePath, formFactor, cores: os.cpus().length, loadAverageAtStart, loadAverageAtEnd: os.loadavg().map((n) => Number(n.toFixed(1))), rows }, null, 2)}\n`);

console.log(`\nLighthouse (${formFactor}, median of ${values.runs}), target ${TARGET}; load average ${loadAverageAtStart.join(' ')} at the start`);
console.log('page         performance  accessibility  pass');
for (const r of rows) console.log(`${r.page.padEnd(12)} ${String(r.performance).padStart(11)}  ${String(r.accessibility).padStart(13)}  ${r.pass ? 'yes' : 'NO'}`);
for (const r of rows.filter((x) => x.failing.length > 0)) console.log(`  ${r.page}: ${r.failing.join(', ')}`);
console.log(`\nWritten ${path.relative(process.cwd(), file)}`);
if (rows.some((r) => !r.pass)) process.exitCode = 1;
