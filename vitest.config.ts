import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

const alias = { '@': path.resolve(import.meta.dirname, 'src') };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: 'unit', include: ['src/domain/**/*.test.ts', 'src/web/**/*.test.ts'], environment: 'node', sequence: { groupOrder: 0 } },
      },
      {
        resolve: { alias },
        test: {
          name: 'api',
          include: ['src/server/**/*.test.ts'],
          // *.pg.test.ts need PostgreSQL itself (several app processes on one database, decision
          // 0043): part of the API run on PostgreSQL, left out of the embedded-database run
          exclude: process.env.DATABASE_URL ? configDefaults.exclude : [...configDefaults.exclude, '**/*.pg.test.ts'],
          globalSetup: ['src/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          // what expect.poll waits for is background work (the mail and message senders, jobs)
          // sharing two cores with the other test files: vitest's 1 s was too short on a busy
          // CI machine (a reset mail sent after 1.2 s failed a run); a poll returns as soon as it holds
          expect: { poll: { timeout: 10_000 } },
          // PGlite instances are memory-hungry; two workers match the two cores of CI
          maxWorkers: 2,
          // the groups run one after another: unit, then API, then the browser journeys
          sequence: { groupOrder: 1 },
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
