import { ensureMasterAdmin } from './auth/master-admin';
import { buildApp } from './app';
import { systemClock } from './clock';
import { ConfigError, loadConfig } from './config';
import { openAppDatabase } from './db/client';
import { DataDirInUseError } from './db/data-dir-lock';
import { dataDirTexts } from './db/messages';
import { createMailer } from './mail/create';
import { seedPlans } from './plans/queries';
import { backfillBalances } from './balances/backfill';
import { buildWebIfStale } from './web/static';

/** How long a stop may take (in-flight requests, the mail being sent) before the process gives up. */
const SHUTDOWN_GRACE_MS = 25_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openAppDatabase(config, { holder: dataDirTexts.serverHolder, dailyBackups: true });
  await seedPlans(database.db);
  // data older than the running balances gets them once, before the first request (decision 0041)
  await backfillBalances(database.db, (line) => console.log(line));
  if (config.admin) {
    const result = await ensureMasterAdmin(database.db, { ...config.admin, now: systemClock.now() });
    console.log(`Master administrator ${config.admin.email} ${result}.`);
  }
  if (config.serveWeb) await buildWebIfStale();
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
  // stop that outlasts the grace period, ends the process at once.
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      console.error(`${signal} again: stopping now without waiting.`);
      process.exit(1);
    }
    stopping = true;
    console.log(`${signal} received: finishing requests in progress, then stopping.`);
    setTimeout(() => {
      console.error(`Could not stop within ${SHUTDOWN_GRACE_MS / 1000} s; stopping now.`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    void (async () => {
      try {
        await app.close();
        await database.close();
        console.log('School Ledger stopped.');
        process.exit(0);
      } catch (error) {
        console.error('Stopping failed:', error);
        process.exit(1);
      }
    })();
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await app.listen({ port: config.port, host: '0.0.0.0' });
  console.log(
    `School Ledger is running on ${config.appUrl} (database: ${database.kind === 'pglite' ? `embedded, in ${config.dataDir}/db` : 'PostgreSQL'}; mail: ${config.smtpUrl ? 'SMTP' : `outbox in ${config.dataDir}/outbox`}; payments: ${config.paymentsProvider === 'razorpay' ? 'Razorpay' : 'sandbox, test payments only'}${config.serveWeb ? '' : '; web app not served'}).`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
