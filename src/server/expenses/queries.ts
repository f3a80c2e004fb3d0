import { and, desc, eq, gte, isNull, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import { EXPENSE_CATEGORIES, type Expense, type ExpenseCategory } from '../../domain/expenses';
import { paise, toRupeeString, type Paise } from '../../domain/money';
import type { Db } from '../db/client';
import { expenses } from '../db/schema';
import { rowsOf } from '../lib/sql-rows';

export type ExpenseRow = typeof expenses.$inferSelect;

export const expenseDto = z.object({
  id: z.string(),
  category: z.enum(EXPENSE_CATEGORIES),
  description: z.string(),
  /** rupees, "1500.00" */
  amount: z.string(),
  /** `YYYY-MM-DD` */
  date: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ExpenseDto = z.infer<typeof expenseDto>;

export function toExpenseDto(row: ExpenseRow): ExpenseDto {
  return {
    id: row.id,
    category: row.category,
    description: row.description,
    amount: toRupeeString(paise(Number(row.amountPaise))),
    date: row.expenseDate,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export interface ExpenseFilter {
  schoolId: string;
  category?: ExpenseCategory | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const live = (f: ExpenseFilter) =>
  and(
    eq(expenses.schoolId, f.schoolId),
    isNull(expenses.deletedAt),
    f.category ? eq(expenses.category, f.category) : undefined,
    f.from ? gte(expenses.expenseDate, f.from) : undefined,
    f.to ? lte(expenses.expenseDate, f.to) : undefined,
  );

/** Newest first, then most recently entered. */
export function listExpenses(db: Db, f: ExpenseFilter): Promise<ExpenseRow[]> {
  return db.select().from(expenses).where(live(f)).orderBy(desc(expenses.expenseDate), desc(expenses.createdAt));
}

/** A live expense; `forUpdate` locks its row to the end of the transaction (an edit's "before" is then what it replaces). */
export async function findExpense(
  db: Db,
  { schoolId, id, forUpdate = false }: { schoolId: string; id: string; forUpdate?: boolean },
): Promise<ExpenseRow | undefined> {
  const query = db
    .select()
    .from(expenses)
    .where(and(eq(expenses.schoolId, schoolId), eq(expenses.id, id), isNull(expenses.deletedAt)))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

/**
 * Adds an expense; with a `clientId` (ruling 5) the key's first add wins: when a request with the same
 * key was here first (committed, or committing meanwhile, which the unique index waits for) this adds
 * nothing and answers undefined, and the caller reads what that request added (`findExpenseByClientId`).
 */
export async function createExpense(
  db: Db,
  { schoolId, userId, input, clientId, now }: { schoolId: string; userId: string | null; input: Expense; clientId: string | null; now: Date },
): Promise<ExpenseRow | undefined> {
  const [row] = await db
    .insert(expenses)
    .values({
      schoolId,
      category: input.category,
      description: input.description,
      amountPaise: input.amount,
      expenseDate: input.date,
      clientId,
      createdBy: userId,
      updatedBy: userId,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: [expenses.schoolId, expenses.clientId], where: sql`${expenses.clientId} is not null` })
    .returning();
  return row;
}

/** The expense an add with this key made, deleted or not. */
export async function findExpenseByClientId(db: Db, { schoolId, clientId }: { schoolId: string; clientId: string }): Promise<ExpenseRow | undefined> {
  const [row] = await db
    .select()
    .from(expenses)
    .where(and(eq(expenses.schoolId, schoolId), eq(expenses.clientId, clientId)))
    .limit(1);
  return row;
}

/** Whether a stored expense is what this request asks to add (a replay of the same press). */
export const addsTheSame = (row: ExpenseRow, input: Expense) =>
  row.category === input.category && row.description === input.description && Number(row.amountPaise) === input.amount && row.expenseDate === input.date;

export async function updateExpense(
  db: Db,
  { schoolId, id, userId, input, now }: { schoolId: string; id: string; userId: string | null; input: Expense; now: Date },
): Promise<ExpenseRow | undefined> {
  const [row] = await db
    .update(expenses)
    .set({ category: input.category, description: input.description, amountPaise: input.amount, expenseDate: input.date, updatedBy: userId, updatedAt: now })
    .where(and(eq(expenses.schoolId, schoolId), eq(expenses.id, id), isNull(expenses.deletedAt)))
    .returning();
  return row;
}

export async function deleteExpense(db: Db, { schoolId, id, userId, now }: { schoolId: string; id: string; userId: string | null; now: Date }): Promise<ExpenseRow | undefined> {
  const [row] = await db
    .update(expenses)
    .set({ deletedAt: now, deletedBy: userId })
    .where(and(eq(expenses.schoolId, schoolId), eq(expenses.id, id), isNull(expenses.deletedAt)))
    .returning();
  return row;
}

/** Totals per category in a date range: one grouped read. */
export async function expenseTotalsByCategory(db: Db, f: ExpenseFilter): Promise<Map<ExpenseCategory, Paise>> {
  const rows = rowsOf<{ category: ExpenseCategory; total: string }>(
    await db.execute(sql`
      select category, sum(amount_paise)::text as total from ${expenses}
      where school_id = ${f.schoolId} and deleted_at is null
        ${f.from ? sql`and expense_date >= ${f.from}::date` : sql``}
        ${f.to ? sql`and expense_date <= ${f.to}::date` : sql``}
      group by category`),
  );
  return new Map(rows.map((r) => [r.category, paise(Number(r.total))]));
}
