import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { feeRules } from '../db/schema';

/**
 * The school's `fee_rules` row (late-fine rule, Tally ledger names), made when missing and locked to
 * the end of the transaction. A save of one of its settings takes it before reading what it merges
 * with or logs as "before": two saves at once then run one after the other, so a partial rename of
 * Tally ledgers keeps the other's, and each audit entry's "before" is what that save replaced.
 */
export async function lockFeeRules(tx: Db, schoolId: string): Promise<void> {
  await tx.insert(feeRules).values({ schoolId }).onConflictDoNothing();
  await tx.select({ schoolId: feeRules.schoolId }).from(feeRules).where(eq(feeRules.schoolId, schoolId)).for('update');
}
