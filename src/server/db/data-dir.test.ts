import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { seedPlans } from '../plans/queries';
import { createTestApp, migrationsCopy, signUpSchool } from '../test/harness';
import { backupIfDue, listBackups, pruneBackups, restoreBackup, startDailyBackups, writeBackup } from './backups';
import { migrateDatabase, migrationsFolder, openAppDatabase, openPglite, type Database, type Db } from './client';
import { lockDataDir } from './data-dir-lock';
import { dataDirTexts } from './messages';

const here = path.dirname(fileURLToPath(import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'ledger-datadir-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// each of these opens PGlite on disk a few times (an initdb takes seconds on a busy machine)
const slow = 120_000;

let dirs = 0;
function emptyDataDir(): string {
  const dir = path.join(scratch, `data-${++dirs}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A DATA_DIR whose embedded database is the migrated template, as a server that has run leaves it. */
async function migratedDataDir(): Promise<string> {
  const dir = emptyDataDir();
  const templateFile = inject('pgliteTemplate');
  if (!templateFile) {
    // the suite on PostgreSQL has no embedded template: these tests are about the embedded database, so migrate one
    const database = await openPglite({ dataDir: path.join(dir, 'db') });
    await migrateDatabase(database);
    await seedPlans(database.db);
    await database.close();
    return dir;
  }
  const template = readFileSync(templateFile);
  mkdirSync(path.join(dir, 'db'));
  const client = await PGlite.create({ dataDir: path.join(dir, 'db'), loadDataDir: new Blob([new Uint8Array(template)]) });
  await client.close();
  return dir;
}

/** Another process that takes DATA_DIR's lock through the real code and keeps it until killed. */
async function holdLockInChild(dataDir: string): Promise<ChildProcess> {
  const lockModule = path.join(here, 'data-dir-lock.ts');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { lockDataDir } from ${JSON.stringify(lockModule)};
       lockDataDir(${JSON.stringify(dataDir)}, 'npm run seed:demo');
       console.log('locked');
       setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the child exited with ${code}`)));
  });
  return child;
}

function killAndWait(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/** Every row of every table (the app's and drizzle's migration log), as comparable text. */
async function everyRow(db: Db): Promise<Record<string, string[]>> {
  const tables = await db.execute<{ schema: string; name: string }>(sql`
    select table_schema as schema, table_name as name from information_schema.tables
    where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1, 2`);
  const out: Record<string, string[]> = {};
  for (const t of tables.rows) {
    const rows = await db.execute(sql.raw(`select * from "${t.schema}"."${t.name}" order by 1`));
    // order by 1 can tie (a join table's first column): sorting the text makes the comparison exact
    out[`${t.schema}.${t.name}`] = rows.rows.map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).sort();
  }
  return out;
}

