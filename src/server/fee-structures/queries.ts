import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { FEE_HEADS, totalYearlyFees, type FeeHead, type FeeStructure } from '../../domain/fee-structures';
import { paise, raiseFee, toRupeeString, type Paise, type RoundingStep } from '../../domain/money';
import type { Db } from '../db/client';
import { classFeeStructures } from '../db/schema';
import { conflict } from '../lib/errors';
import { isUniqueViolation } from '../lib/pg-errors';
import { rowsOf } from '../lib/sql-rows';
import { classOrderSql } from '../students/class-order';

export type FeeStructureRow = typeof classFeeStructures.$inferSelect;

const amount = z.string().regex(/^-?\d+\.\d{2}$/);

export const feeStructureDto = z.object({
  id: z.string(),
  className: z.string(),
  academicYear: z.string(),
  monthlyTuitionFee: amount,
  yearlyFee: amount,
  examFee: amount,
  booksFee: amount,
  uniformFee: amount,
  miscFee: amount,
  /** yearly + exam + books + uniform + misc */
  totalYearlyFees: amount,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FeeStructureDto = z.infer<typeof feeStructureDto>;

/** The paise column of each fee head. */
const COLUMN = {
  monthlyTuitionFee: 'monthlyTuitionFeePaise',
  yearlyFee: 'yearlyFeePaise',
  examFee: 'examFeePaise',
  booksFee: 'booksFeePaise',
  uniformFee: 'uniformFeePaise',
  miscFee: 'miscFeePaise',
} as const satisfies Record<FeeHead, keyof FeeStructureRow>;

function amountsOf(row: FeeStructureRow): Record<FeeHead, Paise> {
  return Object.fromEntries(FEE_HEADS.map((h) => [h, paise(row[COLUMN[h]])])) as Record<FeeHead, Paise>;
}

export function toFeeStructureDto(row: FeeStructureRow): FeeStructureDto {
  const a = amountsOf(row);
  return {
    id: row.id,
    className: row.className,
    academicYear: row.academicYear,
    monthlyTuitionFee: toRupeeString(a.monthlyTuitionFee),
    yearlyFee: toRupeeString(a.yearlyFee),
    examFee: toRupeeString(a.examFee),
    booksFee: toRupeeString(a.booksFee),
    uniformFee: toRupeeString(a.uniformFee),
    miscFee: toRupeeString(a.miscFee),
    totalYearlyFees: toRupeeString(totalYearlyFees(a)),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function duplicateMessage(className: string, academicYear: string) {
  return conflict(`Fee structure for ${className} in ${academicYear} already exists.`, { title: 'Duplicate Fee Structure' });
}

export interface FeeStructureFilter {
  schoolId: string;
  /** canonical class name, or the raw text when it names no class (matched case-insensitively) */
  className?: string | undefined;
  academicYear?: string | undefined;
}

export function listFeeStructures(db: Db, filter: FeeStructureFilter): Promise<FeeStructureRow[]> {
  const where: SQL[] = [eq(classFeeStructures.schoolId, filter.schoolId)];
  if (filter.className) where.push(sql`lower(${classFeeStructures.className}) = lower(${filter.className})`);
  if (filter.academicYear) where.push(eq(classFeeStructures.academicYear, filter.academicYear));
  return db
    .select()
    .from(classFeeStructures)
    .where(and(...where))
    .orderBy(classOrderSql(classFeeStructures.className), desc(classFeeStructures.academicYear), asc(classFeeStructures.createdAt));
}

export async function findFeeStructure(db: Db, { schoolId, id }: { schoolId: string; id: string }): Promise<FeeStructureRow | undefined> {
  const [row] = await db
    .select()
    .from(classFeeStructures)
    .where(and(eq(classFeeStructures.schoolId, schoolId), eq(classFeeStructures.id, id)))
    .limit(1);
  return row;
}

function columnsOf(input: FeeStructure) {
  return {
    className: input.className,
    academicYear: input.academicYear,
    monthlyTuitionFeePaise: input.monthlyTuitionFee,
    yearlyFeePaise: input.yearlyFee,
    examFeePaise: input.examFee,
    booksFeePaise: input.booksFee,
    uniformFeePaise: input.uniformFee,
    miscFeePaise: input.miscFee,
  };
}

async function assertNoDuplicate(db: Db, schoolId: string, input: FeeStructure, exceptId?: string): Promise<void> {
  const [other] = await db
    .select({ id: classFeeStructures.id })
    .from(classFeeStructures)
    .where(
      and(
        eq(classFeeStructures.schoolId, schoolId),
        eq(classFeeStructures.className, input.className),
        eq(classFeeStructures.academicYear, input.academicYear),
        exceptId ? sql`${classFeeStructures.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  if (other) throw duplicateMessage(input.className, input.academicYear);
}

export async function createFeeStructure(db: Db, { schoolId, input, now }: { schoolId: string; input: FeeStructure; now: Date }): Promise<FeeStructureRow> {
  await assertNoDuplicate(db, schoolId, input);
  try {
    const [row] = await db
      .insert(classFeeStructures)
      .values({ schoolId, ...columnsOf(input), createdAt: now, updatedAt: now })
      .returning();
    return row!;
  } catch (error) {
    // a simultaneous add of the same class and year
    if (isUniqueViolation(error)) throw duplicateMessage(input.className, input.academicYear);
    throw error;
  }
}

export async function updateFeeStructure(
  db: Db,
  { schoolId, id, input, now }: { schoolId: string; id: string; input: FeeStructure; now: Date },
): Promise<FeeStructureRow | undefined> {
  await assertNoDuplicate(db, schoolId, input, id);
  try {
    const [row] = await db
      .update(classFeeStructures)
      .set({ ...columnsOf(input), updatedAt: now })
      .where(and(eq(classFeeStructures.schoolId, schoolId), eq(classFeeStructures.id, id)))
      .returning();
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateMessage(input.className, input.academicYear);
    throw error;
  }
}

/**
 * Raises the chosen fee heads of every structure (of one year, or all) by a percentage, rounding
 * half-up to the paisa with `increaseByPercent`, the one rounding rule of the product. The rows
 * are locked, the new amounts computed, and all written back in one UPDATE.
 */
/**
 * The annual increment in one statement. In place (no `fromAcademicYear`, or the same year): the
 * year's structures are raised. From one year into another: the target year's structures are
 * written (created or replaced) from the source year's raised amounts, so next year's fees can be
 * set without touching what students owe this year. Unchosen heads are copied as they are.
 */
export async function bulkAdjustFeeStructures(
  tx: Db,
  {
    schoolId,
    percentage,
    heads,
    academicYear,
    fromAcademicYear,
    roundTo,
    now,
  }: { schoolId: string; percentage: string; heads: FeeHead[]; academicYear: string | null; fromAcademicYear: string | null; roundTo: RoundingStep; now: Date },
): Promise<{ before: FeeStructureRow[]; after: FeeStructureRow[] }> {
  const source = fromAcademicYear ?? academicYear;
  const into = fromAcademicYear && academicYear && fromAcademicYear !== academicYear ? academicYear : null;
  const sourceRows = await tx
    .select()
    .from(classFeeStructures)
    .where(and(eq(classFeeStructures.schoolId, schoolId), source ? eq(classFeeStructures.academicYear, source) : undefined))
    .for('update');
  if (sourceRows.length === 0) return { before: [], after: [] };
  const raised = (row: FeeStructureRow) => {
    const a = amountsOf(row);
    return FEE_HEADS.map((h) => (heads.includes(h) ? raiseFee(a[h], percentage, roundTo) : a[h]));
  };
  let ids: string[];
  let before: FeeStructureRow[];
  if (into) {
    before = await tx
      .select()
      .from(classFeeStructures)
      .where(and(eq(classFeeStructures.schoolId, schoolId), eq(classFeeStructures.academicYear, into)))
      .for('update');
    const values = sourceRows.map(
      (row) => sql`(${schoolId}::uuid, ${row.className}, ${into}, ${sql.join(raised(row).map((n) => sql`${n}::bigint`), sql`, `)}, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)`,
    );
    const result = await tx.execute(sql`
      insert into ${classFeeStructures} (school_id, class_name, academic_year, monthly_tuition_fee_paise, yearly_fee_paise, exam_fee_paise,
                                         books_fee_paise, uniform_fee_paise, misc_fee_paise, created_at, updated_at)
      values ${sql.join(values, sql`, `)}
      on conflict (school_id, class_name, academic_year) do update set
        monthly_tuition_fee_paise = excluded.monthly_tuition_fee_paise, yearly_fee_paise = excluded.yearly_fee_paise,
        exam_fee_paise = excluded.exam_fee_paise, books_fee_paise = excluded.books_fee_paise,
        uniform_fee_paise = excluded.uniform_fee_paise, misc_fee_paise = excluded.misc_fee_paise, updated_at = excluded.updated_at
      returning id`);
    ids = rowsOf<{ id: string }>(result).map((r) => r.id);
  } else {
    before = sourceRows;
    const values = sourceRows.map((row) => sql`(${row.id}::uuid, ${sql.join(raised(row).map((n) => sql`${n}::bigint`), sql`, `)})`);
    const result = await tx.execute(sql`
      update ${classFeeStructures} as f set
        monthly_tuition_fee_paise = v.tuition, yearly_fee_paise = v.yearly, exam_fee_paise = v.exam,
        books_fee_paise = v.books, uniform_fee_paise = v.uniform, misc_fee_paise = v.misc,
        updated_at = ${now.toISOString()}::timestamptz
      from (values ${sql.join(values, sql`, `)}) as v(id, tuition, yearly, exam, books, uniform, misc)
      where f.school_id = ${schoolId} and f.id = v.id
      returning f.id`);
    ids = rowsOf<{ id: string }>(result).map((r) => r.id);
  }
  const after = await tx
    .select()
    .from(classFeeStructures)
    .where(and(eq(classFeeStructures.schoolId, schoolId), inArray(classFeeStructures.id, ids)))
    .orderBy(classOrderSql(classFeeStructures.className), desc(classFeeStructures.academicYear));
  return { before, after };
}
