import { ensureMasterAdmin } from './auth/master-admin';
import { buildApp } from './app';
import { systemClock } from './clock';
import { ConfigError, loadConfig } from './config';
import { openAppDatabase } from './db/client';
import { DataDirInUseError } from './db/data-dir-lock';
import { dataDirTexts } from './db/messages';
import { createMailer } from './mail/create';
import { seedPlans } from './plans/queries';
import { buildWebIfStale } from './web/static';

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openAppDatabase(config, { holder: dataDirTexts.serverHolder, dailyBackups: true });
  await seedPlans(database.db);
  if (config.admin) {
    const result = await ensureMasterAdmin(database.db, { ...config.admin, now: systemClock.now() });
    console.log(`Master administrator ${config.admin.email} ${result}.`);
  }
  await buildWebIfStale();
  const app = await buildApp({
    db: database.db,
    dbKind: database.kind,
    config,
    clock: systemClock,
    mailer: createMailer(config),
    logger: { level: config.nodeEnv === 'production' ? 'info' : 'warn' },
    web: true,
  });
  const shutdown = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await app.listen({ port: config.port, host: '0.0.0.0' });
  console.log(
    `School Ledger is running on ${config.appUrl} (database: ${database.kind === 'pglite' ? `embedded, in ${config.dataDir}/db` : 'PostgreSQL'}; mail: ${config.smtpUrl ? 'SMTP' : `outbox in ${config.dataDir}/outbox`}; payments: ${config.paymentsProvider === 'razorpay' ? 'Razorpay' : 'sandbox, test payments only'}).`,
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
