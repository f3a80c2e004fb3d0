import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { passouts } from '../db/schema';
import { onlyIf, read, readsAtOnceByShape, withoutReads } from '../lib/read-at-once';
import { approvedWaiversRead, lateFineRuleRead } from '../policy/fines';
import { FEE_SESSION, placementAndStructuresFrom, studentSessionReads } from './context';
import { carriedReads, sessionKeys } from './queries';
import { receiptWriteReads, receiverIdOf, replayRead, type ReceiptActor } from './writer';

/**
 * What a save (Record Fee Payment, the monthly grid, the yearly heads) reads after the student's
 * ledger lock, in ONE statement (decision 0049), assembled once for each shape (decision 0082):
 * the student's session (the one named, else their own), the receipt an earlier try with the same
 * clientId made, the running balances' inputs, and what only some saves need. The student's
 * placement and structures are taken from the balance inputs, not read a second time (decision 0101).
 */
export interface SaveShape {
  /** a session named by the user (`yearId`, `yearNames`), not the student's own */
  named: boolean;
  /** carried balances: the save pays a previous balance */
  carried: boolean;
  /** the late fine's rule and waivers: the save collects a fine */
  fine: boolean;
  /** the session the student left the school in (a passout's payment) */
  left: boolean;
}

const saveReads = readsAtOnceByShape(
  ['schoolId', 'studentId', 'yearId', 'yearNames', 'clientId', 'userId'],
  (p, shape: SaveShape & { replay: boolean; receiver: boolean }) => {
    const { schoolId, studentId } = p;
    const context = studentSessionReads({ schoolId, studentId, year: shape.named ? { id: p.yearId, names: p.yearNames } : undefined });
    return {
      with: context.with,
      reads: {
        // the placement and the structures are in the balance inputs below (`readForSave`)
        ...withoutReads(context.reads, 'placement', 'studentStructures'),
        seen: replayRead({ schoolId, clientId: shape.replay ? p.clientId : null }),
        ...onlyIf(shape.left, {
          leftFrom: read(
            sql`select session_id from ${passouts} where school_id = ${schoolId} and student_id = ${studentId} limit 1`,
            (r) => (r.session_id as string | null) ?? null,
          ),
        }),
        ...onlyIf(shape.carried, carriedReads({ schoolId, studentId })),
        ...onlyIf(shape.fine, {
          fineRule: lateFineRuleRead(schoolId),
          waivers: approvedWaiversRead({ schoolId, studentId, sessionId: FEE_SESSION }),
        }),
        ...receiptWriteReads({ schoolId, studentId, userId: shape.receiver ? p.userId : null }),
      },
    };
  },
);

/**
 * Runs a save's reads, with the placement and the structures `studentSessionFrom` takes. Hands the
 * statement to the driver before it returns, as `readUnderStudentLock` needs (`readsAtOnce` runs it
 * as `executePrepared` does).
 */
export function readForSave(
  tx: Db,
  {
    schoolId,
    studentId,
    academicYear,
    clientId,
    actor,
    receivedBy,
    ...needs
  }: Partial<Omit<SaveShape, 'named'>> & { schoolId: string; studentId: string; academicYear?: string | null | undefined; clientId: string | null; actor: ReceiptActor; receivedBy: string | null },
) {
  const year = academicYear ? sessionKeys(academicYear) : null;
  const userId = receiverIdOf(actor, receivedBy);
  const shape = { named: year !== null, carried: false, fine: false, left: false, ...needs, replay: clientId !== null, receiver: userId !== null };
  const read = saveReads(shape)(tx, { schoolId, studentId, yearId: year?.id ?? null, yearNames: year?.names ?? [], clientId, userId });
  return read.then((rows) => ({ ...rows, ...placementAndStructuresFrom(rows) }));
}
