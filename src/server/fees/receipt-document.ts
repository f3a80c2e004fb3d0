import { sql } from 'drizzle-orm';
import { concessionReceiptText, type ConcessionHead } from '../../domain/concessions';
import type { SessionAccount } from '../../domain/fees';
import { indiaMonthKey, isMonthlyHead, isYearlyHead } from '../../domain/ledger';
import { paise, toRupeeString, type Paise } from '../../domain/money';
import { indiaDate } from '../../domain/sessions';
import type { Db } from '../db/client';
import { receipts, schoolLogos, schools, studentCreditEntries } from '../db/schema';
import { notFound } from '../lib/errors';
import { onlyIf, read, readAtOnce } from '../lib/read-at-once';
import { isUuid } from '../lib/ids';
import { findSchoolLogo, type SchoolLogo } from '../schools/queries';
import { accountFor, studentSessionFrom, studentSessionKeys, studentSessionReads, type StudentSession } from './context';
import { toReceiptDto, type ReceiptDto } from './dto';
import { carriedFrom, carriedReads, receiptsWithLinesRead, studentRead, summariseCarried, type CarriedRow } from './queries';

export interface ReceiptSchool {
  name: string;
  address: string;
  phone: string;
  schoolCode: string | null;
  email: string;
  hasLogo: boolean;
}

/** Everything a printed receipt shows: the receipt as stored, plus who the student is and what is still due. */
export interface ReceiptDocument {
  receipt: ReceiptDto;
  school: ReceiptSchool;
  student: { fatherName: string; admissionNumber: string | null };
  /** null on a cancelled receipt: it no longer settles anything */
  balance: { asOn: string; amount: string } | null;
  /** online money that came with this receipt beyond the dues, kept as the student's credit (ruling 27); null when none */
  creditKept: string | null;
  /** "Concession: Sibling −₹150.00 (Tuition Fee, July 2025)" for the heads and months this receipt pays (issue 16) */
  concessions: string[];
}

/** The concessions behind the heads and months a receipt pays, each once. */
function receiptConcessions(account: SessionAccount, receipt: ReceiptDto): string[] {
  const out = new Set<string>();
  for (const line of receipt.lines) {
    if (line.academicYear !== receipt.academicYear) continue;
    const pos = isMonthlyHead(line.head)
      ? account.months.find((m) => m.key === line.period)?.[line.head]
      : isYearlyHead(line.head)
        ? account.yearly.find((y) => y.head === line.head)
        : undefined;
    for (const g of pos?.grants ?? []) out.add(concessionReceiptText(g, line.head as ConcessionHead, isMonthlyHead(line.head) ? line.period : null));
  }
  return [...out];
}

/**
 * A receipt as it prints, in two statements (decision 0069): the receipt with the school's lines
 * and the credit it kept, then, keyed by the receipt's student and session, everything fee status
 * reads of them. The balance due is counted as on the day it is printed (docs/decisions/0031): the
 * receipt's session till the current month (ruling 6, the domain's one computation) plus every
 * balance carried from earlier sessions, so a parent never reads an old figure as today's.
 */
export async function loadReceiptDocument(db: Db, { schoolId, id, now }: { schoolId: string; id: string; now: Date }): Promise<ReceiptDocument> {
  if (!isUuid(id)) throw notFound('Receipt not found');
  const first = await readAtOnce(db, {
    receipt: receiptsWithLinesRead(schoolId, { where: sql`${receipts.id} = ${id}` }),
    school: read(
      sql`select name, address, phone, school_code, email, exists (select 1 from ${schoolLogos} where school_id = ${schoolId}) as has_logo
          from ${schools} where id = ${schoolId}`,
      (r): ReceiptSchool => ({
        name: String(r.name),
        address: String(r.address ?? ''),
        phone: String(r.phone ?? ''),
        schoolCode: r.school_code === null || r.school_code === undefined ? null : String(r.school_code),
        email: String(r.email ?? ''),
        hasLogo: r.has_logo === true,
      }),
    ),
    kept: read(
      sql`select coalesce(sum(amount_paise), 0)::text as amount from ${studentCreditEntries}
          where school_id = ${schoolId} and receipt_id = ${id} and kind = 'online_excess'`,
      (r) => Number(r.amount),
    ),
  });
  const [found] = first.receipt;
  if (!found) throw notFound('Receipt not found');
  const receipt = toReceiptDto(found);
  const kept = first.kept[0] ?? 0;
  const args = { schoolId, studentId: receipt.studentId, academicYear: receipt.academicYear };
  // a cancelled receipt settles nothing: of its student, only who they are
  const live = receipt.status === 'live';
  const context = studentSessionReads(studentSessionKeys(args));
  const rows = await readAtOnce(db, { ...onlyIf(live, context.reads), ...onlyIf(live, carriedReads(args)), student: studentRead(args) }, { with: context.with });
  const due = live ? balanceDue(studentSessionFrom(rows, args), carriedFrom(rows), receipt, now) : null;
  const [student] = rows.student;
  return {
    receipt,
    school: first.school[0]!,
    student: { fatherName: student?.fatherName ?? '', admissionNumber: student?.admissionNumber ?? null },
    balance: due ? { asOn: indiaDate(now), amount: toRupeeString(due.balance) } : null,
    creditKept: kept > 0 ? toRupeeString(paise(kept)) : null,
    concessions: due?.concessions ?? [],
  };
}

/** What the student still owes as on `now`: a closed session's dues are in its carried balance, counted once. */
function balanceDue(ctx: StudentSession, carried: CarriedRow[], receipt: ReceiptDto, now: Date): { balance: Paise; concessions: string[] } {
  const account = accountFor(ctx, indiaMonthKey(now));
  const session = ctx.carried ? 0 : account.tillDate.outstanding;
  return { balance: paise(session + summariseCarried(carried).balance), concessions: receiptConcessions(account, receipt) };
}

export const receiptLogo = (db: Db, schoolId: string): Promise<SchoolLogo | undefined> => findSchoolLogo(db, { schoolId });
