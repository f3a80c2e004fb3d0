import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../lib/sql-rows';

/** An India calendar day as a range of instants, so the (school, captured_at) index serves it. */
export const indiaDay = (column: string, date: string) =>
  sql`${sql.raw(column)} >= ((${date}::date)::timestamp - interval '330 minutes') at time zone 'UTC' and ${sql.raw(column)} < ((${date}::date + 1)::timestamp - interval '330 minutes') at time zone 'UTC'`;

export interface OnlineDayRow {
  id: string;
  at: Date;
  studentName: string;
  className: string;
  provider: 'razorpay' | 'sandbox' | 'upi';
  orderId: string;
  paymentId: string | null;
  amountPaise: number;
  receiptNumber: string | null;
  status: 'receipted' | 'credited' | 'partly_credited' | 'pending' | 'failed';
  creditPaise: number;
}

/**
 * The online payments of an India day (issue 13 item 7): captured that day, and orders started
 * that day that were never paid. Refunds of credit made that day are summed beside them.
 */
export async function onlineDay(db: Db, { schoolId, date }: { schoolId: string; date: string }): Promise<{ rows: OnlineDayRow[]; refundPaise: number }> {
  const [payments, refunds] = await Promise.all([
    db.execute(sql`
      select op.id, coalesce(op.captured_at, op.created_at) as at, s.name as student_name, s.class_name, s.section,
             op.provider, op.order_id, op.payment_id, op.amount_paise::text as amount, r.receipt_number, op.status,
             op.credit_paise::text as credit
      from online_payments op
      join students s on s.id = op.student_id and s.school_id = op.school_id
      left join receipts r on r.id = op.receipt_id and r.school_id = op.school_id
      where op.school_id = ${schoolId}
        and ((op.captured_at is not null and ${indiaDay('op.captured_at', date)}) or (op.captured_at is null and ${indiaDay('op.created_at', date)}))
      order by at, op.order_id`),
    db.execute(sql`
      select coalesce(-sum(amount_paise), 0)::text as refunded from student_credit_entries
      where school_id = ${schoolId} and kind = 'refund' and ${indiaDay('at', date)}`),
  ]);
  const rows = rowsOf<Record<string, unknown>>(payments).map((r) => ({
    id: String(r.id),
    at: new Date(r.at as string | Date),
    studentName: String(r.student_name),
    className: `${String(r.class_name)} ${String(r.section)}`.trim(),
    provider: r.provider as OnlineDayRow['provider'],
    orderId: String(r.order_id),
    paymentId: (r.payment_id as string | null) ?? null,
    amountPaise: Number(r.amount),
    receiptNumber: (r.receipt_number as string | null) ?? null,
    status: r.status as OnlineDayRow['status'],
    creditPaise: Number(r.credit),
  }));
  return { rows, refundPaise: Number(rowsOf<Record<string, unknown>>(refunds)[0]?.refunded ?? 0) };
}
