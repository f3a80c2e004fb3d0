import { bigint, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { schools, users } from './platform';

/**
 * A whole-school data export (ruling 25, docs/decisions/0036): a job row that a background worker
 * claims, fills with progress and finishes with a zip under DATA_DIR/exports. The row outlives a
 * restart; a job whose worker died is taken over once its lease runs out.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] }).notNull().default('queued'),
    /** 0–100: rows written of rows counted at the start */
    progress: integer('progress').notNull().default(0),
    /** the zip, relative to DATA_DIR (`exports/<id>.zip`), once done */
    filePath: text('file_path'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    /** a safe message for the person when the job failed */
    error: text('error'),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** a running job belongs to its worker until then; renewed as it goes */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** the zip is deleted after this; the row stays as a record that an export was made */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('data_exports_school_created_idx').on(t.schoolId, t.createdAt),
    index('data_exports_pending_idx').on(t.status, t.createdAt).where(sql`${t.status} in ('queued', 'running')`),
    check('data_exports_progress_range', sql`${t.progress} between 0 and 100`),
  ],
);
