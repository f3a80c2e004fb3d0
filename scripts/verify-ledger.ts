/**
 * npm run verify-ledger [--school <id>] — recomputes every running balance (decision 0041) from the
 * receipts on the configured database (DATA_DIR's embedded database, or DATABASE_URL) and compares
 * with the stored rows. Prints each difference and exits 1 if there is any.
 */
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/server/config';
import { openAppDatabase } from '../src/server/db/client';
import { verifySchoolBalances } from '../src/server/balances/verify';
import { rowsOf } from '../src/server/lib/sql-rows';
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
  const schools = only
    ? [only]
    : rowsOf<{ id: string }>(await database.db.execute(sql`select id from schools order by created_at`)).map((r) => r.id);
  let rows = 0;
  let differences = 0;
  for (const schoolId of schools) {
    const result = await verifySchoolBalances(database.db, schoolId);
    rows += result.rows;
    differences += result.differences.length;
    for (const d of result.differences) {
      console.log(`school ${d.schoolId} student ${d.studentId} session ${d.sessionId ?? '-'} ${d.field}: stored ${d.stored}, recomputed ${d.recomputed}`);
    }
  }
  if (differences > 0) {
    console.error(`verify-ledger: ${differences} difference(s) in ${schools.length} school(s).`);
    process.exitCode = 1;
  } else {
    console.log(`verify-ledger: ${rows} balance rows of ${schools.length} school(s) equal the ledger.`);
  }
} finally {
  await database.close();
}
