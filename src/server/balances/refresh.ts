import type { Db } from '../db/client';

export interface BalanceScope {
  schoolId: string;
  studentIds: readonly string[];
  /** only these sessions of the students; every session they have when left out */
  sessionIds?: readonly string[];
}

/**
 * The one call every write that changes what a student owes or has paid makes, in its own
 * transaction, after writing (issue 14: running balances). The running-balance module fills this in;
 * until it lands, the readers still compute from the ledger and this call has nothing to keep.
 */
export async function refreshBalances(_db: Db, _scope: BalanceScope): Promise<void> {}
