import { and, eq, sql } from 'drizzle-orm';
import { formatDateIN } from '../../domain/dates';
import { computeSessionAccount, type SessionAccount } from '../../domain/fees';
import { computeLateFine, fineInstalments } from '../../domain/fines';
import { dueTiming, planSchedule } from '../../domain/instalments';
import { loadPlans, planFor } from './plans';
import { HEAD_LABELS, indiaMonthKey } from '../../domain/ledger';
import { paise, toRupeeString, type Paise } from '../../domain/money';
import { indiaDate, sessionMonths } from '../../domain/sessions';
import type { Db } from '../db/client';
import { inIds } from '../lib/sql-sets';
import { fineWaivers, schools, studentEnrollments, students } from '../db/schema';
import { loadStructures, sessionLineTotals, structureAmounts, structureFor, type SessionRow } from '../fees/queries';
import { drawTable, mm, renderPdf, rupeeText, writeText, contentBox, addPage } from '../lib/pdf';
import { approvedConcessions } from './concession-queries';
import { loadLateFineRule } from './fines';

/** A student's year-end statement (issue 16): dues by head, concessions, fines, payments, balance. */
export interface Statement {
  name: string;
  className: string;
  section: string;
  rollNumber: number;
  rows: Array<{ label: string; due: Paise; concession: Paise; paid: Paise; balance: Paise }>;
  totals: { due: Paise; concession: Paise; paid: Paise; balance: Paise };
  fine: { accrued: Paise; waived: Paise; paid: Paise; due: Paise };
  otherPaid: Paise;
  balance: Paise;
}

function statementOf(account: SessionAccount): Pick<Statement, 'rows' | 'totals' | 'otherPaid'> {
  const sum = (pick: (m: SessionAccount['months'][number]) => { expected: Paise; granted: Paise; concession: Paise; applied: Paise; outstanding: Paise }) => {
    const hs = account.months.map(pick);
    return {
      due: paise(hs.reduce((s, h) => s + h.expected, 0)),
      concession: paise(hs.reduce((s, h) => s + h.granted + h.concession, 0)),
      paid: paise(hs.reduce((s, h) => s + h.applied, 0)),
      balance: paise(hs.reduce((s, h) => s + h.outstanding, 0)),
    };
  };
  const rows = [
    { label: HEAD_LABELS.tuition, ...sum((m) => m.tuition) },
    { label: HEAD_LABELS.bus, ...sum((m) => m.bus) },
    ...account.yearly.map((y) => ({ label: HEAD_LABELS[y.head], due: y.expected, concession: y.granted, paid: y.applied, balance: y.outstanding })),
  ].filter((r) => r.due > 0 || r.paid > 0);
  const totals = {
    due: paise(rows.reduce((s, r) => s + r.due, 0)),
    concession: paise(rows.reduce((s, r) => s + r.concession, 0)),
    paid: paise(rows.reduce((s, r) => s + r.paid, 0)),
    balance: paise(rows.reduce((s, r) => s + r.balance, 0)),
  };
  const otherPaid = paise(account.totalPaid - totals.paid - account.finePaid);
  return { rows, totals, otherPaid };
}

/**
 * Statements of a session for a class, or for one student, in a fixed number of reads: the
 * students, the structures, the session's lines, its concessions and waivers.
 */
