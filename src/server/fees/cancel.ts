import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { CLOSING_MESSAGES } from '../../domain/cash-closing';
import { isBalanceHead } from '../../domain/ledger';
import { can } from '../../domain/permissions';
import { refreshBalances } from '../balances/refresh';
import { isDayClosed } from '../cash/queries';
import type { Db } from '../db/client';
import { receipts } from '../db/schema';
import { audit } from '../lib/audit';
import { conflict, forbidden } from '../lib/errors';
import { addBackToCarried, closedAccounts, closedSessionsTouched } from './balances';
import { lockStudentLedger } from './locks';
import { findReceipt, findStudentOr404 } from './queries';
import { formatReceiptDate } from './receipt-text';

type Found = NonNullable<Awaited<ReturnType<typeof findReceipt>>>;

/**
 * The one way a receipt stops counting: the cancel route and a bounced cheque both come here, so
 * carried balances, the running balances and the audit row are handled alike. Call inside the
 * transaction of the caller's own write.
 */
export async function cancelReceiptInTx(
  tx: Db,
  request: FastifyRequest,
  { schoolId, found, reason, now, action = 'receipt.cancel' }: { schoolId: string; found: Found; reason: string; now: Date; action?: string },
): Promise<Found> {
  await lockStudentLedger(tx, { schoolId, studentId: found.receipt.studentId });
  const fresh = (await findReceipt(tx, { schoolId, id: found.receipt.id }))!;
  if (fresh.receipt.status === 'cancelled') {
    throw conflict(`Receipt ${fresh.receipt.receiptNumber} was already cancelled on ${formatReceiptDate(fresh.receipt.cancelledAt!.toISOString())}.`);
  }
  // a closed day's receipts are the closing's figures: only an Accountant or Administrator reopens one (issue 15)
  const role = request.auth?.schoolRole ?? 'owner';
  if (!can(role, 'cash.acknowledge') && (await isDayClosed(tx, { schoolId, userId: fresh.receipt.receivedByUserId, at: fresh.receipt.receivedAt }))) {
    throw forbidden(CLOSING_MESSAGES.closedDayCancel, { closedDay: true });
  }
  const student = await findStudentOr404(tx, { schoolId, studentId: fresh.receipt.studentId });
  const sessionIds = [...new Set(fresh.lines.filter((l) => !isBalanceHead(l.head)).map((l) => l.sessionId))];
  const closed = await closedSessionsTouched(tx, { schoolId, studentId: student.id, sessionIds });
  const before = await closedAccounts(tx, { schoolId, student, rows: closed });
  await tx
    .update(receipts)
    .set({ status: 'cancelled', cancelledAt: now, cancelledBy: request.auth?.userId ?? null, cancelReason: reason })
    .where(and(eq(receipts.schoolId, schoolId), eq(receipts.id, fresh.receipt.id)));
  const after = await closedAccounts(tx, { schoolId, student, rows: closed });
  const putBack = [];
  for (const row of closed) {
    const added = await addBackToCarried(tx, { row, before: before.get(row.id)!, after: after.get(row.id)!, at: now });
    if (added.monthly || added.yearly) putBack.push({ previousBalanceId: row.id, academicYear: row.academicYear, ...added });
  }
  await refreshBalances(tx, { schoolId, studentIds: [student.id] });
  await audit(tx, request, {
    action,
    entity: 'receipt',
    entityId: fresh.receipt.id,
    before: { receiptNumber: fresh.receipt.receiptNumber, status: 'live', totalPaise: Number(fresh.receipt.totalPaise) },
    after: { status: 'cancelled', reason, cancelledAt: now.toISOString(), carriedBalancesPutBack: putBack },
  });
  return (await findReceipt(tx, { schoolId, id: fresh.receipt.id }))!;
}
