import { and, eq, sql } from 'drizzle-orm';
import { paise, type Paise } from '../../domain/money';
import { allocateLinkPayment, type LinkFeeType } from '../../domain/payment-links';
import { indiaDate } from '../../domain/sessions';
import type { Db } from '../db/client';
import { onlinePayments, paymentLinks, studentCreditEntries } from '../db/schema';
import { lockStudentLedger } from '../fees/locks';
import { findReceipt, type ReceiptWithLines } from '../fees/queries';
import { writeReceipt, type NewLine, type ReceiptActor } from '../fees/writer';
import { audit } from '../lib/audit';
import { loadStudentDues } from '../payment-links/dues';
import { refreshBalances } from '../balances/refresh';

export type OnlinePaymentRow = typeof onlinePayments.$inferSelect;

export const PROVIDER_LABELS: Record<OnlinePaymentRow['provider'], string> = {
  razorpay: 'Online (Razorpay)',
  sandbox: 'Online (Sandbox test payment)',
  upi: 'Online (UPI, confirmed by the school)',
};

export interface Captured {
  payment: OnlinePaymentRow;
  receipt: ReceiptWithLines | null;
  credit: Paise;
  /** false when an earlier callback, webhook or confirmation had already captured it */
  fresh: boolean;
}

/**
 * Records the money of one online payment, exactly once (rulings 27, 34): under the student's
 * ledger lock, what the link's fee still has due becomes the lines of one ONL receipt, and what is
 * beyond it (the fee was collected at the counter meanwhile) becomes the student's credit. The
 * browser's callback, the gateway's webhook and a retried request all end here; whichever comes
 * second finds the payment captured and answers with what the first wrote.
 */
export async function captureOnlinePayment(
  tx: Db,
  actor: ReceiptActor,
  { schoolId, orderId, paymentId, now, receivedBy }: { schoolId: string; orderId: string; paymentId: string; now: Date; receivedBy?: string },
): Promise<Captured | null> {
  const [first] = await tx
    .select({ studentId: onlinePayments.studentId })
    .from(onlinePayments)
    .where(and(eq(onlinePayments.schoolId, schoolId), eq(onlinePayments.orderId, orderId)))
    .limit(1);
  if (!first) return null;
  await lockStudentLedger(tx, { schoolId, studentId: first.studentId });
  const [payment] = await tx
    .select()
    .from(onlinePayments)
    .where(and(eq(onlinePayments.schoolId, schoolId), eq(onlinePayments.orderId, orderId)))
    .for('update')
    .limit(1);
  if (!payment) return null;
  if (payment.status !== 'pending') {
    const receipt = payment.receiptId ? ((await findReceipt(tx, { schoolId, id: payment.receiptId })) ?? null) : null;
    return { payment, receipt, credit: paise(payment.creditPaise), fresh: false };
  }
  const [link] = await tx.select().from(paymentLinks).where(and(eq(paymentLinks.schoolId, schoolId), eq(paymentLinks.id, payment.linkId))).limit(1);
  if (!link) return null;

  const dues = await loadStudentDues(tx, { schoolId, studentId: payment.studentId, now });
  const amount = paise(payment.amountPaise);
  const split = allocateLinkPayment({ feeType: link.feeType as LinkFeeType, feeMonth: link.feeMonth }, dues.account, dues.carried, amount, dues.fine);
  const paidOn = indiaDate(now);
  const lines: NewLine[] = [
    ...split.carried.map((c) => ({ head: 'previous_balance' as const, period: null, amount: c.amount, paidOn, sessionId: c.sessionId, academicYear: c.academicYear })),
    ...split.claims.map((c) => ({ ...c, paidOn, sessionId: dues.session.id })),
  ];
  const label = receivedBy ?? PROVIDER_LABELS[payment.provider];
  let receipt: ReceiptWithLines | null = null;
  if (lines.length > 0) {
    const placement = dues.open?.placement ?? { className: dues.student.className, section: dues.student.section, rollNumber: dues.student.rollNumber };
    receipt = await writeReceipt(tx, actor, {
      schoolId,
      prefix: 'ONL',
      source: 'online',
      session: dues.session,
      student: dues.student,
      placement,
      details: {
        paymentMode: payment.provider === 'upi' ? 'upi' : 'online',
        chequeNumber: null,
        bankName: null,
        upiReference: payment.provider === 'upi' ? paymentId : null,
        transactionReference: payment.provider === 'upi' ? null : paymentId,
        receivedBy: label,
      },
      receivedAt: now,
      clientId: `online:${payment.id}`,
      requestHash: null,
      lines,
      dues: split.claims.length > 0 ? dues.account : null,
    });
  }
  if (split.credit > 0) {
    await tx.insert(studentCreditEntries).values({
      schoolId,
      studentId: payment.studentId,
      at: now,
      kind: 'online_excess',
      amountPaise: split.credit,
      reason: `${link.description}: received online after it was already paid`,
      receiptId: receipt?.receipt.id ?? null,
      onlinePaymentId: payment.id,
      byName: label,
    });
    await refreshBalances(tx, { schoolId, studentIds: [payment.studentId] });
  }
  const status = split.credit === 0 ? 'receipted' : receipt ? 'partly_credited' : 'credited';
  const [updated] = await tx
    .update(onlinePayments)
    .set({ status, paymentId, receiptId: receipt?.receipt.id ?? null, creditPaise: split.credit, capturedAt: now })
    .where(eq(onlinePayments.id, payment.id))
    .returning();
  // the money arrived for this link: it is paid, even if it was cancelled or ran out meanwhile. A
  // link paid twice (two tabs, a UPI reference beside the gateway) keeps its first payment's time
  // and receipt, the one the parent's receipt link and the office's list already name; the second
  // is the student's credit
  await tx
    .update(paymentLinks)
    .set({
      status: 'paid',
      paidAt: sql`coalesce(${paymentLinks.paidAt}, ${now.toISOString()}::timestamptz)`,
      receiptId: sql`coalesce(${paymentLinks.receiptId}, ${receipt?.receipt.id ?? null}::uuid)`,
    })
    .where(eq(paymentLinks.id, link.id));
  await audit(tx, actor, {
    action: 'online-payment.capture',
    entity: 'online_payment',
    entityId: payment.id,
    after: { orderId, paymentId, provider: payment.provider, amountPaise: amount, receiptNumber: receipt?.receipt.receiptNumber ?? null, creditPaise: split.credit },
  });
  return { payment: updated!, receipt, credit: split.credit, fresh: true };
}