export async function loadStatements(
  db: Db,
  { schoolId, session, className, section, studentId, now }: { schoolId: string; session: SessionRow; className?: string; section?: string; studentId?: string; now: Date },
): Promise<Statement[]> {
  const people = await db
    .select({ id: students.id, name: students.name, busFee: students.monthlyBusFeePaise, feesFrom: students.feesFromMonth, className: studentEnrollments.className, section: studentEnrollments.section, rollNumber: studentEnrollments.rollNumber })
    .from(studentEnrollments)
    .innerJoin(students, eq(students.id, studentEnrollments.studentId))
    .where(
      and(
        eq(studentEnrollments.schoolId, schoolId),
        eq(studentEnrollments.sessionId, session.id),
        className ? sql`lower(${studentEnrollments.className}) = lower(${className})` : undefined,
        section ? sql`lower(${studentEnrollments.section}) = lower(${section})` : undefined,
        studentId ? eq(studentEnrollments.studentId, studentId) : undefined,
      ),
    )
    .orderBy(studentEnrollments.className, studentEnrollments.section, studentEnrollments.rollNumber);
  if (people.length === 0) return [];
  const ids = people.map((p) => p.id);
  const [structures, lines, granted, rule, waivers, plans] = await Promise.all([
    loadStructures(db, { schoolId }),
    sessionLineTotals(db, { schoolId, sessionId: session.id }),
    approvedConcessions(db, { schoolId, sessionId: session.id, studentIds: ids }),
    loadLateFineRule(db, schoolId),
    db.select({ studentId: fineWaivers.studentId, instalment: fineWaivers.instalment }).from(fineWaivers).where(and(eq(fineWaivers.schoolId, schoolId), eq(fineWaivers.sessionId, session.id), eq(fineWaivers.status, 'approved'), inIds(sql`${fineWaivers.studentId}`, ids))),
    loadPlans(db, schoolId),
  ]);
  const months = sessionMonths(session.startDate, session.endDate);
  const asOf = indiaDate(now) < session.endDate ? indiaDate(now) : session.endDate;
  return people.map((p) => {
    const structure = structureFor(structures, p.className, session.name);
    const amounts = structure ? structureAmounts(structure) : null;
    const plan = planFor(plans, p.className);
    const schedule = planSchedule(amounts, plan, { months, busFee: paise(Number(p.busFee)) });
    const account = computeSessionAccount({
      months,
      asOfMonth: indiaMonthKey(now),
      structure: amounts,
      busFee: paise(Number(p.busFee)),
      feesFrom: p.feesFrom,
      lines: lines.get(p.id) ?? [],
      concessions: granted.get(p.id),
      timing: schedule ? dueTiming(schedule, plan) : null,
    });
    const fine = computeLateFine({ rule, asOf, instalments: rule.enabled ? fineInstalments(account, rule, schedule) : [], waivedKeys: new Set(waivers.filter((w) => w.studentId === p.id).map((w) => w.instalment)), paid: account.finePaid });
    const part = statementOf(account);
    return {
      name: p.name,
      className: p.className,
      section: p.section,
      rollNumber: p.rollNumber,
      ...part,
      fine: { accrued: fine.accrued, waived: fine.waived, paid: fine.paid, due: fine.due },
      balance: paise(account.annual.outstanding + fine.due),
    };
  });
}

const r = (v: Paise) => rupeeText(toRupeeString(v));

/** One A4 page per student. */
export async function statementsPdf(db: Db, { schoolId, session, statements, now }: { schoolId: string; session: SessionRow; statements: Statement[]; now: Date }): Promise<Buffer> {
  const [school] = await db.select({ name: schools.name, address: schools.address }).from(schools).where(eq(schools.id, schoolId)).limit(1);
  return renderPdf({ title: `Fee statement ${session.name}` }, (doc) => {
    for (const s of statements) {
      addPage(doc);
      const box = contentBox(doc);
      let y = box.top;
      writeText(doc, school?.name ?? '', box.left, y, { style: 'bold', size: 15, width: box.width, align: 'center' });
      y = doc.y + 2;
      if (school?.address) {
        writeText(doc, school.address, box.left, y, { size: 9, width: box.width, align: 'center' });
        y = doc.y + 2;
      }
      writeText(doc, `Fee statement for the ${session.name} session`, box.left, y + 6, { style: 'bold', size: 12, width: box.width, align: 'center' });
      y = doc.y + 10;
      writeText(doc, `${s.name}  ·  ${s.className} ${s.section}  ·  Roll ${s.rollNumber}`, box.left, y, { size: 10, width: box.width });
      y = doc.y + 2;
      writeText(doc, `As on ${formatDateIN(indiaDate(now))}`, box.left, y, { size: 9, width: box.width });
      y = doc.y + 8;
      const w = box.width;
      y = drawTable(doc, {
        x: box.left,
        y,
        columns: [
          { header: 'Fee head', width: w * 0.32 },
          { header: 'Due', width: w * 0.17, align: 'right' },
          { header: 'Concession', width: w * 0.17, align: 'right' },
          { header: 'Paid', width: w * 0.17, align: 'right' },
          { header: 'Balance', width: w * 0.17, align: 'right' },
        ],
        rows: [
          ...s.rows.map((row) => ({ cells: [row.label, r(row.due), r(row.concession), r(row.paid), r(row.balance)] })),
          { cells: ['Total', r(s.totals.due), r(s.totals.concession), r(s.totals.paid), r(s.totals.balance)], style: { bold: true } },
        ],
      });
      y += 10;
      const lines = [
        `Late fines: ${r(s.fine.accrued)} charged, ${r(s.fine.waived)} waived, ${r(s.fine.paid)} paid, ${r(s.fine.due)} due`,
        ...(s.otherPaid > 0 ? [`Other fees paid: ${r(s.otherPaid)}`] : []),
      ];
      for (const line of lines) {
        writeText(doc, line, box.left, y, { size: 10, width: box.width });
        y = doc.y + 4;
      }
      writeText(doc, `Balance for the session: ${r(s.balance)}`, box.left, y + 4, { style: 'bold', size: 12, width: box.width });
      const sigY = box.bottom - mm(20);
      doc.save().moveTo(box.right - mm(55), sigY).lineTo(box.right, sigY).lineWidth(0.5).strokeColor('#555555').stroke().restore();
      writeText(doc, 'Principal / Accountant', box.right - mm(55), sigY + 3, { size: 8.5, width: mm(55), align: 'center' });
    }
  });
}
