/** What every command does with a refusal it can explain: print the message, no stack trace. */
import { ConfigError } from '../src/server/config';
import { BackupError } from '../src/server/db/backups';
import { DataDirInUseError } from '../src/server/db/data-dir-lock';

export function exitOnKnownError(error: unknown): never {
  if (error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof BackupError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
