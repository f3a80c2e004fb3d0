import { sql } from 'drizzle-orm';
import { create } from 'xmlbuilder2';
import type { ExpenseCategory } from '../../domain/expenses';
import type { FeeHead, PaymentMode } from '../../domain/ledger';
import { paise } from '../../domain/money';
import {
  DEFAULT_TALLY_MAPPING,
  expenseVoucher,
  mergeTallyMapping,
  receiptVoucher,
  tallyAmount,
  tallyDate,
  type DayBookReceipt,
  type TallyMapping,
  type Voucher,
} from '../../domain/tally';
import type { Db } from '../db/client';
import { feeRules } from '../db/schema';
import { eq } from 'drizzle-orm';
import { rowsOf } from '../lib/sql-rows';

export async function loadTallyMapping(db: Db, schoolId: string): Promise<TallyMapping> {
  const [row] = await db.select({ m: feeRules.tallyMapping }).from(feeRules).where(eq(feeRules.schoolId, schoolId)).limit(1);
  return mergeTallyMapping(DEFAULT_TALLY_MAPPING, row?.m as Partial<TallyMapping> | null);
}

/**
 * The period's vouchers, as the financial report counts money (decision 0048): a receipt's lines by
 * their payment date (one voucher per receipt and date), opening entries left out (they are not
 * income of a day), a cancelled receipt as its original voucher plus a reversal dated the day it was
 * cancelled (India's date), and live expenses as Payment vouchers.
 */
export async function periodVouchers(db: Db, { schoolId, from, to, mapping }: { schoolId: string; from: string; to: string; mapping: TallyMapping }): Promise<Voucher[]> {
  const [lineRows, cancelRows, expenseRows] = await Promise.all([
    db.execute(sql`
      select r.receipt_number, r.payment_mode, r.student_name, r.class_name, l.paid_on::text as date, l.head, sum(l.amount_paise)::text as amount
      from receipt_lines l
      join receipts r on r.id = l.receipt_id and r.school_id = l.school_id
      where l.school_id = ${schoolId} and r.source <> 'opening' and l.paid_on between ${from}::date and ${to}::date
      group by r.receipt_number, r.payment_mode, r.student_name, r.class_name, l.paid_on, l.head
      order by l.paid_on, r.receipt_number, l.head`),
    db.execute(sql`
      select r.receipt_number, r.payment_mode, r.student_name, r.class_name, r.cancel_reason,
             ((r.cancelled_at at time zone 'Asia/Kolkata')::date)::text as date, l.head, sum(l.amount_paise)::text as amount
      from receipts r
      join receipt_lines l on l.receipt_id = r.id and l.school_id = r.school_id
      where r.school_id = ${schoolId} and r.status = 'cancelled' and r.source <> 'opening'
        and (r.cancelled_at at time zone 'Asia/Kolkata')::date between ${from}::date and ${to}::date
      group by r.receipt_number, r.payment_mode, r.student_name, r.class_name, r.cancel_reason, r.cancelled_at, l.head
      order by r.cancelled_at, r.receipt_number, l.head`),
    db.execute(sql`
      select id, expense_date::text as date, category, description, amount_paise::text as amount
      from expenses
      where school_id = ${schoolId} and deleted_at is null and expense_date between ${from}::date and ${to}::date
      order by expense_date, created_at, id`),
  ]);
  type LineRow = { receipt_number: string; payment_mode: PaymentMode; student_name: string; class_name: string; date: string; head: FeeHead; amount: string; cancel_reason?: string };
  const group = (rows: LineRow[], cancelled: boolean): DayBookReceipt[] => {
    const by = new Map<string, DayBookReceipt>();
    for (const r of rows) {
      const key = `${r.receipt_number}|${r.date}`;
      const cur = by.get(key) ?? {
        receiptNumber: r.receipt_number,
        date: r.date,
        mode: r.payment_mode,
        studentName: r.student_name,
        className: r.class_name,
        lines: [],
        cancelled: cancelled ? { reason: r.cancel_reason ?? '' } : null,
      };
      cur.lines.push({ head: r.head, amount: paise(Number(r.amount)) });
      by.set(key, cur);
    }
    return [...by.values()];
  };
  const receiptsOf = group(rowsOf<LineRow>(lineRows), false);
  const cancels = group(rowsOf<LineRow>(cancelRows), true);
  // the originals are numbered per date when one receipt's lines carry several payment dates
  const counts = new Map<string, number>();
  for (const r of receiptsOf) counts.set(r.receiptNumber, (counts.get(r.receiptNumber) ?? 0) + 1);
  const vouchers = [
    ...receiptsOf.map((r) => {
      const v = receiptVoucher(r, mapping);
      return counts.get(r.receiptNumber)! > 1 ? { ...v, number: `${v.number}/${tallyDate(r.date)}` } : v;
    }),
    ...cancels.map((r) => receiptVoucher(r, mapping)),
    ...rowsOf<{ id: string; date: string; category: ExpenseCategory; description: string; amount: string }>(expenseRows).map((e, i) =>
      expenseVoucher({ id: e.id, date: e.date, category: e.category, description: e.description, amount: paise(Number(e.amount)) }, mapping, i + 1),
    ),
  ];
  return vouchers.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** Tally's import envelope: ENVELOPE/HEADER/BODY/IMPORTDATA/REQUESTDATA/TALLYMESSAGE/VOUCHER. */
export function tallyXml(vouchers: readonly Voucher[], { companyName }: { companyName: string }): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('ENVELOPE');
  root.ele('HEADER').ele('TALLYREQUEST').txt('Import Data');
  const importData = root.ele('BODY').ele('IMPORTDATA');
  importData.ele('REQUESTDESC').ele('REPORTNAME').txt('Vouchers').up().ele('STATICVARIABLES').ele('SVCURRENTCOMPANY').txt(companyName);
  const data = importData.ele('REQUESTDATA');
  for (const v of vouchers) {
    const voucher = data.ele('TALLYMESSAGE', { 'xmlns:UDF': 'TallyUDF' }).ele('VOUCHER', { VCHTYPE: v.type, ACTION: 'Create' });
    voucher.ele('DATE').txt(tallyDate(v.date));
    voucher.ele('VOUCHERTYPENAME').txt(v.type);
    voucher.ele('VOUCHERNUMBER').txt(v.number);
    voucher.ele('NARRATION').txt(v.narration);
    for (const e of v.entries) {
      const entry = voucher.ele('ALLLEDGERENTRIES.LIST');
      entry.ele('LEDGERNAME').txt(e.ledger);
      entry.ele('ISDEEMEDPOSITIVE').txt(e.amount < 0 ? 'Yes' : 'No');
      entry.ele('AMOUNT').txt(tallyAmount(e.amount));
    }
  }
  return root.end({ prettyPrint: true });
}
