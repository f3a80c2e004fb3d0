import type { FastifyRequest } from 'fastify';
import { compareClasses } from '../../domain/classes';
import {
  describeMatch,
  fileDuplicates,
  hasNameAndClass,
  IMPORT_MESSAGES,
  rowToStudentInput,
  type DuplicateMatch,
  type DuplicateRow,
  type ImportRow,
} from '../../domain/student-import';
import { createStudentSchema, type CreateStudent } from '../../domain/students';
import type { Db } from '../db/client';
import { sql, type SQL } from 'drizzle-orm';
import { newStudentBalanceWrites, type SchoolBalanceRows } from '../balances/refresh';
import { auditLog, plans, schools, students } from '../db/schema';
import { sessionsRead, structuresRead } from '../fees/queries';
import { auditWho } from '../lib/audit';
import { onlyIf, read, readAtOnce } from '../lib/read-at-once';
import { plansRead } from '../policy/plans';
import type { FieldCipher } from '../lib/crypto';
import { badRequest } from '../lib/errors';
import { createDefaultSession } from '../sessions/queries';
import { lockSchoolLedgerShared } from '../fees/locks';
import { backfillAadhaarHashes, matchesByRow, schoolDuplicates, schoolDuplicatesSql, type CandidateRow, type FoundStudent } from './duplicates';
import {
  allocateRollNumbers,
  syncRollCounters,
  rollCountersOf,
  studentBatchStatement,
  lockStudentAdds,
  newStudentValues,
  planLimitMessage,
  rollGroupKey,
} from './queries';

export interface RowError {
  row: number;
  name: string;
  /** every problem of the row, joined with "; " */
  reason: string;
  reasons: string[];
}

export interface ImportResult {
  imported: number;
  errors: RowError[];
  /** possible duplicates left out because the clerk did not choose "Import anyway" */
  skipped: Array<{ row: number; name: string; reason: string }>;
  sections: Array<{ class: string; section: string; count: number }>;
}

const rowError = (row: number, name: string, reasons: string[]): RowError => ({ row, name, reason: reasons.join('; '), reasons });

export type ImportEvent =
  | { type: 'progress'; processed: number; total: number; imported: number; errors: number; skipped: number; currentStudent: string }
  | { type: 'complete'; result: ImportResult }
  | { type: 'error'; message: string; imported: number };

/** A row checked against the Add student rules: either a student to insert, or the reason it is refused. */
export interface PreparedRow {
  row: number;
  name: string;
  input?: CreateStudent;
  reasons?: string[];
}

const shortName = (name: string | undefined) => (name ?? '').slice(0, 100);

export function admissionTakenMessage(admissionNumber: string): string {
  return `Admission number ${admissionNumber} is already used by another student in this school.`;
}

/**
 * Checks every row with the same rules and words as Add New Student, before anything is written,
 * and keeps every problem of a row (not only the first), so one round of fixing is enough.
 * Throws a 400 when no row has both a name and a class ("No valid student data found...").
 */
export function prepareRows(rows: ImportRow[]): PreparedRow[] {
  if (!rows.some(hasNameAndClass)) throw badRequest(IMPORT_MESSAGES.noValid);
  const firstRowOfAdmission = new Map<string, number>();
  return rows.map((r): PreparedRow => {
    const name = shortName(r.values.name);
    if (r.problem) return { row: r.row, name, reasons: [r.problem] };
    const parsed = createStudentSchema.safeParse(rowToStudentInput(r.values));
    const reasons = parsed.success ? [] : [...new Set(parsed.error.issues.map((i) => i.message))];
    const admission = parsed.success ? parsed.data.admissionNumber : String(r.values.admission_number ?? '').trim() || null;
    if (admission) {
      const first = firstRowOfAdmission.get(admission);
      if (first !== undefined) reasons.push(`Admission number ${admission} appears twice in this file (first in row ${first})`);
      else firstRowOfAdmission.set(admission, r.row);
    }
    if (!parsed.success || reasons.length > 0) return { row: r.row, name, reasons: reasons.length ? reasons : ['Invalid row'] };
    return { row: r.row, name: parsed.data.name.slice(0, 100), input: parsed.data };
  });
}

