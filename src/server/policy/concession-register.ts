import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { CONCESSION_STATUS_LABELS, CONCESSION_STATUSES, describeConcessionType, describeConcessionValue, type ConcessionHead, type ConcessionStatus } from '../../domain/concessions';
import { formatDateIN } from '../../domain/dates';
import { grantsByConcession } from '../../domain/fees';
import { monthLabel } from '../../domain/ledger';
import { paise, toRupeeString, ZERO, type Paise } from '../../domain/money';
import { indiaDate } from '../../domain/sessions';
import type { Db } from '../db/client';
import { concessions, concessionTypes, previousBalances, studentEnrollments, students, users } from '../db/schema';
import { accountOf, loadStructures, sessionLineTotals, structureFor, type SessionRow } from '../fees/queries';
import { addPage, contentBox, drawTable, mm, renderPdf, rupeeText, writeText } from '../lib/pdf';
import type { Column } from '../lib/xlsx-table';
import { classOrderSql } from '../students/class-order';
import { approvedConcessions } from './concession-queries';
import { loadPlans, planFor } from './plans';

/**
 * The concession register (issue 16 item 1): who got which concession, how much, requested and
 * approved by whom. The amounts are the fee-status figures themselves: every approved concession of
 * a student goes through `computeSessionAccount` together (several on one head share its due in
 * the order they were approved), and `grantsByConcession` splits the student's `granted` per
 * concession, till date (the horizon fee status shows) and for the whole session. Set-based: one
 * read of the register rows, one of the approved concessions, the structures and the carried
 * balances, whatever the number of students.
 */

export const REGISTER_STATUSES = [...CONCESSION_STATUSES, 'all'] as const;

export const concessionRegisterQuery = z.object({
  academicYear: z.string({ message: 'Choose the academic session (academicYear), e.g. 2025-2026' }).trim().min(1, 'Choose the academic session (academicYear), e.g. 2025-2026').max(40, 'academicYear is too long'),
  status: z.enum(REGISTER_STATUSES, { message: 'status must be approved, requested, rejected or all' }).default('approved'),
});

const money = z.string().describe('rupees, e.g. "1430.00"');

export const concessionRegisterRowDto = z.object({
  id: z.string(),
  studentId: z.string(),
  studentName: z.string(),
  className: z.string(),
  section: z.string(),
  rollNumber: z.number().int(),
  admissionNumber: z.string().nullable(),
  typeName: z.string(),
  kind: z.enum(['percent', 'amount']),
  value: z.string().describe('"10%" or "₹150.00 a month"'),
  description: z.string().describe('"10% of Tuition Fee, Exam Fee"'),
  heads: z.array(z.string()),
  fromMonth: z.string(),
  toMonth: z.string().nullable(),
  period: z.string().describe('"May 2025 – March 2026"'),
  status: z.enum(CONCESSION_STATUSES),
  statusLabel: z.string(),
  grantedTillDate: money.describe('taken off the months due so far: the concession on fee status (0.00 unless approved)'),
  grantedInSession: money.describe('taken off the whole session'),
  reason: z.string(),
  requestedBy: z.string().nullable(),
  requestedAt: z.string(),
  decidedBy: z.string().nullable().describe('who approved or rejected it'),
  decidedAt: z.string().nullable(),
  decisionReason: z.string().nullable(),
});
export type ConcessionRegisterRow = z.infer<typeof concessionRegisterRowDto>;

export const concessionRegisterDto = z.object({
  academicYear: z.string(),
  status: z.enum(REGISTER_STATUSES),
  asOfMonth: z.string().describe('the month "till date" counts to (the session\'s last month once it has ended)'),
  lastMonth: z.string().describe("the session's last month: where a concession without toMonth ends"),
  rows: z.array(concessionRegisterRowDto),
  totals: z.object({ count: z.number().int(), grantedTillDate: money, grantedInSession: money }),
});
export type ConcessionRegister = z.infer<typeof concessionRegisterDto>;

const requester = alias(users, 'register_requester');
const decider = alias(users, 'register_decider');

