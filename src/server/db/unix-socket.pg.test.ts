import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnPostgres, NotifyBus, type BusListener, type BusMessage } from '../lib/notify-bus';
import { rowsOf } from '../lib/sql-rows';
import { withDatabase } from '../test/global-setup';
import { openTestDatabase } from '../test/harness';
import { boundedReadsBeside, openPostgres, type Database } from './client';

/**
 * Decision 0097: on the machine PostgreSQL runs on, DATABASE_URL names its Unix socket
 * (`postgres://user@localhost/db?host=/var/run/postgresql`), as the bench does. Every connection the
 * app opens from that setting goes through the socket: the request pool, the report builds' pool
 * beside it and the bus between processes. Only with DATABASE_URL (vitest.config.ts), and only where
 * this process can reach the server's socket (a PostgreSQL on another machine has none here).
 */
let database: Database;
let socketUrl: string | undefined;
/** the test database's URL over TCP, as DATABASE_URL names the server */
let tcpUrl: string;
beforeAll(async () => {
  database = await openTestDatabase();
  const [row] = rowsOf<{ name: string; dirs: string; port: string }>(
    await database.db.execute(sql`select current_database() as name, current_setting('unix_socket_directories') as dirs, current_setting('port') as port`),
  );
  tcpUrl = withDatabase(process.env.DATABASE_URL!, row!.name);
  const dir = row!.dirs.split(',')[0]!.trim();
  if (dir && existsSync(path.join(dir, `.s.PGSQL.${row!.port}`))) {
    const u = new URL(tcpUrl);
    u.hostname = 'localhost';
    u.port = row!.port;
    u.searchParams.set('host', dir);
    socketUrl = u.toString();
  }
});
afterAll(() => database.close());

/** How a connection reached the server: a Unix socket has no client address. */
const clientAddress = async (db: Database['db']) =>
  rowsOf<{ address: string | null; name: string }>(await db.execute(sql`select inet_client_addr()::text as address, current_database() as name`))[0]!;

describe('DATABASE_URL naming the Unix socket', () => {
  it('connects the request pool and the report builds through the socket', async (t) => {
    if (!socketUrl) return t.skip();
    const viaTcp = await clientAddress(database.db);
    // the suite's own connection is the TCP one of DATABASE_URL
    expect(viaTcp.address).not.toBeNull();
    const onSocket = await openPostgres(socketUrl, { max: 2 });
    const reports = boundedReadsBeside(onSocket.db, { max: 1, statementTimeoutMs: 5_000 });
    try {
      expect(await clientAddress(onSocket.db)).toEqual({ address: null, name: viaTcp.name });
      expect(await clientAddress(reports.db)).toEqual({ address: null, name: viaTcp.name });
      // a write through one is read through the other: the same database
      await onSocket.db.execute(sql`create table socket_probe (n int)`);
      await onSocket.db.execute(sql`insert into socket_probe values (7)`);
      expect(rowsOf<{ n: number }>(await database.db.execute(sql`select n from socket_probe`))).toEqual([{ n: 7 }]);
    } finally {
      await reports.close();
      await onSocket.close();
    }
  });

  it('carries the bus between processes through the socket', async (t) => {
    if (!socketUrl) return t.skip();
    const listening = new NotifyBus();
    const heard: BusMessage[] = [];
    listening.subscribe((m) => heard.push(m));
    const sending = new NotifyBus();
    const listeners: BusListener[] = [
      await listenOnPostgres(socketUrl, listening, { retryMs: 50 }),
      await listenOnPostgres(tcpUrl, sending, { retryMs: 50 }),
    ];
    try {
      // the listening bus's connection is the database's only one without a client address
      const onSocket = rowsOf<{ n: number }>(
        await database.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and client_addr is null`),
      )[0]!.n;
      expect(onSocket).toBe(1);
      sending.publish({ kind: 'session', id: 'socket-sid' });
      await expect.poll(() => heard).toContainEqual({ kind: 'session', id: 'socket-sid' });
    } finally {
      await Promise.all(listeners.map((l) => l.close()));
    }
  });
});