export interface DuplicateCheck {
  /** rows that may be a student already in the school or earlier in the file, with whom */
  duplicates: DuplicateRow[];
  byRow: Map<number, DuplicateMatch[]>;
}

/** What a row is compared with the school's students by: the name, father's name and class, the Aadhaar blind index. */
const candidateOf = (cipher: FieldCipher, p: PreparedRow & { input: CreateStudent }): CandidateRow => ({
  row: p.row,
  name: p.input.name,
  fatherName: p.input.fatherName,
  class: p.input.class,
  aadhaarHash: p.input.aadharNumber ? cipher.blindIndex('aadhaar', p.input.aadharNumber) : null,
});

/** How a possible duplicate left out is reported, by the check before the import and by a batch's own. */
const skippedAsDuplicate = (p: PreparedRow, matches: DuplicateMatch[]) => ({
  row: p.row,
  name: p.name,
  reason: `Skipped as a possible duplicate: ${matches.map(describeMatch).join('; ')}`,
});

/**
 * Finds possible duplicates among the rows that passed the checks: within the file, and against
 * the school's students in one query (Aadhaar by its blind index, never by decrypting).
 */
export async function checkDuplicates(db: Db, cipher: FieldCipher, schoolId: string, prepared: PreparedRow[]): Promise<DuplicateCheck> {
  const valid = prepared.filter((p): p is PreparedRow & { input: CreateStudent } => Boolean(p.input));
  await backfillAadhaarHashes(db, cipher, schoolId);
  const inFile = fileDuplicates(
    valid.map((p) => ({ row: p.row, name: p.input.name, fatherName: p.input.fatherName, class: p.input.class, section: p.input.section, aadhaar: p.input.aadharNumber })),
  );
  const inSchool = await schoolDuplicates(db, { schoolId, rows: valid.map((p) => candidateOf(cipher, p)) });
  const byRow = new Map<number, DuplicateMatch[]>();
  const duplicates: DuplicateRow[] = [];
  for (const p of valid) {
    const matches = [...(inSchool.get(p.row) ?? []), ...(inFile.get(p.row) ?? [])];
    if (matches.length === 0) continue;
    byRow.set(p.row, matches);
    duplicates.push({ row: p.row, name: p.name, matches });
  }
  return { duplicates, byRow };
}

/**
 * Batches of at most 2% of the file, so a progress event follows at least every 2%; each batch is
 * one transaction with a handful of statements whatever its size.
 */
export function batchSizeFor(total: number): number {
  return Math.max(1, Math.min(500, Math.floor(total / 50)));
}

/**
 * The reads of one batch, after the school's student-adds lock: admission numbers already used (as
 * `takenAdmissionNumbers`), the plan's room (as `planRoom`), the school's sessions, structures
 * and plans that new students' running balances are computed from (as `balanceInputReads`), and the
 * students the `candidates` may duplicate (as `schoolDuplicates`): the check before the import did
 * not see students added since, by another import of the same file or by Add Student.
 */
function batchReads(schoolId: string, numbers: readonly string[], candidates: readonly CandidateRow[]) {
  return {
    ...onlyIf(candidates.length > 0, {
      duplicates: read(schoolDuplicatesSql(schoolId, candidates), (r): FoundStudent => ({
        id: String(r.id),
        name: String(r.name),
        father_name: String(r.father_name),
        class_name: String(r.class_name),
        section: String(r.section),
        aadhaar_hash: r.aadhaar_hash === null || r.aadhaar_hash === undefined ? null : String(r.aadhaar_hash),
        key: String(r.key),
      })),
    }),
    taken: read(
      sql`select admission_number from ${students}
          where school_id = ${schoolId} and admission_number in (select jsonb_array_elements_text(${JSON.stringify(numbers)}::jsonb))`,
      (r) => ({ n: String(r.admission_number) }),
    ),
    room: read(
      sql`select ${plans.name} as plan_name, ${plans.studentLimit} as student_limit,
            (select count(*) from ${students} s where s.school_id = ${schoolId} and s.status = 'active') as active
          from ${schools} inner join ${plans} on ${plans.id} = ${schools.subscriptionPlan}
          where ${schools.id} = ${schoolId}`,
      (r) => ({ planName: String(r.plan_name), limit: r.student_limit === null ? null : Number(r.student_limit), active: Number(r.active) }),
    ),
    sessions: sessionsRead(schoolId),
    structures: structuresRead(schoolId),
    plans: plansRead(schoolId),
  };
}

