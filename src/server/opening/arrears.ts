import { sql } from 'drizzle-orm';
import { splitArrears, type OpeningHead } from '../../domain/opening';
import { paise, type Paise } from '../../domain/money';
import type { Db } from '../db/client';
import { read, readRows, type Bound, type Read } from '../lib/read-at-once';

/**
 * Opening arrears per student (decision 0027): the live `opening_balances` rows summed into a
 * monthly part (tuition, bus) and a yearly part (everything else), and what `opening_balance`
 * lines of live receipts have paid against them. The fee area reads this next to the balances
 * carried from earlier sessions, so every path that collects or counts those counts these too.
 */
export interface OpeningArrears {
  studentId: string;
  /** the session running when the first entry was made */
  sessionId: string;
  monthly: Paise;
  yearly: Paise;
  paid: Paise;
  recordedAt: Date;
}

export async function openingArrears(db: Db, { schoolId, studentId }: { schoolId: string; studentId?: string }): Promise<OpeningArrears[]> {
  return openingArrearsFrom(await readRows(db, openingArrearsRead({ schoolId, studentId })));
}

export interface OpeningArrearsRow {
  studentId: string;
  head: OpeningHead;
  amount: Paise;
  recordedAt: Date;
  sessionId: string;
  paid: Paise;
}

/** The live entries summed per student and head, with what was paid against them: one read. */
export function openingArrearsRead({ schoolId, studentId }: { schoolId: Bound; studentId?: Bound | undefined }): Read<OpeningArrearsRow> {
  return read(
    sql`
    with b as (
      select student_id, head, sum(amount_paise)::text as amount, min(created_at) as recorded_at,
             (array_agg(session_id order by created_at))[1] as session_id
      from opening_balances
      where school_id = ${schoolId} and cancelled_at is null ${studentId ? sql`and student_id = ${studentId}` : sql``}
      group by student_id, head
    ),
    p as (
      select l.student_id, sum(l.amount_paise)::text as paid
      from receipt_lines l
      join receipts r on r.id = l.receipt_id and r.status = 'live'
      where l.school_id = ${schoolId} and l.head = 'opening_balance' ${studentId ? sql`and l.student_id = ${studentId}` : sql``}
      group by l.student_id
    )
    select b.student_id, b.head, b.amount, b.recorded_at, b.session_id, coalesce(p.paid, '0') as paid
    from b left join p on p.student_id = b.student_id
    order by b.student_id`,
    (r) => ({
      studentId: String(r.student_id),
      head: r.head as OpeningHead,
      amount: paise(Number(r.amount)),
      recordedAt: new Date(r.recorded_at as string | Date),
      sessionId: String(r.session_id),
      paid: paise(Number(r.paid)),
    }),
  );
}

export function openingArrearsFrom(rows: readonly OpeningArrearsRow[]): OpeningArrears[] {
  const byStudent = new Map<string, { rows: Array<{ head: OpeningHead; amount: Paise }>; paid: Paise; recordedAt: Date; sessionId: string }>();
  for (const r of rows) {
    const cur = byStudent.get(r.studentId) ?? { rows: [], paid: r.paid, recordedAt: r.recordedAt, sessionId: r.sessionId };
    cur.rows.push({ head: r.head, amount: r.amount });
    if (r.recordedAt < cur.recordedAt) cur.recordedAt = r.recordedAt;
    byStudent.set(r.studentId, cur);
  }
  return [...byStudent].map(([id, v]) => ({ studentId: id, sessionId: v.sessionId, ...splitArrears(v.rows), paid: v.paid, recordedAt: v.recordedAt }));
}
