import { z } from 'zod';
import { amountProblemMessage, readAmount } from './amount-input';
import { clientIdInput } from './ledger';
import { MAX_PAISE, type Paise } from './money';

/**
 * Expenses (operations §3, §5 Expense, §9; ruling 20): what the school spends, by category.
 * Amounts are whole paise inside and "1500.00" on the wire, like fees.
 */

/** The one list of categories (ruling 20): Add and Edit offer the same. */
export const EXPENSE_CATEGORIES = [
  'Salaries',
  'Utilities',
  'Supplies',
  'Maintenance',
  'Equipment',
  'Marketing',
  'Transportation',
  'Food & Beverages',
  'Professional Services',
  'Insurance',
  'Rent',
  'Other',
] as const;
export type ExpenseCategory = (typeof EXPENSE_CATEGORIES)[number];

export const FILL_ALL_FIELDS_MESSAGE = 'Please fill in all fields';
export const UNKNOWN_CATEGORY_MESSAGE = `Category must be one of: ${EXPENSE_CATEGORIES.join(', ')}`;
export const NEGATIVE_AMOUNT_MESSAGE = 'Amount must be at least 0';
export const AMOUNT_FORMAT_MESSAGE = 'Amount must be a number in rupees with at most 2 decimals, e.g. 1500 or 1500.50';
export const AMOUNT_TOO_LARGE_MESSAGE = 'Amount cannot be more than ₹10,00,00,000.00';
export const EXPENSE_DATE_MESSAGE = 'Date must be a valid date (YYYY-MM-DD)';
export const DELETE_EXPENSE_CONFIRMATION = 'Are you sure you want to delete this expense? This action cannot be undone.';

/** The spelling the dashboard once showed ("Transport") and case slips map onto the list. */
export function normaliseCategory(input: string): ExpenseCategory | null {
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ');
  if (text === 'transport') return 'Transportation';
  if (text === 'food and beverages') return 'Food & Beverages';
  return EXPENSE_CATEGORIES.find((c) => c.toLowerCase() === text) ?? null;
}

const blank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/** Why an amount is refused, or its paise. Negative, over two decimals and non-numbers each say so. */
export function checkExpenseAmount(input: string | number): { ok: true; value: Paise } | { ok: false; message: string } {
  const reading = readAmount(input);
  if (!reading.ok) {
    if (reading.problem === 'negative') return { ok: false, message: NEGATIVE_AMOUNT_MESSAGE };
    if (reading.problem === 'format' || reading.problem === 'decimals') return { ok: false, message: AMOUNT_FORMAT_MESSAGE };
    return { ok: false, message: amountProblemMessage('Amount', reading.problem) };
  }
  if (reading.value === null) return { ok: false, message: AMOUNT_FORMAT_MESSAGE };
  if (reading.value > MAX_PAISE) return { ok: false, message: AMOUNT_TOO_LARGE_MESSAGE };
  return { ok: true, value: reading.value };
}

function isRealDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const y = Number(match[1]);
  const d = new Date(Date.UTC(y, Number(match[2]) - 1, Number(match[3])));
  return y >= 1990 && y <= 2100 && d.toISOString().slice(0, 10) === text;
}

/**
 * One schema for Add and Edit (the form and the server): every field is required ("Please fill in
 * all fields"), the category is one of the list, the amount at least 0 with at most two decimals.
 */
export const expenseSchema = z.object({
  category: z
    .string({ error: FILL_ALL_FIELDS_MESSAGE })
    .nullish()
    .transform((v, ctx): ExpenseCategory => {
      if (blank(v)) {
        ctx.addIssue({ code: 'custom', message: FILL_ALL_FIELDS_MESSAGE });
        return z.NEVER;
      }
      const category = normaliseCategory(v!);
      if (!category) {
        ctx.addIssue({ code: 'custom', message: UNKNOWN_CATEGORY_MESSAGE });
        return z.NEVER;
      }
      return category;
    }),
  description: z
    .string({ error: FILL_ALL_FIELDS_MESSAGE })
    .nullish()
    .transform((v) => (v ?? '').trim())
    .pipe(z.string().min(1, FILL_ALL_FIELDS_MESSAGE).max(500, 'Description is too long (at most 500 characters)')),
  amount: z
    .union([z.string(), z.number()], { error: FILL_ALL_FIELDS_MESSAGE })
    .nullish()
    .transform((v, ctx): Paise => {
      if (blank(v)) {
        ctx.addIssue({ code: 'custom', message: FILL_ALL_FIELDS_MESSAGE });
        return z.NEVER;
      }
      const result = checkExpenseAmount(v!);
      if (!result.ok) {
        ctx.addIssue({ code: 'custom', message: result.message });
        return z.NEVER;
      }
      return result.value;
    }),
  date: z
    .string({ error: FILL_ALL_FIELDS_MESSAGE })
    .nullish()
    .transform((v, ctx): string => {
      const text = (v ?? '').trim();
      if (!text) {
        ctx.addIssue({ code: 'custom', message: FILL_ALL_FIELDS_MESSAGE });
        return z.NEVER;
      }
      // a full ISO timestamp from a date picker is cut to its date
      const day = /^\d{4}-\d{2}-\d{2}T/.test(text) ? text.slice(0, 10) : text;
      if (!isRealDate(day)) {
        ctx.addIssue({ code: 'custom', message: EXPENSE_DATE_MESSAGE });
        return z.NEVER;
      }
      return day;
    }),
});
export type ExpenseInput = z.input<typeof expenseSchema>;
export type Expense = z.output<typeof expenseSchema>;

/**
 * Add Expense's body: the fields above and the dialog's idempotency key (ruling 5). The same key
 * again, with the same fields, answers the expense the first request added and adds nothing.
 */
export const addExpenseSchema = expenseSchema.extend({ clientId: clientIdInput });
export type AddExpenseInput = z.input<typeof addExpenseSchema>;

export const EXPENSE_KEY_REUSED_MESSAGE =
  'This expense was already saved with different details (the same clientId was used). Refresh the page to see what was saved.';
export const EXPENSE_KEY_DELETED_MESSAGE = 'This expense was saved and has since been deleted. Refresh the page to see the list.';

/** Totals per category, in list order, only those above zero (the filter chips). */
export function categoryTotals(rows: ReadonlyArray<{ category: string; amount: Paise }>): Array<{ category: ExpenseCategory; total: Paise }> {
  const sums = new Map<string, number>();
  for (const r of rows) sums.set(r.category, (sums.get(r.category) ?? 0) + r.amount);
  return EXPENSE_CATEGORIES.filter((c) => (sums.get(c) ?? 0) > 0).map((c) => ({ category: c, total: sums.get(c)! as Paise }));
}

/** "No expenses found" for All, "No Rent expenses found" for a category. */
export const emptyExpensesMessage = (category: ExpenseCategory | 'All') =>
  category === 'All' ? 'No expenses found' : `No ${category} expenses found`;
