import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, expenses, schools } from '../db/schema';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { sessionCache } from '../auth/session-cache';

let ctx: TestContext;
let a: Awaited<ReturnType<typeof signUpSchool>>;
let b: Awaited<ReturnType<typeof signUpSchool>>;
beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-11-22T05:30:00.000Z') });
  a = await signUpSchool(ctx);
  b = await signUpSchool(ctx);
});
afterAll(() => ctx.close());

const rent = { category: 'Rent', description: 'Building rent November', amount: '25000', date: '2026-11-05' };

describe('expenses', () => {
  it('adds an expense with the amount as a two-place rupee string and lists it newest first', async () => {
    const created = await a.api.post('/api/expenses', rent);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ category: 'Rent', description: 'Building rent November', amount: '25000.00', date: '2026-11-05' });
    const chalk = await a.api.post('/api/expenses', { category: 'Supplies', description: 'Chalk and dusters', amount: 1234.5, date: '2026-11-20' });
    expect(chalk.json().amount).toBe('1234.50');
    const list = await a.api.get('/api/expenses');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((e: { description: string }) => e.description)).toEqual(['Chalk and dusters', 'Building rent November']);
    const [row] = await ctx.database.db.select().from(expenses).where(eq(expenses.id, chalk.json().id));
    expect(row!.amountPaise).toBe(123450);
  });

  it('refuses missing fields, unknown categories, negative amounts and more than two decimals, writing nothing', async () => {
    const before = (await a.api.get('/api/expenses')).json().length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...rent, description: '  ' }, 'Please fill in all fields'],
      [{ ...rent, amount: '' }, 'Please fill in all fields'],
      [{ ...rent, date: undefined }, 'Please fill in all fields'],
      [{ ...rent, category: undefined }, 'Please fill in all fields'],
      [{ ...rent, category: 'Bribes' }, 'Category must be one of: Salaries, Utilities, Supplies, Maintenance, Equipment, Marketing, Transportation, Food & Beverages, Professional Services, Insurance, Rent, Other'],
      [{ ...rent, amount: '-5' }, 'Amount must be at least 0'],
      [{ ...rent, amount: -0.5 }, 'Amount must be at least 0'],
      [{ ...rent, amount: '10.005' }, 'Amount must be a number in rupees with at most 2 decimals, e.g. 1500 or 1500.50'],
      [{ ...rent, amount: 'abc' }, 'Amount has letters in it; type the amount in digits, e.g. 1500 or 1,500.50'],
      [{ ...rent, amount: '100000000.01' }, 'Amount cannot be more than ₹10,00,00,000.00'],
      [{ ...rent, date: '2026-02-30' }, 'Date must be a valid date (YYYY-MM-DD)'],
    ];
    for (const [body, message] of cases) {
      const res = await a.api.post('/api/expenses', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe(message);
    }
    expect((await a.api.get('/api/expenses')).json()).toHaveLength(before);
  });

  it('accepts a zero amount and the old spelling "Transport"', async () => {
    const res = await a.api.post('/api/expenses', { category: 'transport', description: 'Free bus pass', amount: 0, date: '2026-11-21' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ category: 'Transportation', amount: '0.00' });
  });

  it('edits and deletes with the before and after in the audit log', async () => {
    const created = (await a.api.post('/api/expenses', { category: 'Utilities', description: 'Electricity', amount: '4100', date: '2026-10-31' })).json();
    const edited = await a.api.put(`/api/expenses/${created.id}`, { category: 'Utilities', description: 'Electricity October', amount: '4150.75', date: '2026-10-31' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ description: 'Electricity October', amount: '4150.75' });
    const bad = await a.api.put(`/api/expenses/${created.id}`, { category: 'Utilities', description: 'Electricity', amount: '', date: '2026-10-31' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Please fill in all fields');

    const deleted = await a.api.delete(`/api/expenses/${created.id}`);
    expect(deleted.statusCode).toBe(200);
    expect((await a.api.get(`/api/expenses/${created.id}`)).statusCode).toBe(404);
    expect((await a.api.delete(`/api/expenses/${created.id}`)).statusCode).toBe(404);
    expect((await a.api.get('/api/expenses')).json().some((e: { id: string }) => e.id === created.id)).toBe(false);

    const trail = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'expense'), eq(auditLog.entityId, created.id)))
      .orderBy(auditLog.id);
    expect(trail.map((t) => t.action)).toEqual(['expense.create', 'expense.update', 'expense.delete']);
    expect(trail[1]!.before).toMatchObject({ description: 'Electricity', amount: '4100.00' });
    expect(trail[1]!.after).toMatchObject({ description: 'Electricity October', amount: '4150.75' });
    expect(trail[2]!.before).toMatchObject({ description: 'Electricity October' });
    expect(trail[2]!.userId).toBe(a.userId);
  });

  it('adds once however often one press of Add arrives (the same clientId), at once or after a lost answer', async () => {
    const generator = { category: 'Equipment', description: 'Generator diesel', amount: '3200.50', date: '2026-11-18', clientId: 'expense-add-7f3a' };
    const before = (await a.api.get('/api/expenses')).json().length;
    const together = await Promise.all([a.api.post('/api/expenses', generator), a.api.post('/api/expenses', generator)]);
    expect(together.map((r) => r.statusCode).sort()).toEqual([200, 201]);
    const retried = await a.api.post('/api/expenses', generator);
    expect(retried.statusCode).toBe(200);
    const ids = new Set([...together, retried].map((r) => r.json().id));
    expect(ids.size).toBe(1);
    expect(retried.json()).toMatchObject({ description: 'Generator diesel', amount: '3200.50' });
    const list = (await a.api.get('/api/expenses')).json() as Array<{ description: string; amount: string }>;
    expect(list).toHaveLength(before + 1);
    expect(list.filter((e) => e.description === 'Generator diesel').map((e) => e.amount)).toEqual(['3200.50']);
    const trail = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'expense'), eq(auditLog.entityId, retried.json().id)));
    expect(trail.map((t) => t.action)).toEqual(['expense.create']);

    // the same key with other figures is not this press: refused, nothing added
    const changed = await a.api.post('/api/expenses', { ...generator, amount: '3300' });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().error).toBe('This expense was already saved with different details (the same clientId was used). Refresh the page to see what was saved.');
    // another school's key space is its own
    const other = await b.api.post('/api/expenses', generator);
    expect(other.statusCode).toBe(201);
    expect(other.json().id).not.toBe(retried.json().id);
    // after the expense is deleted, the old press does not bring it back
    expect((await a.api.delete(`/api/expenses/${retried.json().id}`)).statusCode).toBe(200);
    const afterDelete = await a.api.post('/api/expenses', generator);
    expect(afterDelete.statusCode).toBe(409);
    expect(afterDelete.json().error).toBe('This expense was saved and has since been deleted. Refresh the page to see the list.');
    expect((await a.api.get('/api/expenses')).json()).toHaveLength(before);
    // without a key, each add is its own expense (API clients that send none)
    const { clientId: _unused, ...keyless } = generator;
    expect((await a.api.post('/api/expenses', keyless)).statusCode).toBe(201);
    expect((await a.api.post('/api/expenses', keyless)).statusCode).toBe(201);
    expect((await a.api.get('/api/expenses')).json()).toHaveLength(before + 2);
    for (const e of (await a.api.get('/api/expenses')).json() as Array<{ id: string; description: string }>) {
      if (e.description === 'Generator diesel') await a.api.delete(`/api/expenses/${e.id}`);
    }
    await b.api.delete(`/api/expenses/${other.json().id}`);
  });

  it('filters by category and dates, and refuses bad filters', async () => {
    const rentOnly = (await a.api.get('/api/expenses?category=Rent')).json();
    expect(rentOnly.map((e: { category: string }) => e.category)).toEqual(['Rent']);
    const november = (await a.api.get('/api/expenses?fromDate=2026-11-01&toDate=2026-11-30')).json();
    expect(november.every((e: { date: string }) => e.date >= '2026-11-01')).toBe(true);
    expect((await a.api.get('/api/expenses?category=Nope')).statusCode).toBe(400);
    expect((await a.api.get('/api/expenses?fromDate=2026-13-01')).json().error).toBe('fromDate must be a date written as YYYY-MM-DD');
  });

  it("keeps each school's expenses to itself: another school's expense is 404", async () => {
    const mine = (await a.api.post('/api/expenses', { category: 'Other', description: 'A only', amount: '10', date: '2026-11-01' })).json();
    expect((await b.api.get('/api/expenses')).json()).toEqual([]);
    expect((await b.api.get(`/api/expenses/${mine.id}`)).statusCode).toBe(404);
    expect((await b.api.put(`/api/expenses/${mine.id}`, { ...rent })).statusCode).toBe(404);
    expect((await b.api.delete(`/api/expenses/${mine.id}`)).statusCode).toBe(404);
    expect((await a.api.get(`/api/expenses/${mine.id}`)).json().description).toBe('A only');
    expect((await b.api.get('/api/expenses/not-a-uuid')).statusCode).toBe(404);
  });

  it('lets a school whose trial has ended read its expenses but not change them (402)', async () => {
    const late = await signUpSchool(ctx);
    const spent = (await late.api.post('/api/expenses', { ...rent, description: 'Before expiry' })).json();
    await ctx.database.db.update(schools).set({ trialEndsAt: new Date('2026-11-01T00:00:00.000Z') }).where(eq(schools.id, late.schoolId));
    // written behind the app's back: the remembered session check would see it within seconds
    sessionCache.forgetSchool(late.schoolId);
    expect((await late.api.get('/api/expenses')).json()).toHaveLength(1);
    for (const res of [
      await late.api.post('/api/expenses', rent),
      await late.api.put(`/api/expenses/${spent.id}`, rent),
      await late.api.delete(`/api/expenses/${spent.id}`),
    ]) {
      expect(res.statusCode).toBe(402);
      expect(res.json().requiresPayment).toBe(true);
    }
    expect((await late.api.get(`/api/expenses/${spent.id}`)).json().description).toBe('Before expiry');
  });

  it('needs a session', async () => {
    expect((await client(ctx.app).get('/api/expenses')).statusCode).toBe(401);
    expect((await client(ctx.app).post('/api/expenses', rent)).statusCode).toBe(401);
  });
});
