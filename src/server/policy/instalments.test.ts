import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRupees } from '../../domain/money';
import { verifySchoolBalances } from '../balances/verify';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import { addStaff } from '../staff/staff-helpers';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';

/**
 * Instalment plans (issue 16 item 3, decision 0048). The clock stands in May 2025, the second month
 * of the 2025-2026 session: under a quarterly plan April–June have fallen due, July has not.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;
let quarterly: string; // Class 5: ₹1,500 tuition, ₹10,500 of yearly heads
let monthly: string; // Class 6: ₹1,000 tuition, stays monthly
let termly: string; // Class 7: ₹1,000 tuition, ₹1,000.01 admission fee, two terms 60/40

const TERMS = {
  kind: 'custom',
  custom: [
    { label: 'Term 1', dueDate: '2025-04-15', months: ['2025-04', '2025-05', '2025-06', '2025-07', '2025-08', '2025-09'], yearlyPercent: 60 },
    { label: 'Term 2', dueDate: '2025-10-15', months: ['2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03'], yearlyPercent: 40 },
  ],
};

const status = async (id: string) => (await school.api.get(`/api/students/${id}/fee-status`)).json();
const defaulters = async () =>
  Object.fromEntries(((await school.api.get('/api/reminders/defaulters')).json().students as Array<{ id: string; outstanding: string }>).map((s) => [s.id, s.outstanding]));

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-05-22T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  other = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedSession(db, { schoolId: other.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 6', tuition: 1000 });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 7', tuition: 1000, yearly: 1000.01 });
  quarterly = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Asha Rao', className: 'Class 5' })).id;
  monthly = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Bilal Khan', className: 'Class 6' })).id;
  termly = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Chitra Das', className: 'Class 7' })).id;
});
afterAll(() => ctx.close());

describe('instalment plans', () => {
  it('collects monthly until a plan is saved', async () => {
    expect((await school.api.get('/api/instalment-plans')).json()).toEqual({ plans: [{ scope: 'default', kind: 'monthly', dueDay: 10, custom: [] }] });
    expect((await status(quarterly)).account.tillDate.monthlyOutstanding).toBe('3000.00');
  });

  it('a quarterly class owes the whole quarter in its second month, not the next quarter; the other classes stay monthly', async () => {
    const saved = await school.api.put('/api/instalment-plans/Class 5', { kind: 'quarterly', dueDay: 10 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ scope: 'Class 5', kind: 'quarterly', dueDay: 10, custom: [] });
    expect((await school.api.get('/api/instalment-plans')).json().plans.map((p: { scope: string; kind: string }) => `${p.scope}:${p.kind}`)).toEqual([
      'default:monthly',
      'Class 5:quarterly',
    ]);

    const till = (await status(quarterly)).account.tillDate;
    expect(till).toMatchObject({ monthlyOutstanding: '4500.00', yearlyOutstanding: '10500.00', outstanding: '15000.00' });
    const owed = (await school.api.get(`/api/students/${quarterly}/outstanding-fees`)).json();
    expect(owed).toMatchObject({ monthlyFees: '4500.00', yearlyFees: '10500.00', total: '15000.00' });
    expect((await status(monthly)).account.tillDate.monthlyOutstanding).toBe('2000.00');
    // the running balances (defaulters, reminders, reports) agree with fee status to the paisa
    expect(await defaulters()).toMatchObject({ [quarterly]: '15000.00', [monthly]: '2000.00' });

    const inst = (await school.api.get(`/api/students/${quarterly}/instalments`)).json();
    expect(inst.plan).toBe('quarterly');
    expect(inst.instalments.map((i: { key: string; label: string; dueDate: string; total: string; outstanding: string; fallenDue: boolean }) => [i.key, i.label, i.dueDate, i.total, i.outstanding, i.fallenDue])).toEqual([
      ['Q1', 'Quarter 1 (April 2025 – June 2025)', '2025-04-10', '15000.00', '15000.00', true],
      ['Q2', 'Quarter 2 (July 2025 – September 2025)', '2025-07-10', '4500.00', '4500.00', false],
      ['Q3', 'Quarter 3 (October 2025 – December 2025)', '2025-10-10', '4500.00', '4500.00', false],
      ['Q4', 'Quarter 4 (January 2026 – March 2026)', '2026-01-10', '4500.00', '4500.00', false],
    ]);
  });

  it('a payment shows against its instalment', async () => {
    const paid = await school.api.post('/api/fees', { studentId: quarterly, fees: [{ type: 'monthly', amount: '3000' }] });
    expect(paid.statusCode, paid.body).toBe(201);
    const [q1] = (await school.api.get(`/api/students/${quarterly}/instalments`)).json().instalments;
    expect(q1).toMatchObject({ total: '15000.00', paid: '3000.00', outstanding: '12000.00' });
    expect((await status(quarterly)).account.tillDate.outstanding).toBe('12000.00');
    expect((await defaulters())[quarterly]).toBe('12000.00');
    // a reminder asks for what has fallen due under the plan: the rest of the quarter and the yearly heads
    const preview = await school.api.post('/api/reminders/preview', { studentId: quarterly });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().amount).toBe('12000.00');
  });

  it('a custom plan splits the yearly heads 60/40, the last part taking the rounding paisa', async () => {
    const saved = await school.api.put('/api/instalment-plans/class 7', TERMS);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ scope: 'Class 7', kind: 'custom', custom: [{ label: 'Term 1', yearlyPercent: 60 }, { label: 'Term 2', yearlyPercent: 40 }] });
    const inst = (await school.api.get(`/api/students/${termly}/instalments`)).json();
    expect(inst.instalments.map((i: { key: string; yearly: { admission: string }; tuition: string; total: string }) => [i.key, i.tuition, i.yearly.admission, i.total])).toEqual([
      ['I1', '6000.00', '600.00', '6600.00'],
      ['I2', '6000.00', '400.01', '6400.01'],
    ]);
    // in May only Term 1 has fallen due: six months' tuition and 60% of the admission fee
    expect((await status(termly)).account.tillDate).toMatchObject({ monthlyOutstanding: '6000.00', yearlyOutstanding: '600.00', outstanding: '6600.00' });
    expect((await status(termly)).account.annual.outstanding).toBe('13000.01');
    expect((await defaulters())[termly]).toBe('6600.00');
    // the class-wise report counts the same part of the yearly heads as due: every row reconciles
    const table = (await school.api.get('/api/reports/class-wise')).json().tables[0];
    const P = (x: string) => parseRupees(x)!;
    for (const r of [...table.rows, table.totals]) expect(P(r.due) - P(r.concession) - P(r.received)).toBe(P(r.outstanding));
    const class7 = table.rows.find((r: Record<string, string>) => Object.values(r).includes('Class 7'));
    expect(class7).toMatchObject({ due: '6600.00', outstanding: '6600.00' });
  });

  it('refuses plans that do not add up, and classes that do not exist', async () => {
    const shares = await school.api.put('/api/instalment-plans/Class 7', { ...TERMS, custom: [{ ...TERMS.custom[0], yearlyPercent: 50 }, TERMS.custom[1]] });
    expect(shares.statusCode).toBe(400);
    expect(shares.json().error).toContain('The yearly fee shares of the instalments must add up to 100%');
    const missing = await school.api.put('/api/instalment-plans/Class 7', { ...TERMS, custom: [TERMS.custom[0], { ...TERMS.custom[1], months: TERMS.custom[1]!.months.slice(0, 5) }] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('No instalment collects March 2026');
    const twice = await school.api.put('/api/instalment-plans/Class 7', { ...TERMS, custom: [TERMS.custom[0], { ...TERMS.custom[1], months: [...TERMS.custom[1]!.months, '2025-09'] }] });
    expect(twice.json().error).toBe('September 2025 is in two instalments');
    const backwards = await school.api.put('/api/instalment-plans/Class 7', { ...TERMS, custom: [{ ...TERMS.custom[0], dueDate: '2025-11-01' }, TERMS.custom[1]] });
    expect(backwards.json().error).toBe('October 2025 would fall due before September 2025: instalments collect the months in order');
    const day = await school.api.put('/api/instalment-plans/default', { kind: 'quarterly', dueDay: 31 });
    expect(day.statusCode).toBe(400);
    expect(day.json().error).toContain('Due day must be between 1 and 28');
    const unknown = await school.api.put('/api/instalment-plans/Class 13', { kind: 'quarterly' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toContain('There is no class called "Class 13"');
    // nothing half-written: Class 7 keeps its terms
    expect((await school.api.get('/api/instalment-plans')).json().plans.find((p: { scope: string }) => p.scope === 'Class 7').custom).toHaveLength(2);
  });

  it("runs a late fine from the quarter's due date, one instalment for the quarter", async () => {
    const rule = { enabled: true, dueDay: 10, graceDays: 5, mode: 'per_day', amount: '10', capPerMonth: '500', capPerSession: null, heads: ['tuition'] };
    expect((await school.api.put('/api/fee-rules/late-fine', rule)).statusCode).toBe(200);
    const fine = (await status(quarterly)).fine;
    // Q1 fell due on 10 April; ₹3,000 paid today leaves June's ₹1,500 of it unpaid, so the fine still runs
    expect(fine.lines.map((l: { instalment: string; explanation: string }) => l.explanation)).toEqual([
      'Quarter 1 (April 2025 – June 2025): 42 days × ₹10.00 = ₹420.00',
    ]);
    expect(fine.due).toBe('420.00');
    expect(fine.lines[0]).toMatchObject({ instalment: 'Q1', dueDate: '2025-04-10' });
    // a waiver names the quarter
    const asked = await school.api.post('/api/fine-waivers', { studentId: quarterly, academicYear: '2025-2026', instalment: 'Q1', reason: 'Parent was travelling' });
    expect(asked.statusCode, asked.body).toBe(201);
    expect((await school.api.post(`/api/fine-waivers/${asked.json().id}/approve`, {})).json()).toMatchObject({ status: 'approved', amount: '420.00' });
    expect((await status(quarterly)).fine).toMatchObject({ waived: '420.00', due: '0.00' });
    // the monthly class keeps one fine per month
    expect((await status(monthly)).fine.lines).toHaveLength(2);
  });

  it('keeps the running balances equal to the ledger', async () => {
    expect((await verifySchoolBalances(ctx.database.db, school.schoolId)).differences).toEqual([]);
  });

  it('is per school: another school neither sees nor changes these plans', async () => {
    expect((await other.api.get('/api/instalment-plans')).json().plans).toEqual([{ scope: 'default', kind: 'monthly', dueDay: 10, custom: [] }]);
    expect((await other.api.get(`/api/students/${quarterly}/instalments`)).statusCode).toBe(404);
    expect((await other.api.put('/api/instalment-plans/Class 5', { kind: 'half_yearly' })).statusCode).toBe(200);
    expect((await other.api.delete('/api/instalment-plans/Class 7')).statusCode).toBe(404);
    expect((await school.api.get('/api/instalment-plans')).json().plans.map((p: { scope: string; kind: string }) => `${p.scope}:${p.kind}`)).toEqual([
      'default:monthly',
      'Class 5:quarterly',
      'Class 7:custom',
    ]);
  });

  it('lets a clerk read plans but not change them; a teacher sees no fees', async () => {
    const clerk = await addStaff(ctx, school, 'clerk');
    expect((await clerk.api.get('/api/instalment-plans')).statusCode).toBe(200);
    expect((await clerk.api.get(`/api/students/${quarterly}/instalments`)).statusCode).toBe(200);
    expect((await clerk.api.put('/api/instalment-plans/Class 5', { kind: 'monthly' })).statusCode).toBe(403);
    expect((await clerk.api.delete('/api/instalment-plans/Class 5')).statusCode).toBe(403);
    const teacher = await addStaff(ctx, school, 'teacher');
    expect((await teacher.api.get('/api/instalment-plans')).statusCode).toBe(403);
  });

  it("removing a class's plan brings it back to the school's default", async () => {
    const removed = await school.api.delete('/api/instalment-plans/Class 5');
    expect(removed.statusCode).toBe(204);
    expect((await status(quarterly)).account.tillDate.monthlyOutstanding).toBe('0.00');
    expect((await school.api.get(`/api/students/${quarterly}/instalments`)).json().plan).toBe('monthly');
    // a half-yearly default now covers Class 5 and Class 6, not Class 7 (its own terms)
    expect((await school.api.put('/api/instalment-plans/default', { kind: 'half_yearly', dueDay: 5 })).statusCode).toBe(200);
    expect((await status(monthly)).account.tillDate.monthlyOutstanding).toBe('6000.00');
    expect((await status(termly)).account.tillDate.outstanding).toBe('6600.00');
    expect(await defaulters()).toMatchObject({ [monthly]: '6000.00', [termly]: '6600.00' });
    expect((await verifySchoolBalances(ctx.database.db, school.schoolId)).differences).toEqual([]);
  });
});
