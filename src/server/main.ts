import cluster from 'node:cluster';
import { ensureMasterAdmin } from './auth/master-admin';
import { buildApp } from './app';
import { systemClock } from './clock';
import { STOP_MESSAGE, supervise } from './cluster';
import { ConfigError, loadConfig, type Config } from './config';
import { openAppDatabase } from './db/client';
import { DataDirInUseError } from './db/data-dir-lock';
import { dataDirTexts } from './db/messages';
import { listenOnPostgres } from './lib/notify-bus';
import { createMailer } from './mail/create';
import { seedPlans } from './plans/queries';
import { backfillBalances } from './balances/backfill';
import { buildWebIfStale } from './web/static';

/** How long a stop may take (in-flight requests, the mail being sent) before the process gives up. */
const SHUTDOWN_GRACE_MS = 25_000;

const runningLine = (config: Config, kind: 'pglite' | 'postgres') =>
  `School Ledger is running on ${config.appUrl} (database: ${kind === 'pglite' ? `embedded, in ${config.dataDir}/db` : 'PostgreSQL'}${config.workers > 1 ? `, ${config.workers} app processes` : ''}; mail: ${config.smtpUrl ? 'SMTP' : `outbox in ${config.dataDir}/outbox`}; payments: ${config.paymentsProvider === 'razorpay' ? 'Razorpay' : 'sandbox, test payments only'}${config.serveWeb ? '' : '; web app not served'}).`;

/** What happens once before any app process serves: migrations, plans, the master administrator, the web build. */
async function prepare(config: Config): Promise<Awaited<ReturnType<typeof openAppDatabase>>> {
  const database = await openAppDatabase(config, { holder: dataDirTexts.serverHolder, dailyBackups: true });
  await seedPlans(database.db);
  // data older than the running balances gets them once, before the first request (decision 0041)
  await backfillBalances(database.db, (line) => console.log(line));
  if (config.admin) {
    const result = await ensureMasterAdmin(database.db, { ...config.admin, now: systemClock.now() });
    console.log(`Master administrator ${config.admin.email} ${result}.`);
  }
  if (config.serveWeb) await buildWebIfStale();
  return database;
}

/** WORKERS>1: the primary prepares the database once, then only supervises (decision 0043). */
async function primary(config: Config): Promise<void> {
  const database = await prepare(config);
  await database.close();
  supervise({ workers: config.workers, graceMs: SHUTDOWN_GRACE_MS + 5_000, onListening: () => console.log(runningLine(config, 'postgres')) });
}

/** One app process: the whole server with WORKERS=1, or one of the primary's workers. */
async function server(config: Config): Promise<void> {
  const worker = cluster.isWorker;
  const database = worker ? await openAppDatabase(config, { migrate: false }) : await prepare(config);
  // the session check and the figures are cached per process: other processes' changes arrive here
  const bus = config.databaseUrl ? await listenOnPostgres(config.databaseUrl) : null;
  const app = await buildApp({
    db: database.db,
    dbKind: database.kind,
    config,
    clock: systemClock,
    mailer: createMailer(config),
    logger: { level: config.nodeEnv === 'production' ? 'info' : 'warn' },
    web: config.serveWeb,
  });

  // A stop finishes what is under way: the server stops accepting, answers the requests it has,
  // the mail worker finishes its current send, then the database closes. A second signal, or a
  // stop that outlasts the grace period, ends the process at once. A cluster worker leaves the
  // second signal to its primary: a Ctrl+C reaches both, and must not count twice.
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      if (worker) return;
      console.error(`${signal} again: stopping now without waiting.`);
      process.exit(1);
    }
    stopping = true;
    if (!worker) console.log(`${signal} received: finishing requests in progress, then stopping.`);
    setTimeout(() => {
      console.error(`Could not stop within ${SHUTDOWN_GRACE_MS / 1000} s; stopping now.`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    void (async () => {
      try {
        await app.close();
        await bus?.close();
        await database.close();
        if (!worker) console.log('School Ledger stopped.');
        process.exit(0);
      } catch (error) {
        console.error('Stopping failed:', error);
        process.exit(1);
      }
    })();
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  if (worker) process.on('message', (message) => message === STOP_MESSAGE && shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: '0.0.0.0' });
  if (!worker) console.log(runningLine(config, database.kind));
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (config.workers > 1 && cluster.isPrimary) await primary(config);
  else await server(config);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