describe('one program at a time on DATA_DIR', () => {
  it('npm run seed:demo while the server is up is refused, naming the server, instead of damaging the database', { timeout: slow }, async () => {
    const dataDir = await migratedDataDir();
    const server = await openAppDatabase({ dataDir }, { holder: dataDirTexts.serverHolder });
    try {
      const seeding = openAppDatabase({ dataDir }, { holder: 'npm run seed:demo' });
      await expect(seeding).rejects.toThrow(`is in use by the School Ledger server: process ${process.pid}`);
      await expect(seeding).rejects.toThrow('Stop the server first');
      // the server's database is untouched and still answers
      const schools = await server.db.execute<{ n: number }>(sql`select count(*)::int as n from schools`);
      expect(schools.rows[0]!.n).toBe(0);
    } finally {
      await server.close();
    }
    // the server's graceful close frees the directory: the command now runs
    const seed = await openAppDatabase({ dataDir }, { holder: 'npm run seed:demo' });
    await seed.close();
  });

  it('a command started while another process holds the data directory is refused with that process named', async () => {
    const dataDir = emptyDataDir();
    const child = await holdLockInChild(dataDir);
    try {
      expect(() => lockDataDir(dataDir, 'npm run create-admin')).toThrow(
        `is in use by npm run seed:demo: process ${child.pid}`,
      );
      await expect(openAppDatabase({ dataDir }, { holder: dataDirTexts.serverHolder })).rejects.toThrow(`kill ${child.pid}`);
      // the refused opener did not create a database either
      expect(existsSync(path.join(dataDir, 'db'))).toBe(false);
    } finally {
      await killAndWait(child, 'SIGTERM');
    }
  });

  it('a lock left by a process that crashed is taken over', async () => {
    const dataDir = emptyDataDir();
    const child = await holdLockInChild(dataDir);
    // SIGKILL: no exit handler runs, the lock file stays behind
    await killAndWait(child, 'SIGKILL');
    const stale = JSON.parse(readFileSync(path.join(dataDir, 'db.lock'), 'utf8')) as { pid: number };
    expect(stale.pid).toBe(child.pid);

    const lock = lockDataDir(dataDir, 'npm run backup');
    const taken = JSON.parse(readFileSync(path.join(dataDir, 'db.lock'), 'utf8')) as { pid: number; holder: string };
    expect(taken).toMatchObject({ pid: process.pid, holder: 'npm run backup' });
    lock.release();
    expect(existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
  });

  it('a lock naming this process that it does not hold (a restarted container reuses PIDs) is taken over', () => {
    const dataDir = emptyDataDir();
    writeFileSync(
      path.join(dataDir, 'db.lock'),
      JSON.stringify({ holder: dataDirTexts.serverHolder, pid: process.pid, hostname: 'old-container', startedAt: '2026-01-01T00:00:00.000Z', processStart: null }),
    );
    const lock = lockDataDir(dataDir, dataDirTexts.serverHolder);
    lock.release();
  });
});

describe('backups of the embedded database', () => {
  it('a backup restored into a fresh directory gives the same rows in every table', { timeout: slow }, async () => {
    const dataDir = await migratedDataDir();
    const database = await openAppDatabase({ dataDir }, { holder: dataDirTexts.serverHolder });
    const ctx = await createTestApp({ database });
    let before: Record<string, string[]>;
    let file: string;
    try {
      const school = await signUpSchool(ctx, { schoolName: 'Dal Lake Public School' });
      const added = await school.api.post('/api/students', { name: 'Aarav Sharma', class: '1st', section: 'A' });
      expect(added.statusCode).toBe(201);
      file = await writeBackup(database.embedded!.client, dataDir, { now: new Date('2026-04-10T05:30:00Z') });
      expect(path.basename(file)).toBe('ledger-20260410-053000.tar.gz');
      before = await everyRow(database.db);
    } finally {
      await ctx.close();
    }
    expect(before['public.schools']!.join()).toContain('Dal Lake Public School');
    expect(before['public.students']!.join()).toContain('Aarav Sharma');

    const fresh = emptyDataDir();
    const result = await restoreBackup(fresh, file, { holder: 'npm run restore' });
    expect(result).toEqual({ dbDir: path.join(fresh, 'db'), keptAside: null });
    const restored = await openAppDatabase({ dataDir: fresh }, { holder: dataDirTexts.serverHolder });
    try {
      const after = await everyRow(restored.db);
      expect(Object.keys(after)).toEqual(Object.keys(before));
      expect(after).toEqual(before);
    } finally {
      await restored.close();
    }
  });

  it('an existing database is backed up before pending migrations run, and only then', { timeout: slow }, async () => {
    // a release older by one migration: the same folder without its newest entry
    const older = migrationsCopy(path.join(scratch, 'older-migrations'), { drop: 1 });
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };

    const dataDir = emptyDataDir();
    const logged: string[] = [];
    const log = (line: string) => logged.push(line);
    // first start: a new database is created, not backed up
    const first = await openAppDatabase({ dataDir }, { migrationsFolder: older, log });
    await first.close();
    expect(listBackups(dataDir)).toEqual([]);

    // the upgrade: one migration pending, so a backup comes first
    const upgraded = await openAppDatabase({ dataDir }, { log, now: () => new Date('2026-06-01T04:00:00Z') });
    const applied = await upgraded.db.execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    await upgraded.close();
    expect(applied.rows[0]!.n).toBe(journal.entries.length);
    const backups = listBackups(dataDir);
    expect(backups.map((b) => path.basename(b.file))).toEqual(['ledger-20260601-040000-before-migration.tar.gz']);
    expect(logged).toEqual([dataDirTexts.backupBeforeMigration(backups[0]!.file)]);

    // the backup holds the database as it was before the upgrade
    const check = emptyDataDir();
    await restoreBackup(check, backups[0]!.file, { holder: 'npm run restore' });
    const client = await PGlite.create({ dataDir: path.join(check, 'db') });
    const logged2 = await client.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
    await client.close();
    expect(logged2.rows[0]!.n).toBe(journal.entries.length - 1);

    // nothing pending: no second backup
    const again = await openAppDatabase({ dataDir }, { log });
    await again.close();
    expect(listBackups(dataDir)).toHaveLength(1);
  });

  it('backups older than 14 days are pruned, never the newest one', () => {
    const dataDir = emptyDataDir();
    const dir = path.join(dataDir, 'backups');
    mkdirSync(dir);
    const names = [
      'ledger-20260409-020000.tar.gz', // 1 day old
      'ledger-20260328-020000-before-migration.tar.gz', // 13 days
      'ledger-20260326-020000.tar.gz', // 15 days
      'ledger-20260301-020000.tar.gz', // 40 days
      'notes.txt', // not a backup: left alone
    ];
    for (const name of names) writeFileSync(path.join(dir, name), 'x');
    writeFileSync(path.join(dir, '.ledger-20260301-020000.tar.gz.123.partial'), 'half');
    utimesSync(path.join(dir, '.ledger-20260301-020000.tar.gz.123.partial'), new Date('2026-03-01'), new Date('2026-03-01'));

    const now = new Date('2026-04-10T02:00:00Z');
    const removed = pruneBackups(dataDir, now).map((f) => path.basename(f));
    expect(removed.sort()).toEqual(['ledger-20260301-020000.tar.gz', 'ledger-20260326-020000.tar.gz']);
    expect(readdirSync(dir).sort()).toEqual(['ledger-20260328-020000-before-migration.tar.gz', 'ledger-20260409-020000.tar.gz', 'notes.txt']);

    // a server that was off for a month: every backup is old, the newest one stays
    const later = new Date('2026-05-20T02:00:00Z');
    expect(pruneBackups(dataDir, later).map((f) => path.basename(f))).toEqual(['ledger-20260328-020000-before-migration.tar.gz']);
    expect(listBackups(dataDir).map((b) => path.basename(b.file))).toEqual(['ledger-20260409-020000.tar.gz']);
  });

  it('the running server takes a backup when the newest is a day old, and not sooner', { timeout: slow }, async () => {
    const dataDir = await migratedDataDir();
    const database = await openAppDatabase({ dataDir }, { holder: dataDirTexts.serverHolder });
    try {
      const client = database.embedded!.client;
      const first = await backupIfDue(client, dataDir, new Date('2026-04-10T02:00:00Z'));
      expect(path.basename(first!)).toBe('ledger-20260410-020000.tar.gz');
      expect(await backupIfDue(client, dataDir, new Date('2026-04-11T01:59:00Z'))).toBeNull();

      // the timer: a check soon after start finds the backup due (a day and more later)
      let now = new Date('2026-04-11T02:30:00Z');
      const logged: string[] = [];
      const schedule = startDailyBackups(client, dataDir, {
        now: () => now,
        firstCheckMs: 0,
        checkEveryMs: 60_000,
        log: (line) => logged.push(line),
      });
      await expect.poll(() => logged.length, { timeout: 15_000 }).toBe(1);
      now = new Date('2026-04-11T03:30:00Z');
      await schedule.stop();
      const newest = path.join(dataDir, 'backups', 'ledger-20260411-023000.tar.gz');
      expect(logged).toEqual([dataDirTexts.dailyBackupWritten(newest)]);
      expect(listBackups(dataDir).map((b) => b.file)).toEqual([newest, path.join(dataDir, 'backups', 'ledger-20260410-020000.tar.gz')]);
    } finally {
      await database.close();
    }
  });
});

