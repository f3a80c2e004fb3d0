/**
 * npm run restore -- FILE — puts a backup from DATA_DIR/backups back as the embedded database.
 * Refused while the server runs; the database it replaces is kept as DATA_DIR/db.before-restore-<time>.
 */
import path from 'node:path';
import { loadConfig } from '../src/server/config';
import { restoreBackup } from '../src/server/db/backups';
import { dataDirTexts } from '../src/server/db/messages';
import { exitOnKnownError } from './cli';

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error(dataDirTexts.restoreUsage);
  process.exit(2);
}
try {
  const config = loadConfig();
  if (config.databaseUrl) {
    console.error(dataDirTexts.restoreOnPostgres);
    process.exit(2);
  }
  const source = path.resolve(file);
  const result = await restoreBackup(config.dataDir, source, { holder: 'npm run restore' });
  console.log(dataDirTexts.restoreDone(source, result.dbDir, result.keptAside));
} catch (error) {
  exitOnKnownError(error);
}
