/**
 * npm run create-admin -- --email E --password P [--reset-two-step]: creates or resets the master
 * administrator; --reset-two-step also removes the authenticator (a lost phone, decision 0035).
 */
import { parseArgs } from 'node:util';
import { newPasswordSchema } from '../src/domain/auth';
import { ensureMasterAdmin } from '../src/server/auth/master-admin';
import { findUserByEmail } from '../src/server/auth/queries';
import { removeTotp } from '../src/server/auth/totp-store';
import { audit } from '../src/server/lib/audit';
import { systemClock } from '../src/server/clock';
import { loadConfig } from '../src/server/config';
import { openAppDatabase } from '../src/server/db/client';
import { dataDirTexts } from '../src/server/db/messages';
import { seedPlans } from '../src/server/plans/queries';
import { exitOnKnownError } from './cli';

const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' }, 'reset-two-step': { type: 'boolean', default: false } } });
if (!values.email || !/^[^\s@]+@[^\s@]+$/.test(values.email) || !values.password) {
  console.error('Usage: npm run create-admin -- --email admin@example.com --password "at least 10 characters, not a common one"');
  process.exit(2);
}
// the same policy as registration, reset and change
const policy = newPasswordSchema.safeParse(values.password);
if (!policy.success) {
  console.error(policy.error.issues[0]?.message);
  process.exit(2);
}
const config = loadConfig();
const database = await openAppDatabase(config, {
  holder: 'npm run create-admin',
  refusalHint: dataDirTexts.createAdminWhileServerRuns,
}).catch(exitOnKnownError);
try {
  await seedPlans(database.db);
  const result = await ensureMasterAdmin(database.db, { email: values.email, password: values.password, now: systemClock.now() });
  console.log(`Master administrator ${values.email.toLowerCase()} ${result}. Sign in at ${config.appUrl}/admin-login`);
  if (values['reset-two-step']) {
    const user = await findUserByEmail(database.db, values.email);
    const removed = user ? await removeTotp(database.db, user.id) : false;
    if (user && removed) {
      await audit(database.db, { schoolId: null, userId: user.id }, { action: 'totp.reset', entity: 'user', entityId: user.id, after: { reason: 'npm run create-admin --reset-two-step' } });
    }
    console.log(removed ? 'Two-step sign-in removed: sign in with the password, then set it up again from Security.' : 'Two-step sign-in was not on.');
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
