import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRupees } from '../../domain/money';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';

/**
 * Issue 16: "Fee status, receipts, outstanding, defaulters, promotion and reports show it". The
 * Monthly and Yearly reports read the per-month figures and counted an approved concession only
 * once a month was paid (as the shortfall of what was received): an unpaid month showed its whole
 * due outstanding, twice what fee status said for a 50% concession.
 */

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let studentId: string;
const YEAR = '2025-2026';
const summary = (body: { summary: Array<{ label: string; value: string }> }, label: string) => body.summary.find((s) => s.label === label)?.value;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  studentId = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Ishaan Mir', className: 'Class 5', busFee: 600 })).id;
  const half = (await school.api.post('/api/concession-types', { name: 'Half fee', kind: 'percent', value: '50', heads: ['tuition', 'bus', 'admission', 'exam', 'books', 'uniform', 'misc'] })).json();
  const asked = (await school.api.post('/api/concessions', { studentId, typeId: half.id, academicYear: YEAR, fromMonth: '2025-04', reason: 'Fee committee' })).json();
  expect((await school.api.post(`/api/concessions/${asked.id}/approve`, {})).statusCode).toBe(200);
  // October: the tuition paid at its concession rate, the bus fee not yet
  const entries = [{ month: 'October', year: 2025, tuitionFee: 750, tuitionDate: '2025-10-10' }];
  expect((await school.api.post('/api/monthly-fee-entries/bulk', { studentId, academicYear: YEAR, entries })).statusCode).toBe(201);
});
afterAll(() => ctx.close());

describe('approved concessions in the Monthly and Yearly reports', () => {
  it('the Yearly report takes them off what is outstanding, as fee status does', async () => {
    const till = (await school.api.get(`/api/students/${studentId}/fee-status`)).json().account.tillDate;
    const yearly = (await school.api.get(`/api/reports/yearly?academicYear=${YEAR}`)).json();
    expect(summary(yearly, 'Outstanding till date')).toBe(till.outstanding);
    // ₹1,500 tuition and ₹600 bus for April–November, and ₹10,500 of yearly fees, half of it granted: ₹13,650 less the ₹750 paid
    expect(till.outstanding).toBe('12900.00');
    expect(summary(yearly, 'Concession till date')).toBe(till.granted);
    const heads = yearly.tables.find((t: { title: string }) => t.title === 'Yearly fees by head');
    expect(heads.rows.at(-1)).toMatchObject({ head: 'Concessions on yearly fees', concession: '5250.00', outstanding: '-5250.00' });
    expect(heads.totals.outstanding).toBe(till.yearlyOutstanding);
  });

  it('the Monthly report shows an unpaid month at its concession rate, and a half-paid month exactly', async () => {
    const months = (await school.api.get(`/api/students/${studentId}/fee-status`)).json().account.months as Array<{ key: string; tuition: { outstanding: string }; bus: { outstanding: string } }>;
    const owed = (key: string) => {
      const m = months.find((x) => x.key === key)!;
      return (parseRupees(m.tuition.outstanding)! + parseRupees(m.bus.outstanding)!) / 100;
    };
    const november = (await school.api.get('/api/reports/monthly?month=2025-11')).json();
    expect(summary(november, 'Fees due for November 2025')).toBe('2100.00');
    expect(summary(november, 'Concession for November 2025')).toBe('1050.00');
    expect(summary(november, 'Outstanding for November 2025')).toBe('1050.00');
    expect(owed('2025-11')).toBe(1050);
    const october = (await school.api.get('/api/reports/monthly?month=2025-10')).json();
    // tuition: ₹750 received of ₹1,500; bus: ₹300 of ₹600 granted, ₹300 still owed
    expect(summary(october, 'Received for October 2025')).toBe('750.00');
    expect(summary(october, 'Concession for October 2025')).toBe('1050.00');
    expect(summary(october, 'Outstanding for October 2025')).toBe('300.00');
    expect(owed('2025-10')).toBe(300);
  });

  it('under a plan that splits the yearly fees, the Yearly report counts only the part due, as fee status does', async () => {
    const other = await signUpSchool(ctx);
    const db = ctx.database.db;
    const session = await seedSession(db, { schoolId: other.schoolId });
    await seedStructure(db, { schoolId: other.schoolId, ...CLASS5_2025 });
    const kabir = (await seedStudent(db, { schoolId: other.schoolId, sessionId: session.id, name: 'Kabir Lone', className: 'Class 5' })).id;
    const months = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => { const d = new Date(Date.UTC(2025, 3 + from + i, 1)); return d.toISOString().slice(0, 7); });
    const terms = {
      kind: 'custom',
      custom: [
        { label: 'Term 1', dueDate: '2025-04-15', months: months(0, 5), yearlyPercent: 60 },
        { label: 'Term 2', dueDate: '2025-12-15', months: months(6, 11), yearlyPercent: 40 },
      ],
    };
    expect((await other.api.put('/api/instalment-plans/Class 5', terms)).statusCode).toBe(200);
    // ₹4,000 towards the admission fee, a yearly head
    const paid = await other.api.post('/api/fees', { studentId: kabir, fees: [{ type: 'admission', amount: '4000' }], paymentMode: 'cash' });
    expect(paid.statusCode, paid.body).toBe(201);
    const till = (await other.api.get(`/api/students/${kabir}/fee-status`)).json().account.tillDate;
    const yearly = (await other.api.get(`/api/reports/yearly?academicYear=${YEAR}`)).json();
    expect(summary(yearly, 'Outstanding till date')).toBe(till.outstanding);
    expect(summary(yearly, 'Yearly fees due')).toBe(till.yearlyExpected);
    const heads = yearly.tables.find((t: { title: string }) => t.title === 'Yearly fees by head');
    expect(heads.totals.outstanding).toBe(till.yearlyOutstanding);
    // 60% of ₹10,500 is due by November (₹6,300): the ₹4,000 paid on the admission fee clears its
    // ₹3,000 part (the rest waits for Term 2), and the other heads' ₹3,300 is owed
    expect(till.yearlyOutstanding).toBe('3300.00');
    expect(heads.rows.at(-1)).toMatchObject({ head: 'Parts not yet due (instalment plans)', due: '-4200.00' });
  });
});