export async function loadConcessionRegister(
  db: Db,
  { schoolId, session, status, now }: { schoolId: string; session: SessionRow; status: ConcessionStatus | 'all'; now: Date },
): Promise<ConcessionRegister> {
  const className = sql<string>`coalesce(${studentEnrollments.className}, ${students.className})`;
  const section = sql<string>`coalesce(${studentEnrollments.section}, ${students.section})`;
  const rollNumber = sql<number>`coalesce(${studentEnrollments.rollNumber}, ${students.rollNumber})`;
  const where: SQL[] = [eq(concessions.schoolId, schoolId), eq(concessions.sessionId, session.id)];
  if (status !== 'all') where.push(eq(concessions.status, status));
  const rows = await db
    .select({
      c: concessions,
      t: concessionTypes,
      studentName: students.name,
      admissionNumber: students.admissionNumber,
      busFee: students.monthlyBusFeePaise,
      feesFrom: students.feesFromMonth,
      className,
      section,
      rollNumber,
      requestedBy: requester.username,
      decidedBy: decider.username,
    })
    .from(concessions)
    .innerJoin(concessionTypes, and(eq(concessionTypes.schoolId, schoolId), eq(concessionTypes.id, concessions.typeId)))
    .innerJoin(students, and(eq(students.schoolId, schoolId), eq(students.id, concessions.studentId)))
    .leftJoin(studentEnrollments, and(eq(studentEnrollments.schoolId, schoolId), eq(studentEnrollments.studentId, concessions.studentId), eq(studentEnrollments.sessionId, concessions.sessionId)))
    .leftJoin(requester, eq(requester.id, concessions.requestedBy))
    .leftJoin(decider, eq(decider.id, concessions.decidedBy))
    .where(and(...where))
    .orderBy(asc(classOrderSql(className)), asc(className), asc(section), asc(rollNumber), asc(students.name), asc(concessions.requestedAt));

  const studentIds = [...new Set(rows.filter((r) => r.c.status === 'approved').map((r) => r.c.studentId))];
  const [structures, granted, plans, lines, carried] = await Promise.all([
    loadStructures(db, { schoolId }),
    approvedConcessions(db, { schoolId, sessionId: session.id, studentIds }),
    loadPlans(db, schoolId),
    // what was paid matters: a month paid before the approval keeps its full due (decision 0047)
    sessionLineTotals(db, { schoolId, sessionId: session.id, studentIds }),
    studentIds.length === 0
      ? Promise.resolve([])
      : db
          .select({ studentId: previousBalances.studentId, throughMonth: previousBalances.throughMonth })
          .from(previousBalances)
          .where(and(eq(previousBalances.schoolId, schoolId), eq(previousBalances.sessionId, session.id), inArray(previousBalances.studentId, studentIds))),
  ]);
  const carriedThrough = new Map(carried.map((c) => [c.studentId, c.throughMonth]));
  const thisMonth = indiaDate(now).slice(0, 7);

  // one account per student with an approved concession: as fee status computes it
  const amounts = new Map<string, { tillDate: Paise; annual: Paise }>();
  const done = new Set<string>();
  for (const r of rows) {
    if (r.c.status !== 'approved' || done.has(r.c.studentId)) continue;
    done.add(r.c.studentId);
    const account = accountOf({
      session,
      className: r.className,
      asOfMonth: carriedThrough.get(r.c.studentId) ?? thisMonth,
      structure: structureFor(structures, r.className, session.name),
      busFee: paise(Number(r.busFee)),
      feesFrom: r.feesFrom,
      lines: lines.get(r.c.studentId) ?? [],
      concessions: granted.get(r.c.studentId),
      plan: planFor(plans, r.className),
    });
    const tillDate = grantsByConcession(account, 'tillDate');
    for (const [id, annual] of grantsByConcession(account, 'annual')) amounts.set(id, { annual, tillDate: tillDate.get(id) ?? ZERO });
  }

  let totalTill = 0;
  let totalAnnual = 0;
  const out = rows.map((r): ConcessionRegisterRow => {
    const amount = amounts.get(r.c.id) ?? { tillDate: ZERO, annual: ZERO };
    totalTill += amount.tillDate;
    totalAnnual += amount.annual;
    const heads = r.t.heads as ConcessionHead[];
    const value = Number(r.t.value);
    return {
      id: r.c.id,
      studentId: r.c.studentId,
      studentName: r.studentName,
      className: r.className,
      section: r.section,
      rollNumber: Number(r.rollNumber),
      admissionNumber: r.admissionNumber,
      typeName: r.t.name,
      kind: r.t.kind,
      value: describeConcessionValue(r.t.kind, value),
      description: describeConcessionType({ kind: r.t.kind, value, heads }),
      heads,
      fromMonth: r.c.fromMonth,
      toMonth: r.c.toMonth,
      period: `${monthLabel(r.c.fromMonth)} – ${monthLabel(r.c.toMonth ?? session.endDate.slice(0, 7))}`,
      status: r.c.status,
      statusLabel: CONCESSION_STATUS_LABELS[r.c.status],
      grantedTillDate: toRupeeString(amount.tillDate),
      grantedInSession: toRupeeString(amount.annual),
      reason: r.c.reason,
      requestedBy: r.requestedBy,
      requestedAt: r.c.requestedAt.toISOString(),
      decidedBy: r.decidedBy,
      decidedAt: r.c.decidedAt?.toISOString() ?? null,
      decisionReason: r.c.decisionReason,
    };
  });
  const last = session.endDate.slice(0, 7);
  return {
    academicYear: session.name,
    status,
    asOfMonth: thisMonth < last ? thisMonth : last,
    lastMonth: last,
    rows: out,
    totals: { count: out.length, grantedTillDate: toRupeeString(paise(totalTill)), grantedInSession: toRupeeString(paise(totalAnnual)) },
  };
}