export interface ImportContext {
  db: Db;
  cipher: FieldCipher;
  request: FastifyRequest;
  schoolId: string;
  now: Date;
  today: string;
  emit(event: ImportEvent): void;
  /** possible duplicates, by row */
  duplicates: Map<number, DuplicateMatch[]>;
  /** rows the clerk chose to import although they may be duplicates */
  importAnyway: ReadonlySet<number>;
}

type ValidRow = PreparedRow & { input: CreateStudent };

/** A batch's rows split before anything is read: those to insert, those refused, possible duplicates left out. */
function screenBatch(ctx: ImportContext, batch: PreparedRow[]): { valid: ValidRow[]; refused: RowError[]; left: ImportResult['skipped'] } {
  const refused: RowError[] = [];
  const left: ImportResult['skipped'] = [];
  const valid = batch.filter((p): p is ValidRow => {
    if (!p.input) {
      refused.push(rowError(p.row, p.name, p.reasons ?? ['Invalid row']));
      return false;
    }
    const matches = ctx.duplicates.get(p.row);
    if (matches && !ctx.importAnyway.has(p.row)) {
      left.push(skippedAsDuplicate(p, matches));
      return false;
    }
    return true;
  });
  return { valid, refused, left };
}

/** How many of the rows go to each class and section, by `rollGroupKey`. */
function rollGroupsOf(rows: ValidRow[]): Map<string, { className: string; section: string; count: number }> {
  const groups = new Map<string, { className: string; section: string; count: number }>();
  for (const p of rows) {
    const key = rollGroupKey({ className: p.input.class, section: p.input.section });
    const group = groups.get(key) ?? { className: p.input.class, section: p.input.section, count: 0 };
    group.count += 1;
    groups.set(key, group);
  }
  return groups;
}

/** The school's rows new students' running balances are computed from, as one comparable value. */
const balanceInputsKey = (known: SchoolBalanceRows): string => JSON.stringify([known.sessions, known.structures, known.plans]);

/** One batch's statement (students, enrollments, running balances, audit row) and the students it writes. */
interface BatchWrites {
  /** what it was built from: the rows, the roll number each group starts at, the balances' inputs */
  rows: readonly ValidRow[];
  firstRolls: ReadonlyMap<string, number>;
  inputs: string;
  written: Array<{ id: string; name: string; className: string; section: string; rollNumber: number }>;
  statement: SQL;
}

/**
 * A batch's writes, as its transaction would build them once it holds the lock (decision 0106): a
 * batch built ahead is used only when its transaction finds the same rows to insert, the same first
 * roll number for every group and the same sessions, structures and plans, which are all it reads.
 */
