/**
 * npm run verify-ledger [--school <id>] — recomputes every running balance (decision 0041) from the
 * receipts on the configured database (DATA_DIR's embedded database, or DATABASE_URL) and compares
 * with the stored rows, the whole-school rows (decision 0058) with a build from scratch, and each
 * day's income per head (decision 0089) with the lines. Prints each difference and exits 1 if there
 * is any.
 */
import { loadConfig } from '../src/server/config';
import { openAppDatabase } from '../src/server/db/client';
import { verifyAllBalances } from '../src/server/balances/verify';
import { exitOnKnownError } from './cli';

const args = process.argv.slice(2);
const at = args.indexOf('--school');
const only = at >= 0 ? args[at + 1] : undefined;
if (at >= 0 && !only) {
  console.error('Usage: npm run verify-ledger [-- --school <school id>]');
  process.exit(2);
}

const config = loadConfig();
const database = await openAppDatabase(config, { holder: 'npm run verify-ledger' }).catch(exitOnKnownError);
try {
  const { schools, rows, differences } = await verifyAllBalances(database.db, only ? [only] : undefined);
  for (const d of differences) {
    console.log(`school ${d.schoolId} student ${d.studentId} session ${d.sessionId ?? '-'} ${d.field}: stored ${d.stored}, recomputed ${d.recomputed}`);
  }
  if (differences.length > 0) {
    console.error(`verify-ledger: ${differences.length} difference(s) in ${schools} school(s).`);
    process.exitCode = 1;
  } else {
    console.log(`verify-ledger: ${rows} balance, position and income rows of ${schools} school(s) equal the ledger.`);
  }
} finally {
  await database.close();
}
