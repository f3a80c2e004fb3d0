import { and, eq, sql } from 'drizzle-orm';
import { concessionReceiptText, type ConcessionHead } from '../../domain/concessions';
import type { SessionAccount } from '../../domain/fees';
import { indiaMonthKey, isMonthlyHead, isYearlyHead } from '../../domain/ledger';
import { paise, toRupeeString, type Paise } from '../../domain/money';
import { indiaDate } from '../../domain/sessions';
import type { Db } from '../db/client';
import { schools, studentCreditEntries, students } from '../db/schema';
import { notFound } from '../lib/errors';
import { readTogether } from '../lib/reads';
import { findSchoolLogo, hasSchoolLogo, type SchoolLogo } from '../schools/queries';
import { accountFor, loadStudentSession } from './context';
import { toReceiptDto, type ReceiptDto } from './dto';
import { carriedBalances, findReceipt, summariseCarried } from './queries';

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

/**
 * What the student still owes on the day the receipt is printed (docs/decisions/0031): the
 * receipt's session till the current month (ruling 6, the domain's one computation) plus every
 * balance carried from earlier sessions. A reprint shows the balance as it is then, labelled with
 * that date, so a parent never reads an old figure as today's.
 */
async function balanceDue(db: Db, { schoolId, receipt, now }: { schoolId: string; receipt: ReceiptDto; now: Date }): Promise<{ balance: Paise; concessions: string[] }> {
  const ctx = await loadStudentSession(db, { schoolId, studentId: receipt.studentId, academicYear: receipt.academicYear });
  const account = accountFor(ctx, indiaMonthKey(now));
  // a closed session's dues are in its carried balance: count them once
  const session = ctx.carried ? 0 : account.tillDate.outstanding;
  const carried = summariseCarried(await carriedBalances(db, { schoolId, studentId: receipt.studentId })).balance;
  return { balance: paise(session + carried), concessions: receiptConcessions(account, receipt) };
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

export async function loadReceiptDocument(db: Db, { schoolId, id, now }: { schoolId: string; id: string; now: Date }): Promise<ReceiptDocument> {
  const found = await findReceipt(db, { schoolId, id });
  if (!found) throw notFound('Receipt not found');
  const receipt = toReceiptDto(found);
  const [[school], [student], hasLogo] = await readTogether(
    db,
    () =>
      db
        .select({ name: schools.name, address: schools.address, phone: schools.phone, schoolCode: schools.schoolCode, email: schools.email })
        .from(schools)
        .where(eq(schools.id, schoolId))
        .limit(1),
    () =>
      db
        .select({ fatherName: students.fatherName, admissionNumber: students.admissionNumber })
        .from(students)
        .where(and(eq(students.schoolId, schoolId), eq(students.id, receipt.studentId)))
        .limit(1),
    () => hasSchoolLogo(db, { schoolId }),
  );
  const [kept] = await db
    .select({ amount: sql<string>`coalesce(sum(${studentCreditEntries.amountPaise}), 0)` })
    .from(studentCreditEntries)
    .where(and(eq(studentCreditEntries.schoolId, schoolId), eq(studentCreditEntries.receiptId, id), eq(studentCreditEntries.kind, 'online_excess')));
  const creditKept = Number(kept?.amount ?? 0) > 0 ? toRupeeString(paise(Number(kept!.amount))) : null;
  const due = receipt.status === 'live' ? await balanceDue(db, { schoolId, receipt, now }) : null;
  const balance = due ? { asOn: indiaDate(now), amount: toRupeeString(due.balance) } : null;
  return {
    receipt,
    school: { ...school!, hasLogo },
    student: { fatherName: student?.fatherName ?? '', admissionNumber: student?.admissionNumber ?? null },
    balance,
    creditKept,
    concessions: due?.concessions ?? [],
  };
}

export const receiptLogo = (db: Db, schoolId: string): Promise<SchoolLogo | undefined> => findSchoolLogo(db, { schoolId });