// ---------------------------------------------------------------------------------------------
// CSV and PDF
// ---------------------------------------------------------------------------------------------

/** An ISO timestamp as its India date: `2025-11-15` in the CSV (sortable, like the other registers), "15 November 2025" on paper. */
const isoDateOf = (iso: string | null) => (iso ? indiaDate(new Date(iso)) : '');
const dateOf = (iso: string | null) => (iso ? formatDateIN(isoDateOf(iso)) : '');

export const REGISTER_COLUMNS: Column[] = [
  { header: 'Class', width: 10 },
  { header: 'Section', width: 8 },
  { header: 'Roll', width: 6 },
  { header: 'Admission No.', width: 14 },
  { header: 'Student', width: 26 },
  { header: 'Concession', width: 18 },
  { header: 'Value', width: 18 },
  { header: 'Heads', width: 26 },
  { header: 'From', width: 12 },
  { header: 'To', width: 12 },
  { header: 'Status', width: 16 },
  { header: 'Granted till date', width: 15, money: true },
  { header: 'Granted in session', width: 15, money: true },
  { header: 'Reason', width: 30 },
  { header: 'Requested by', width: 18 },
  { header: 'Requested on', width: 12 },
  { header: 'Decided by', width: 18 },
  { header: 'Decided on', width: 12 },
  { header: 'Decision note', width: 30 },
];

export function registerCells(r: ConcessionRegisterRow) {
  return [
    r.className,
    r.section,
    r.rollNumber,
    r.admissionNumber,
    r.studentName,
    r.typeName,
    r.value,
    r.description.replace(/^.* of /, ''),
    monthLabel(r.fromMonth),
    r.toMonth ? monthLabel(r.toMonth) : '',
    r.statusLabel,
    r.grantedTillDate,
    r.grantedInSession,
    r.reason,
    r.requestedBy,
    isoDateOf(r.requestedAt),
    r.decidedBy,
    isoDateOf(r.decidedAt),
    r.decisionReason,
  ];
}

export function registerTotalsCells(register: ConcessionRegister) {
  const cells: Array<string | number | null> = REGISTER_COLUMNS.map(() => '');
  cells[0] = 'Total';
  cells[4] = `${register.totals.count} concession${register.totals.count === 1 ? '' : 's'}`;
  cells[11] = register.totals.grantedTillDate;
  cells[12] = register.totals.grantedInSession;
  return cells;
}

const ROWS_PER_PAGE = 22;

/** "Apr 2025" and "15 Nov 2025": the shared labels, shortened so a row of the register fits one line. */
const shortMonth = (key: string) => monthLabel(key).replace(/^(\w{3})\w*/, '$1');
const shortDate = (iso: string | null) => dateOf(iso).replace(/^(\d+ \w{3})\w*/, '$1');

