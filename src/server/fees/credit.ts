import { and, eq, sql } from 'drizzle-orm';
import { paise, type Paise } from '../../domain/money';
import type { Db } from '../db/client';
import { studentCreditEntries } from '../db/schema';

/**
 * A student's credit balance (ruling 27): the sum of their credit entries (online money beyond
 * the dues, less what was applied to fees or refunded). Read here so fee screens show it without
 * depending on the online-payments area, which writes it.
 */
export async function creditBalance(db: Db, { schoolId, studentId }: { schoolId: string; studentId: string }): Promise<Paise> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${studentCreditEntries.amountPaise}), 0)` })
    .from(studentCreditEntries)
    .where(and(eq(studentCreditEntries.schoolId, schoolId), eq(studentCreditEntries.studentId, studentId)));
  return paise(Number(row?.total ?? 0));
}
