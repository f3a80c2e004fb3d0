import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { ROOT } from '../lib/root';
import { rowsOf } from '../lib/sql-rows';
import { withDatabase } from './global-setup';

export interface Sample {
  /** Date.now() of the process that took it, when the answer came */
  at: number;
  n: number;
}

/**
 * A process of its own that asks PostgreSQL one question (`query`, answering a column `n`) over and
 * over on a connection of its own, and reports each answer with the time it came: what another
 * session sees of the test's database while the test's own event loop is held busy (PostgreSQL
 * tests only). It stops after `stopWhenAbove` first answers more than 0 (if given) or `forMs`.
 */
export async function watchDatabase(
  db: Db,
  { query, params = [], forMs = 30_000, stopWhenAbove = false }: { query: string; params?: string[]; forMs?: number; stopWhenAbove?: boolean },
): Promise<{ samples: () => Promise<Sample[]> }> {
  const [row] = rowsOf<{ name: string }>(await db.execute(sql`select current_database() as name`));
  const script = `
    const { Client } = require('pg');
    const c = new Client({ connectionString: process.env.WATCH_URL });
    c.connect().then(async () => {
      console.log('ready');
      const deadline = Date.now() + Number(process.env.WATCH_FOR_MS);
      while (Date.now() < deadline) {
        const r = await c.query(process.env.WATCH_QUERY, JSON.parse(process.env.WATCH_PARAMS));
        const n = Number(r.rows[0] ? r.rows[0].n : 0);
        console.log('sample ' + Date.now() + ' ' + n);
        if (n > 0 && process.env.WATCH_STOP === '1') break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await c.end();
    });`;
  const child = spawn(process.execPath, ['-e', script], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      WATCH_URL: withDatabase(process.env.DATABASE_URL!, row!.name),
      WATCH_QUERY: query,
      WATCH_PARAMS: JSON.stringify(params),
      WATCH_FOR_MS: String(forMs),
      WATCH_STOP: stopWhenAbove ? '1' : '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.setEncoding('utf8');
  await new Promise<void>((resolve) => {
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('ready')) resolve();
    });
  });
  return {
    async samples() {
      if (child.exitCode === null) await once(child, 'exit');
      return [...out.matchAll(/sample (\d+) (\d+)/g)].map((m) => ({ at: Number(m[1]), n: Number(m[2]) }));
    },
  };
}

/**
 * A query logger for the database handle that, once armed, holds the app's event loop busy for `ms`
 * right after the next statement containing `marker` has been handed to the socket (with whatever
 * goes with it in the same write): the app looks as it does under load, busy with other requests'
 * work, while PostgreSQL carries on. `spell` says when the last busy spell began and ended.
 */
export function busyAfterStatement(ms: number) {
  let armed: string | null = null;
  const spell = { from: 0, to: 0 };
  return {
    logger: {
      logQuery(query: string) {
        if (!armed || !query.includes(armed)) return;
        armed = null;
        process.nextTick(() => {
          spell.from = Date.now();
          while (Date.now() < spell.from + ms) {
            // the event loop is busy
          }
          spell.to = Date.now();
        });
      },
    },
    arm(marker: string) {
      armed = marker;
      spell.from = 0;
      spell.to = 0;
    },
    spell,
  };
}