/** Landscape A4 pages of the register, the totals after the last row and the signature lines on the last page. */
export function concessionRegisterPdf(register: ConcessionRegister, { schoolName, today }: { schoolName: string; today: string }): Promise<Buffer> {
  const lastMonth = register.lastMonth;
  return renderPdf({ title: `Concession register ${register.academicYear}`, layout: 'landscape' }, (doc) => {
    const pages = Math.max(1, Math.ceil(register.rows.length / ROWS_PER_PAGE));
    for (let page = 0; page < pages; page++) {
      addPage(doc);
      const box = contentBox(doc);
      writeText(doc, schoolName, box.left, box.top, { style: 'bold', size: 14, width: box.width, align: 'center' });
      writeText(doc, `Concession register, ${register.academicYear} session`, box.left, doc.y + 4, { style: 'bold', size: 12, width: box.width, align: 'center' });
      const filter = register.status === 'all' ? 'Every concession asked for' : `Concessions ${CONCESSION_STATUS_LABELS[register.status].toLowerCase()}`;
      writeText(doc, `${filter} · granted till ${monthLabel(register.asOfMonth)} and for the session · generated on ${formatDateIN(today)}${pages > 1 ? ` · page ${page + 1} of ${pages}` : ''}`, box.left, doc.y + 3, { size: 8.5, width: box.width, align: 'center' });
      const w = box.width;
      const slice = register.rows.slice(page * ROWS_PER_PAGE, (page + 1) * ROWS_PER_PAGE);
      const cells = (r: ConcessionRegisterRow) => [
        `${r.className} ${r.section}`,
        String(r.rollNumber),
        r.admissionNumber ? `${r.studentName} (${r.admissionNumber})` : r.studentName,
        `${r.typeName}: ${r.description}`,
        `${shortMonth(r.fromMonth)} – ${shortMonth(r.toMonth ?? lastMonth)}`,
        r.statusLabel,
        rupeeText(r.grantedTillDate),
        rupeeText(r.grantedInSession),
        [r.requestedBy, shortDate(r.requestedAt)].filter(Boolean).join(', '),
        [r.decidedBy, shortDate(r.decidedAt)].filter(Boolean).join(', '),
        r.reason,
      ];
      const last = page === pages - 1;
      let y = drawTable(doc, {
        x: box.left,
        y: doc.y + 10,
        fontSize: 7,
        rowHeight: 15,
        columns: [
          { header: 'Class', width: w * 0.055 },
          { header: 'Roll', width: w * 0.03, align: 'right' },
          { header: 'Student', width: w * 0.12 },
          { header: 'Concession', width: w * 0.12 },
          { header: 'Months', width: w * 0.095 },
          { header: 'Status', width: w * 0.05 },
          { header: 'Till date', width: w * 0.08, align: 'right' },
          { header: 'Session', width: w * 0.08, align: 'right' },
          { header: 'Requested by', width: w * 0.115 },
          { header: 'Approved / rejected by', width: w * 0.13 },
          { header: 'Reason', width: w * 0.125 },
        ],
        rows: [
          ...slice.map((r) => ({ cells: cells(r) })),
          ...(last
            ? [{ cells: ['Total', '', `${register.totals.count} concession${register.totals.count === 1 ? '' : 's'}`, '', '', '', rupeeText(register.totals.grantedTillDate), rupeeText(register.totals.grantedInSession), '', '', ''], style: { bold: true } }]
            : []),
        ],
      });
      y += 8;
      if (register.rows.length === 0) writeText(doc, 'No concessions in this session.', box.left, y, { size: 10, width: box.width });
      if (last) {
        const sigY = box.bottom - mm(12);
        doc.save().moveTo(box.left, sigY).lineTo(box.left + mm(55), sigY).lineWidth(0.5).strokeColor('#555555').stroke().restore();
        writeText(doc, 'Accountant', box.left, sigY + 3, { size: 8.5, width: mm(55), align: 'center' });
        doc.save().moveTo(box.right - mm(55), sigY).lineTo(box.right, sigY).lineWidth(0.5).strokeColor('#555555').stroke().restore();
        writeText(doc, 'Principal (signature and date)', box.right - mm(55), sigY + 3, { size: 8.5, width: mm(55), align: 'center' });
      }
    }
  });
}