function batchWrites(
  ctx: ImportContext,
  sessionId: string,
  batch: PreparedRow[],
  valid: readonly ValidRow[],
  firstRolls: ReadonlyMap<string, number>,
  school: SchoolBalanceRows,
  inputs: string,
): BatchWrites {
  const next = new Map(firstRolls);
  const values = valid.map((p) => {
    const key = rollGroupKey({ className: p.input.class, section: p.input.section });
    const rollNumber = next.get(key)!;
    next.set(key, rollNumber + 1);
    return newStudentValues(ctx.schoolId, p.input, { sessionId, rollNumber, today: ctx.today, now: ctx.now }, ctx.cipher);
  });
  const written = values.map((v) => ({ id: v.id, name: v.name, className: v.className, section: v.section ?? 'A', rollNumber: v.rollNumber }));
  if (values.length === 0) return { rows: valid, firstRolls, inputs, written, statement: sql`select 1` };
  // the students, their enrollments, running balances and the audit row: one statement
  const balances = newStudentBalanceWrites(
    ctx.schoolId,
    school,
    values.map((v) => ({
      id: v.id,
      className: v.className,
      section: v.section ?? 'A',
      rollNumber: v.rollNumber,
      sessionId: v.sessionId,
      status: v.status ?? 'active',
      feesFromMonth: v.feesFromMonth ?? null,
      monthlyBusFeePaise: Number(v.monthlyBusFeePaise ?? 0),
    })),
  );
  const who = auditWho(ctx.request);
  const after = {
    rows: [batch[0]!.row, batch[batch.length - 1]!.row],
    imported: written.length,
    students: written.map((r) => ({ id: r.id, name: r.name, class: r.className, section: r.section, rollNumber: r.rollNumber })),
  };
  const auditRow = sql`insert into ${auditLog} (school_id, user_id, action, entity, after, ip)
    values (${who.schoolId}::uuid, ${who.userId}::uuid, 'student.bulk_import', 'student', ${JSON.stringify(after)}::jsonb, ${who.ip})`;
  return { rows: valid, firstRolls, inputs, written, statement: studentBatchStatement(values, [...balances, auditRow]) };
}

/** Whether writes built ahead are the ones the batch's transaction would build now. */
function builtFrom(writes: BatchWrites, valid: readonly ValidRow[], firstRolls: ReadonlyMap<string, number>, inputs: string): boolean {
  if (writes.inputs !== inputs || writes.rows.length !== valid.length || writes.firstRolls.size !== firstRolls.size) return false;
  if (!writes.rows.every((row, i) => row === valid[i])) return false;
  return [...firstRolls].every(([key, first]) => writes.firstRolls.get(key) === first);
}

/**
 * Imports the good rows batch by batch and reports every refused row with its number and reason.
 * A batch takes the school's student-adds lock, so the plan limit (ruling 13) and admission numbers
 * are checked against what is really there; roll numbers are allocated per class and section for
 * the whole batch at once (ruling 10).
 */
