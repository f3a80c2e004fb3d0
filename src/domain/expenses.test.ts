import { describe, expect, it } from 'vitest';
import { categoryTotals, checkExpenseAmount, emptyExpensesMessage, EXPENSE_CATEGORIES, expenseSchema, normaliseCategory } from './expenses';
import type { Paise } from './money';

describe('expense categories (ruling 20)', () => {
  it('is the one list of twelve, and old spellings map onto it', () => {
    expect(EXPENSE_CATEGORIES).toHaveLength(12);
    expect(normaliseCategory(' rent ')).toBe('Rent');
    expect(normaliseCategory('Transport')).toBe('Transportation');
    expect(normaliseCategory('food and beverages')).toBe('Food & Beverages');
    expect(normaliseCategory('Bribes')).toBeNull();
  });
});

describe('expense amounts', () => {
  it('takes rupees with up to two decimals as whole paise, without floats', () => {
    expect(checkExpenseAmount('1500')).toEqual({ ok: true, value: 150000 });
    expect(checkExpenseAmount(1500.5)).toEqual({ ok: true, value: 150050 });
    expect(checkExpenseAmount('1,00,000.05')).toEqual({ ok: true, value: 10000005 });
    expect(checkExpenseAmount('0')).toEqual({ ok: true, value: 0 });
  });
  it('refuses negatives, three decimals and words with their own message', () => {
    expect(checkExpenseAmount('-1')).toEqual({ ok: false, message: 'Amount must be at least 0' });
    expect(checkExpenseAmount(1.005)).toEqual({ ok: false, message: 'Amount must be a number in rupees with at most 2 decimals, e.g. 1500 or 1500.50' });
    expect(checkExpenseAmount('ten')).toMatchObject({ ok: false });
    expect(checkExpenseAmount(Number.NaN)).toMatchObject({ ok: false });
  });
});

describe('expenseSchema', () => {
  const valid = { category: 'Utilities', description: ' Electricity ', amount: '4150.75', date: '2026-11-10' };
  it('parses a whole expense', () => {
    expect(expenseSchema.parse(valid)).toEqual({ category: 'Utilities', description: 'Electricity', amount: 415075, date: '2026-11-10' });
    expect(expenseSchema.parse({ ...valid, date: '2026-11-10T18:30:00.000Z' }).date).toBe('2026-11-10');
  });
  it('says "Please fill in all fields" for anything missing', () => {
    for (const key of ['category', 'description', 'amount', 'date'] as const) {
      const result = expenseSchema.safeParse({ ...valid, [key]: '' });
      expect(result.success).toBe(false);
      expect(result.error!.issues[0]!.message).toBe('Please fill in all fields');
    }
  });
  it('refuses impossible dates', () => {
    expect(expenseSchema.safeParse({ ...valid, date: '2026-02-29' }).error!.issues[0]!.message).toBe('Date must be a valid date (YYYY-MM-DD)');
  });
});

describe('category chips', () => {
  it('lists categories with a positive total, in list order', () => {
    const rows = [
      { category: 'Rent', amount: 2500000 as Paise },
      { category: 'Salaries', amount: 100 as Paise },
      { category: 'Rent', amount: 50 as Paise },
      { category: 'Other', amount: 0 as Paise },
    ];
    expect(categoryTotals(rows)).toEqual([
      { category: 'Salaries', total: 100 },
      { category: 'Rent', total: 2500050 },
    ]);
  });
  it('names the empty list', () => {
    expect(emptyExpensesMessage('All')).toBe('No expenses found');
    expect(emptyExpensesMessage('Rent')).toBe('No Rent expenses found');
  });
});
