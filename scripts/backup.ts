/**
 * npm run backup — a backup of the embedded database now, to DATA_DIR/backups. Refused while the
 * server runs (it already takes one a day and one before every upgrade); on PostgreSQL, use pg_dump.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/server/config';
import { backupsDir, embeddedDbDir, writeBackup } from '../src/server/db/backups';
import { openAppDatabase } from '../src/server/db/client';
import { dataDirTexts } from '../src/server/db/messages';
import { exitOnKnownError } from './cli';

try {
  const config = loadConfig();
  if (config.databaseUrl) {
    console.error(dataDirTexts.backupOnPostgres);
    process.exit(2);
  }
  const dbDir = embeddedDbDir(config.dataDir);
  if (!existsSync(path.join(dbDir, 'PG_VERSION'))) {
    console.error(dataDirTexts.nothingToBackUp(dbDir));
    process.exit(1);
  }
  const database = await openAppDatabase(config, {
    holder: 'npm run backup',
    refusalHint: dataDirTexts.backupWhileServerRuns(backupsDir(config.dataDir)),
    // the database exactly as it is: upgrading it is the server's job (and it backs up first)
    migrate: false,
  });
  try {
    const file = await writeBackup(database.embedded!.client, config.dataDir, { now: new Date() });
    console.log(dataDirTexts.backupWritten(file, statSync(file).size));
  } finally {
    await database.close();
  }
} catch (error) {
  exitOnKnownError(error);
}
