import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import apiSetup from '../src/server/test/global-setup';
import { buildWeb } from '../src/server/web/static';
import { chromiumPath } from './browser';

declare module 'vitest' {
  export interface ProvidedContext {
    e2eSkipReason: string;
    webDist: string;
  }
}

/**
 * Browser journeys need Debian's Chromium. Without it they are reported as skipped, with the
 * reason, unless E2E=required (as in CI), where a missing browser fails the run.
 */
export default async function setup(project: TestProject) {
  const browser = chromiumPath();
  if (!browser) {
    const reason = 'no Chromium found at /usr/bin/chromium (apt-get install chromium, or set CHROMIUM_PATH)';
    if (process.env.E2E === 'required') throw new Error(`E2E=required but ${reason}`);
    console.warn(`\nBrowser journeys skipped: ${reason}\n`);
    project.provide('e2eSkipReason', reason);
    project.provide('webDist', '');
    project.provide('pgliteTemplate', '');
    project.provide('pgTemplate', '');
    return;
  }
  project.provide('e2eSkipReason', '');
  const dir = mkdtempSync(path.join(tmpdir(), 'ledger-e2e-web-'));
  process.env.WEB_DIST = dir;
  await buildWeb(() => {});
  project.provide('webDist', dir);
  const teardownDb = await apiSetup(project);
  return async () => {
    await teardownDb?.();
    rmSync(dir, { recursive: true, force: true });
  };
}
