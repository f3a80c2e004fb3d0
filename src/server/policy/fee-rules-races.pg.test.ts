import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../db/schema';
import type { Db } from '../db/client';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { lockWaiters, until } from '../test/races';

/**
 * Two administrators saving the same fee setting at once. Each save is held by a lock the test
 * takes on the setting's row, then both are let go: the later save merges with, and logs as its
 * "before", what the earlier one wrote. PostgreSQL only: the embedded database runs one statement
 * at a time.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-11-22T05:30:00.000Z') });
  school = await signUpSchool(ctx, { selectedPlan: 'premium' });
});
afterAll(() => ctx.close());

type Answer = { statusCode: number; body: string };

/** Sends the saves one after another while `rowLock` holds their row, and lets them go once both wait. */
async function atOnce(rowLock: (tx: Db) => Promise<unknown>, saves: Array<() => Promise<Answer>>): Promise<Answer[]> {
  const answers: Answer[] = [];
  await ctx.database.db.transaction(async (tx) => {
    await rowLock(tx);
    for (const [k, save] of saves.entries()) {
      void save().then((r) => answers.push(r));
      await until(async () => (await lockWaiters(ctx.database.db, ['transactionid', 'tuple', 'advisory'])) === k + 1);
    }
  });
  await until(() => answers.length === saves.length);
  return answers;
}

/** The audit log's before and after of each save of `action`, oldest first. */
async function trail(action: string, entityId: string) {
  const rows = await ctx.database.db
    .select({ before: auditLog.before, after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.schoolId, school.schoolId), eq(auditLog.action, action), eq(auditLog.entityId, entityId)))
    .orderBy(auditLog.id);
  return rows;
}

const feeRulesRow = (tx: Db) => tx.execute(sql`select 1 from fee_rules where school_id = ${school.schoolId} for update`);

describe('fee settings saved by two people at once', () => {
  it('keeps both renames of Tally ledgers, each logged from what the other left', async () => {
    expect((await school.api.put('/api/exports/tally/mapping', { modes: { cash: 'Cash-in-hand' } })).statusCode).toBe(200);
    const answers = await atOnce(feeRulesRow, [
      () => school.api.put('/api/exports/tally/mapping', { modes: { upi: 'HDFC Current Account' } }),
      () => school.api.put('/api/exports/tally/mapping', { heads: { tuition: 'Tuition Fees Received' } }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const mapping = (await school.api.get('/api/exports/tally/mapping')).json();
    expect(mapping.modes).toMatchObject({ cash: 'Cash-in-hand', upi: 'HDFC Current Account' });
    expect(mapping.heads.tuition).toBe('Tuition Fees Received');
    const saves = (await trail('fee_rules.tally_mapping', school.schoolId)).slice(-2);
    expect(saves[1]!.before).toEqual(saves[0]!.after);
  });

  it("logs each late-fine rule's before as the rule it replaced", async () => {
    const rule = { enabled: true, dueDay: 10, graceDays: 5, mode: 'per_day', amount: '10', capPerMonth: '100', capPerSession: null, heads: ['tuition'] };
    expect((await school.api.put('/api/fee-rules/late-fine', rule)).statusCode).toBe(200);
    const answers = await atOnce(feeRulesRow, [
      () => school.api.put('/api/fee-rules/late-fine', { ...rule, amount: '20' }),
      () => school.api.put('/api/fee-rules/late-fine', { ...rule, amount: '5' }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const saves = await trail('fee_rules.late_fine', school.schoolId);
    expect(saves).toHaveLength(3);
    expect(saves[2]!.before).toEqual(saves[1]!.after);
    expect(saves[1]!.before).toEqual(saves[0]!.after);
  });

  it("logs each class plan's before as the plan it replaced", async () => {
    expect((await school.api.put('/api/instalment-plans/Class 5', { kind: 'quarterly', dueDay: 10 })).statusCode).toBe(200);
    const planRow = (tx: Db) => tx.execute(sql`select 1 from instalment_plans where school_id = ${school.schoolId} and scope = 'Class 5' for update`);
    const answers = await atOnce(planRow, [
      () => school.api.put('/api/instalment-plans/Class 5', { kind: 'half_yearly', dueDay: 10 }),
      () => school.api.put('/api/instalment-plans/Class 5', { kind: 'monthly', dueDay: 5 }),
    ]);
    expect(answers.map((a) => a.statusCode), answers.map((a) => a.body).join()).toEqual([200, 200]);
    const saves = await trail('instalment_plan.save', 'Class 5');
    expect(saves).toHaveLength(3);
    expect(saves[2]!.before).toEqual(saves[1]!.after);
    expect((await school.api.get('/api/instalment-plans')).statusCode).toBe(200);
  });

  it("logs each save of the school's details from what the other left", async () => {
    const details = { name: school.schoolName, schoolCode: 'GVS01', phone: '9876543210', address: 'Main Road' };
    const schoolRow = (tx: Db) => tx.execute(sql`select 1 from schools where id = ${school.schoolId} for update`);
    const answers = await atOnce(schoolRow, [
      () => school.api.put('/api/schools/update-info', { ...details, address: 'Lal Chowk, Srinagar' }),
      () => school.api.put('/api/schools/update-info', { ...details, address: 'Residency Road, Srinagar' }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const saves = await trail('school.update', school.schoolId);
    expect(saves).toHaveLength(2);
    expect((saves[1]!.before as { address: string }).address).toBe((saves[0]!.after as { address: string }).address);
  });
});
