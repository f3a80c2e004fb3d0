import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { dataExports } from '../db/schema';

export type ExportRowDb = typeof dataExports.$inferSelect;

/** How long a finished zip can be downloaded before it is deleted. */
export const EXPORT_KEEP_DAYS = 7;

/**
 * The school's export waiting or running, if any: a second click while one is under way gets that
 * one rather than a second copy of the same work.
 */
export async function findPendingExport(db: Db, schoolId: string): Promise<ExportRowDb | undefined> {
  const [row] = await db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.schoolId, schoolId), inArray(dataExports.status, ['queued', 'running'])))
    .orderBy(desc(dataExports.createdAt))
    .limit(1);
  return row;
}

export async function createExport(db: Db, input: { schoolId: string; userId: string; now: Date }): Promise<ExportRowDb> {
  const [row] = await db
    .insert(dataExports)
    .values({
      schoolId: input.schoolId,
      createdBy: input.userId,
      createdAt: input.now,
      expiresAt: new Date(input.now.getTime() + EXPORT_KEEP_DAYS * 86_400_000),
    })
    .returning();
  return row!;
}

/** One export of this school; another school's id finds nothing. */
export async function findExport(db: Db, input: { schoolId: string; id: string }): Promise<ExportRowDb | undefined> {
  const [row] = await db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.schoolId, input.schoolId), eq(dataExports.id, input.id)))
    .limit(1);
  return row;
}

export function listExports(db: Db, schoolId: string, limit = 5): Promise<ExportRowDb[]> {
  return db.select().from(dataExports).where(eq(dataExports.schoolId, schoolId)).orderBy(desc(dataExports.createdAt)).limit(limit);
}

/** A zip that may still be downloaded: finished, with its file, and not past its expiry. */
export const isDownloadable = (row: ExportRowDb, now: Date) => row.status === 'done' && row.filePath !== null && row.expiresAt > now;
