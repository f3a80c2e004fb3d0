import { sql } from 'drizzle-orm';
import type { CancellationRow, Cheque, ChequeStatus } from '../../domain/cheques';
import { paise, toRupeeString } from '../../domain/money';
import type { Db } from '../db/client';
import { rowsOf } from '../lib/sql-rows';

const rupees = (n: number | string | null) => (n === null ? null : toRupeeString(paise(Number(n))));
const nulls = (r: Record<string, string | null>) => ({
  chequeNumber: r.cheque_number ?? null,
  bankName: r.bank_name ?? null,
  depositedOn: r.deposited_on ?? null,
  clearedOn: r.cleared_on ?? null,
  bouncedOn: r.bounced_on ?? null,
  bounceReason: r.bounce_reason ?? null,
});
const receiptDay = sql.raw(`(r.received_at at time zone 'Asia/Kolkata')::date`);

/**
 * The cheque register: every cheque receipt, in hand until a `cheques` row says otherwise. A cheque
 * receipt cancelled for another reason (a typing slip) left no cheque to track and is left out.
 */
export async function listCheques(
  db: Db,
  { schoolId, status, from, to, receiptId }: { schoolId: string; status?: ChequeStatus; from?: string; to?: string; receiptId?: string },
): Promise<Cheque[]> {
  const result = await db.execute(sql`
    select r.id, r.receipt_number, ${receiptDay}::text as receipt_date, r.student_id, r.student_name,
      r.class_name, r.section, r.cheque_number, r.bank_name, r.total_paise::text as total, r.received_by,
      coalesce(c.status, 'in_hand') as status, c.deposited_on::text as deposited_on, c.cleared_on::text as cleared_on,
      c.bounced_on::text as bounced_on, c.bounce_reason, c.bank_charges_paise::text as bank_charges
    from receipts r
    left join cheques c on c.receipt_id = r.id and c.school_id = r.school_id
    where r.school_id = ${schoolId} and r.payment_mode = 'cheque' and r.source <> 'opening'
      and (r.status = 'live' or c.status = 'bounced')
      ${receiptId ? sql`and r.id = ${receiptId}` : sql``}
      ${status ? sql`and coalesce(c.status, 'in_hand') = ${status}` : sql``}
      ${from ? sql`and ${receiptDay} >= ${from}::date` : sql``}
      ${to ? sql`and ${receiptDay} <= ${to}::date` : sql``}
    order by r.received_at, r.receipt_number`);
  return rowsOf<Record<string, string | null>>(result).map((r) => ({
    ...nulls(r),
    receiptId: r.id!,
    receiptNumber: r.receipt_number!,
    receiptDate: r.receipt_date!,
    studentId: r.student_id!,
    studentName: r.student_name!,
    className: r.section ? `${r.class_name}-${r.section}` : r.class_name!,
    amount: rupees(r.total ?? null)!,
    status: r.status as ChequeStatus,
    bankCharges: rupees(r.bank_charges ?? null),
    collectedBy: r.received_by!,
  }));
}

/**
 * The cancellation register: cancelled receipts of a range of cancellation days, oldest first. A
 * bounced cheque's row gives the bounce reason alone: `bounced` already says it was a bounce.
 */
export async function listCancellations(db: Db, { schoolId, from, to }: { schoolId: string; from: string; to: string }): Promise<CancellationRow[]> {
  const cancelDay = sql.raw(`(r.cancelled_at at time zone 'Asia/Kolkata')::date`);
  const result = await db.execute(sql`
    select r.id, r.receipt_number, ${receiptDay}::text as receipt_date, r.student_name, r.class_name, r.section,
      r.total_paise::text as total, r.payment_mode, r.cancelled_at, coalesce(u.username, '') as cancelled_by,
      coalesce(c.bounce_reason, r.cancel_reason, '') as reason, r.received_by, (c.status = 'bounced') as bounced
    from receipts r
    left join users u on u.id = r.cancelled_by
    left join cheques c on c.receipt_id = r.id and c.school_id = r.school_id
    where r.school_id = ${schoolId} and r.status = 'cancelled'
      and ${cancelDay} >= ${from}::date and ${cancelDay} <= ${to}::date
    order by r.cancelled_at, r.receipt_number`);
  return rowsOf<Record<string, unknown>>(result).map((r) => ({
    receiptId: String(r.id),
    receiptNumber: String(r.receipt_number),
    receiptDate: String(r.receipt_date),
    studentName: String(r.student_name),
    className: r.section ? `${String(r.class_name)}-${String(r.section)}` : String(r.class_name),
    amount: rupees(String(r.total))!,
    paymentMode: String(r.payment_mode),
    cancelledAt: new Date(r.cancelled_at as string | Date).toISOString(),
    cancelledBy: String(r.cancelled_by),
    reason: String(r.reason),
    collectedBy: String(r.received_by),
    bounced: r.bounced === true,
  }));
}