export async function runImport(ctx: ImportContext, prepared: PreparedRow[]): Promise<ImportResult | null> {
  const { db, schoolId } = ctx;
  const total = prepared.length;
  const errors: RowError[] = [];
  const skipped: ImportResult['skipped'] = [];
  const sections = new Map<string, { class: string; section: string; count: number }>();
  let imported = 0;
  let processed = 0;
  const progress = (currentStudent: string) =>
    ctx.emit({ type: 'progress', processed, total, imported, errors: errors.length, skipped: skipped.length, currentStudent });

  const size = batchSizeFor(total);
  try {
    const { session, counters } = await db.transaction(async (tx) => {
      const active = await createDefaultSession(tx, { schoolId, today: ctx.today });
      // once per import, so each batch numbers from the counters alone (`allocateRollNumbers`)
      await syncRollCounters(tx, { schoolId, sessionId: active.id });
      return { session: active, counters: await rollCountersOf(tx, { schoolId, sessionId: active.id }) };
    });
    progress('');
    // the next batch's writes, built while PostgreSQL stores this one's (decision 0106)
    let ahead: BatchWrites | undefined;
    for (let start = 0; start < total; start += size) {
      const batch = prepared.slice(start, start + size);
      const outcome = await db.transaction(async (tx) => {
        await lockStudentAdds(tx, schoolId);
        // the batch's running balances are computed from the fees read after this (decision 0107)
        await lockSchoolLedgerShared(tx, { schoolId });
        const screened = screenBatch(ctx, batch);
        const { refused, left } = screened;
        let valid = screened.valid;
        const numbers = valid.map((p) => p.input.admissionNumber).filter((n): n is string => Boolean(n));
        // the duplicates are checked again here, under the lock: students added since the check
        // before the import (the same file imported twice at once) are found as that check finds them
        const candidates = valid.filter((p) => !ctx.importAnyway.has(p.row)).map((p) => candidateOf(ctx.cipher, p));
        // what the batch checks and computes with, in one statement after the lock
        const known = await readAtOnce(tx, batchReads(schoolId, numbers, candidates));
        const added = matchesByRow(candidates, known.duplicates);
        valid = valid.filter((p) => {
          const matches = added.get(p.row);
          if (!matches) return true;
          left.push(skippedAsDuplicate(p, matches));
          return false;
        });
        const taken = new Set(known.taken.map((r) => r.n));
        valid = valid.filter((p) => {
          const n = p.input.admissionNumber;
          if (!n || !taken.has(n)) return true;
          refused.push(rowError(p.row, p.name, [admissionTakenMessage(n)]));
          return false;
        });
        const room = known.room[0];
        if (!room) throw new Error(`school ${schoolId} has no plan`);
        if (room.limit !== null) {
          const capacity = Math.max(0, room.limit - room.active);
          for (const p of valid.slice(capacity)) refused.push(rowError(p.row, p.name, [planLimitMessage(room)]));
          valid = valid.slice(0, capacity);
        }
        const groups = rollGroupsOf(valid);
        const firstRolls = await allocateRollNumbers(tx, { schoolId, sessionId: session.id, groups: [...groups.values()], synced: true });
        for (const [key, group] of groups) counters.set(key, firstRolls.get(key)! + group.count - 1);
        const inputs = balanceInputsKey(known);
        // built ahead from what this batch now finds, or else built now: the same writes either way
        const writes = ahead && builtFrom(ahead, valid, firstRolls, inputs) ? ahead : batchWrites(ctx, session.id, batch, valid, firstRolls, known, inputs);
        ahead = undefined;
        if (writes.written.length > 0) {
          const writing = (async () => {
            await tx.execute(writes.statement);
          })();
          // awaited below: a failure meanwhile is not unhandled
          writing.catch(() => undefined);
          const next = prepared.slice(start + size, start + 2 * size);
          if (next.length > 0) {
            // the statement is sent before the next batch is built, so the two run side by side
            await new Promise((resolve) => setImmediate(resolve));
            const upcoming = screenBatch(ctx, next).valid;
            const predicted = new Map([...rollGroupsOf(upcoming).keys()].map((key) => [key, (counters.get(key) ?? 0) + 1]));
            ahead = batchWrites(ctx, session.id, next, upcoming, predicted, known, inputs);
          }
          await writing;
        }
        return { rows: writes.written, refused, left };
      });
      for (const r of outcome.rows) {
        const key = `${r.className}|${r.section}`;
        const entry = sections.get(key) ?? { class: r.className, section: r.section, count: 0 };
        entry.count += 1;
        sections.set(key, entry);
      }
      imported += outcome.rows.length;
      errors.push(...outcome.refused);
      skipped.push(...outcome.left);
      processed += batch.length;
      progress(batch[batch.length - 1]!.name);
    }
  } catch (error) {
    // the batches before this one are saved; say so, so the school can check before importing the rest
    ctx.request.log.error({ err: error }, 'bulk import stopped');
    ctx.emit({
      type: 'error',
      message: `The import stopped because of a problem on our side after ${processed} of ${total} rows. ${imported} students were imported; check the student list before importing the remaining rows.`,
      imported,
    });
    return null;
  }
  errors.sort((a, b) => a.row - b.row);
  skipped.sort((a, b) => a.row - b.row);
  const result: ImportResult = {
    imported,
    errors,
    skipped,
    sections: [...sections.values()].sort((a, b) => compareClasses(a.class, b.class) || a.section.localeCompare(b.section)),
  };
  ctx.emit({ type: 'complete', result });
  return result;
}
