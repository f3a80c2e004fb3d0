import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';

/**
 * Issue 16 item 2: "Today's fine of a student is the same on every screen and on the payment link".
 * Fee status, the late-fine endpoint, the payment link's amount and the defaulters report give one
 * figure, from the same domain function, before and after part of it is paid at the counter.
 */

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let studentId: string;

type Doc = { tables: Array<{ title: string; rows: Array<Record<string, string>>; totals: Record<string, string> }>; summary: Array<{ label: string; value: string }> };

beforeAll(async () => {
  // 22 May 2025: April's tuition is 42 days past its due day, May's 12
  ctx = await createTestApp({ now: new Date('2025-05-22T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 5', tuition: 1500 });
  studentId = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Ishaan Mir', className: 'Class 5' })).id;
  const rule = { enabled: true, dueDay: 10, graceDays: 5, mode: 'per_day', amount: '10', capPerMonth: '100', capPerSession: null, heads: ['tuition'] };
  expect((await school.api.put('/api/fee-rules/late-fine', rule)).statusCode).toBe(200);
});
afterAll(() => ctx.close());

async function figures() {
  const status = (await school.api.get(`/api/students/${studentId}/fee-status`)).json();
  const own = (await school.api.get(`/api/students/${studentId}/late-fine`)).json();
  const report = (await school.api.get('/api/reports/pending-fees')).json() as Doc;
  const row = report.tables[0]!.rows.find((r) => r.name === 'Ishaan Mir');
  return { status, own, report, row };
}

describe("today's late fine on every screen and on the payment link", () => {
  it('is one figure on fee status, its endpoint, the links and the defaulters report', async () => {
    const { status, own, report, row } = await figures();
    expect(status.fine.due).toBe('200.00');
    expect(own.due).toBe('200.00');
    expect(row).toMatchObject({ total: status.ledger.outstandingTillDate, fine: '200.00' });
    expect(report.tables[0]!.totals.fine).toBe('200.00');
    expect(report.summary).toContainEqual(expect.objectContaining({ label: 'Late fines today', value: '200.00' }));

    const fineLink = await school.api.post('/api/payment-links', { studentId, feeType: 'fine' });
    expect(fineLink.statusCode, fineLink.body).toBe(201);
    expect(fineLink.json().amount).toBe('200.00');
    // the whole outstanding asks for the fees and today's fine together
    const all = await school.api.post('/api/payment-links', { studentId, feeType: 'outstanding' });
    expect(all.statusCode, all.body).toBe(201);
    expect(all.json().amount).toBe((Number(status.ledger.outstandingTillDate) + 200).toFixed(2));
    // never more than today's fine
    const over = await school.api.post('/api/payment-links', { studentId, feeType: 'fine', amount: '200.01' });
    expect(over.statusCode).toBe(409);
  });

  it('moves everywhere at once when part of the fine is paid at the counter', async () => {
    const paid = await school.api.post('/api/fees', { studentId, fees: [{ type: 'fine', amount: '50' }] });
    expect(paid.statusCode, paid.body).toBe(201);
    const { status, own, row } = await figures();
    expect(status.fine).toMatchObject({ paid: '50.00', due: '150.00' });
    expect(own.due).toBe('150.00');
    expect(row?.fine).toBe('150.00');
    const link = await school.api.post('/api/payment-links', { studentId, feeType: 'fine' });
    expect(link.json().amount).toBe('150.00');
  });

  it('asks nothing for a fine once the school turns the rule off', async () => {
    expect((await school.api.put('/api/fee-rules/late-fine', { enabled: false, dueDay: 10, graceDays: 5, mode: 'per_day', amount: '10', capPerMonth: null, capPerSession: null, heads: ['tuition'] })).statusCode).toBe(200);
    const { status, report } = await figures();
    expect(status.fine.due).toBe('0.00');
    expect(report.summary.map((s) => s.label)).not.toContain('Late fines today');
    expect((await school.api.post('/api/payment-links', { studentId, feeType: 'fine' })).statusCode).toBe(409);
  });
});
