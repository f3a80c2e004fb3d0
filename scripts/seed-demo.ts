/**
 * npm run seed:demo — a demo school with a realistic year and a half of data, written through the
 * app's own API on the configured database (DATA_DIR's embedded database, or DATABASE_URL).
 * Prints the sign-in at the end. DEMO_EMAIL, DEMO_PASSWORD and DEMO_STUDENTS change the defaults.
 */
import path from 'node:path';
import { buildApp } from '../src/server/app';
import { systemClock } from '../src/server/clock';
import { loadConfig } from '../src/server/config';
import { openAppDatabase } from '../src/server/db/client';
import { demoEmail, demoPassword, seedDemoSchool } from '../src/server/demo/seed-demo';
import { createOutboxMailer } from '../src/server/mail/mailer';
import { seedPlans } from '../src/server/plans/queries';
import { markSchoolChanged } from '../src/server/stats/versions';
import { exitOnKnownError } from './cli';

const config = loadConfig();
// refused while the server (or another command) has DATA_DIR open: two openers destroy it
const database = await openAppDatabase(config, { holder: 'npm run seed:demo' }).catch(exitOnKnownError);
await seedPlans(database.db);
const app = await buildApp({
  db: database.db,
  dbKind: database.kind,
  config,
  clock: systemClock,
  // the demo sends no mail: anything the app would send lands in the outbox folder
  mailer: createOutboxMailer(path.join(config.dataDir, 'outbox'), config.mailFrom, () => {}),
});
await app.ready();
const started = Date.now();
try {
  const result = await seedDemoSchool(app, database.db, {
    email: demoEmail(),
    password: demoPassword(),
    schoolName: 'Green Valley Public School',
    students: Number(process.env.DEMO_STUDENTS ?? 300),
    now: systemClock.now(),
    log: (line) => console.log(`  ${line}`),
  });
  await markSchoolChanged(database.db, result.schoolId);
  console.log(`\nDemo school ready in ${Math.round((Date.now() - started) / 1000)} s: ${result.students} students, ${result.receipts} receipts.`);
  console.log(`Sign in at ${config.appUrl}/login`);
  console.log(`  Email:    ${result.email}`);
  console.log(`  Password: ${result.password}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  // the demo's mail (its confirmation) goes to the outbox folder now, not later through a real server's SMTP
  await app.mailWorker.runOnce();
  await app.close();
  await database.close();
}