describe('npm run restore', () => {
  async function withOneBackup(): Promise<{ dataDir: string; file: string; database: Database }> {
    const dataDir = await migratedDataDir();
    const database = await openAppDatabase({ dataDir }, { holder: dataDirTexts.serverHolder });
    const file = await writeBackup(database.embedded!.client, dataDir, { now: new Date('2026-04-10T02:00:00Z') });
    return { dataDir, file, database };
  }

  it('is refused while the server runs, then keeps the replaced database aside', { timeout: slow }, async () => {
    const { dataDir, file, database } = await withOneBackup();
    // written after the backup: gone from the restored database, still in the one kept aside
    await database.db.execute(
      sql`insert into plans (id, name, monthly_price_paise, yearly_price_paise, features) values ('after-backup', 'Made after the backup', 100, 1000, '[]')`,
    );
    try {
      await expect(restoreBackup(dataDir, file, { holder: 'npm run restore' })).rejects.toThrow('in use by the School Ledger server');
    } finally {
      await database.close();
    }
    const result = await restoreBackup(dataDir, file, { holder: 'npm run restore', now: new Date('2026-04-12T08:00:00Z') });
    expect(result.keptAside).toBe(path.join(dataDir, 'db.before-restore-20260412-080000'));
    expect(existsSync(path.join(result.keptAside!, 'PG_VERSION'))).toBe(true);
    const restored = await openAppDatabase({ dataDir }, { holder: dataDirTexts.serverHolder });
    const plans = await restored.db.execute<{ id: string }>(sql`select id from plans where id = 'after-backup'`);
    await restored.close();
    expect(plans.rows).toEqual([]);
    const aside = await PGlite.create({ dataDir: result.keptAside! });
    const kept = await aside.query<{ name: string }>(`select name from plans where id = 'after-backup'`);
    await aside.close();
    expect(kept.rows).toEqual([{ name: 'Made after the backup' }]);
  });

  it('a file that does not open is refused and the current database is left as it was', { timeout: slow }, async () => {
    const { dataDir, database } = await withOneBackup();
    await database.close();
    const bad = path.join(scratch, 'not-a-backup.tar.gz');
    writeFileSync(bad, 'this is not a tarball');
    await expect(restoreBackup(dataDir, bad, { holder: 'npm run restore' })).rejects.toThrow(
      `${bad} is not a School Ledger backup that opens`,
    );
    await expect(restoreBackup(dataDir, path.join(scratch, 'missing.tar.gz'), { holder: 'npm run restore' })).rejects.toThrow(
      dataDirTexts.restoreNoFile(path.join(scratch, 'missing.tar.gz')),
    );
    expect(readdirSync(dataDir).filter((n) => n.startsWith('db')).sort()).toEqual(['db']);
    const still = await openAppDatabase({ dataDir }, { holder: dataDirTexts.serverHolder });
    const plans = await still.db.execute<{ n: number }>(sql`select count(*)::int as n from plans`);
    await still.close();
    expect(plans.rows[0]!.n).toBeGreaterThan(0);
  });
});
