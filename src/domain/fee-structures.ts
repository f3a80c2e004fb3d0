import { z } from 'zod';
import { rupeeInput } from './amount-input';
import { addPaise, type Paise, type RoundingStep } from './money';
import { normaliseAcademicYear } from './sessions';
import { classInput } from './students';

/**
 * Class fee structures (operations §3, §5 Fee structure and Bulk increase, §9 bulk fee types):
 * what a class pays in an academic year. Tuition is monthly; the other five heads are yearly.
 */

export const FEE_HEADS = ['monthlyTuitionFee', 'yearlyFee', 'examFee', 'booksFee', 'uniformFee', 'miscFee'] as const;
export type FeeHead = (typeof FEE_HEADS)[number];

export const FEE_HEAD_LABELS: Record<FeeHead, string> = {
  monthlyTuitionFee: 'Monthly tuition fee',
  yearlyFee: 'Yearly (admission) fee',
  examFee: 'Exam fee',
  booksFee: 'Books fee',
  uniformFee: 'Uniform fee',
  miscFee: 'Misc fee',
};

export const ACADEMIC_YEAR_MESSAGE = 'Academic year must be written like 2024-2025';

/** An academic year in any of the spellings of operations §5, as `2025-2026`. */
export const academicYearInput = z
  .string({ error: 'Academic year is required' })
  .nullish()
  .transform((v, ctx): string => {
    const raw = (v ?? '').trim();
    if (!raw) {
      ctx.addIssue({ code: 'custom', message: 'Academic year is required' });
      return z.NEVER;
    }
    const year = normaliseAcademicYear(raw);
    if (!year) {
      ctx.addIssue({ code: 'custom', message: ACADEMIC_YEAR_MESSAGE });
      return z.NEVER;
    }
    return year;
  });

const amount = (head: FeeHead) => rupeeInput(`${FEE_HEAD_LABELS[head]} must be an amount of at least 0 with at most 2 decimals`);

export const feeStructureSchema = z.object({
  className: classInput('Class is required'),
  academicYear: academicYearInput,
  monthlyTuitionFee: amount('monthlyTuitionFee'),
  yearlyFee: amount('yearlyFee'),
  examFee: amount('examFee'),
  booksFee: amount('booksFee'),
  uniformFee: amount('uniformFee'),
  miscFee: amount('miscFee'),
});
export type FeeStructureInput = z.input<typeof feeStructureSchema>;
export type FeeStructure = z.output<typeof feeStructureSchema>;

/** Yearly + exam + books + uniform + misc (operations §9); tuition is monthly and bus fee per student. */
export function totalYearlyFees(s: Pick<FeeStructure, 'yearlyFee' | 'examFee' | 'booksFee' | 'uniformFee' | 'miscFee'>): Paise {
  return addPaise(s.yearlyFee, s.examFee, s.booksFee, s.uniformFee, s.miscFee);
}

export const PERCENTAGE_MESSAGE = 'Please enter a valid percentage greater than 0';
export const FEE_TYPES_MESSAGE = 'Please select at least one fee type to increase';

/**
 * A percentage as the decimal text `increaseByPercent` takes: above 0, at most two decimals,
 * below 1000.
 */
export const percentageInput = z
  .union([z.string(), z.number()], { error: PERCENTAGE_MESSAGE })
  .nullish()
  .transform((v, ctx): string => {
    const text = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : (v ?? '').trim().replace(/\s*%$/, '');
    const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text);
    if (!match || Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) <= 0) {
      ctx.addIssue({ code: 'custom', message: /^\d+(\.\d+)?$/.test(text) && Number(text) >= 1000 ? 'The percentage must be below 1000' : PERCENTAGE_MESSAGE });
      return z.NEVER;
    }
    return text;
  });

const academicYearOrNull = z
  .string()
  .nullish()
  .transform((v, ctx): string | null => {
    const raw = (v ?? '').trim();
    if (!raw) return null;
    const year = normaliseAcademicYear(raw);
    if (!year) {
      ctx.addIssue({ code: 'custom', message: ACADEMIC_YEAR_MESSAGE });
      return z.NEVER;
    }
    return year;
  });

export const ROUNDING_MESSAGE = 'Round to ₹1, ₹5 or ₹10';

export const bulkAdjustSchema = z.object({
  percentage: percentageInput,
  /**
   * the year whose structures are raised; when it differs from academicYear, that year's structures
   * are written from this year's raised amounts (next year's fees from this year's), and this year's
   * dues do not change
   */
  fromAcademicYear: academicYearOrNull,
  /** new amounts round half-up to this many rupees (1, 5 or 10); 1 when left out */
  roundTo: z
    .union([z.literal(1), z.literal(5), z.literal(10), z.literal('1'), z.literal('5'), z.literal('10')], { error: ROUNDING_MESSAGE })
    .nullish()
    .transform((v): RoundingStep => (v ? (Number(v) as RoundingStep) : 1)),
  feeTypes: z
    .object(Object.fromEntries(FEE_HEADS.map((h) => [h, z.boolean().optional().default(false)])) as Record<FeeHead, z.ZodDefault<z.ZodOptional<z.ZodBoolean>>>, {
      error: FEE_TYPES_MESSAGE,
    })
    .refine((t) => FEE_HEADS.some((h) => t[h]), FEE_TYPES_MESSAGE),
  /** the year written: only its structures change; all years (in place) when left out */
  academicYear: academicYearOrNull,
});
export type BulkAdjustInput = z.input<typeof bulkAdjustSchema>;
export type BulkAdjust = z.output<typeof bulkAdjustSchema>;
