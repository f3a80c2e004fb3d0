import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { openTestDatabase } from '../test/harness';
import { readTogether } from './reads';
import { rowsOf } from './sql-rows';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

function tracedRead(db: Database['db'], name: string, events: string[]) {
  return async () => {
    events.push(`start ${name}`);
    const [row] = rowsOf<{ name: string }>(await db.execute(sql`select ${name}::text as name from pg_sleep(0.02)`));
    events.push(`end ${name}`);
    return row!.name;
  };
}

describe('readTogether', () => {
  it('runs the reads of a transaction one after another and answers in order', async () => {
    const events: string[] = [];
    const names = await database.db.transaction((tx) => readTogether(tx, tracedRead(tx, 'a', events), tracedRead(tx, 'b', events)));
    expect(names).toEqual(['a', 'b']);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('starts the reads on the pool at once', async () => {
    const events: string[] = [];
    const names = await readTogether(database.db, tracedRead(database.db, 'a', events), tracedRead(database.db, 'b', events));
    expect(names).toEqual(['a', 'b']);
    expect(events.slice(0, 2)).toEqual(['start a', 'start b']);
  });
});
