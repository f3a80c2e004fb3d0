import { sql } from 'drizzle-orm';
import { paise, type Paise } from '../../domain/money';
import type { Db } from '../db/client';
import { studentCreditEntries } from '../db/schema';
import { read, readRows, type Bound, type Read } from '../lib/read-at-once';

/**
 * A student's credit balance (ruling 27): the sum of their credit entries (online money beyond
 * the dues, less what was applied to fees or refunded). Read here so fee screens show it without
 * depending on the online-payments area, which writes it.
 */
export async function creditBalance(db: Db, { schoolId, studentId }: { schoolId: string; studentId: string }): Promise<Paise> {
  return creditFrom(await readRows(db, creditRead({ schoolId, studentId })));
}

/** The student's credit as one read, to run beside others (`readAtOnce`); `creditFrom` takes its row. */
export function creditRead({ schoolId, studentId }: { schoolId: Bound; studentId: Bound }): Read<Paise> {
  return read(
    sql`select coalesce(sum(amount_paise), 0)::text as total from ${studentCreditEntries} where school_id = ${schoolId} and student_id = ${studentId}`,
    (r) => paise(Number(r.total)),
  );
}

export const creditFrom = (rows: readonly Paise[]): Paise => rows[0] ?? paise(0);
