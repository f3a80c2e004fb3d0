import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import { addStaff } from '../staff/staff-helpers';

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;
let studentId: string;

const RULE = { enabled: true, dueDay: 10, graceDays: 5, mode: 'per_day', amount: '10', capPerMonth: '100', capPerSession: null, heads: ['tuition'] };

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-05-22T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  other = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 5', tuition: 1500 });
  studentId = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Ishaan Mir', className: 'Class 5' })).id;
});
afterAll(() => ctx.close());

describe('late fines', () => {
  it('is off until the school sets a rule, and refuses a rule without an amount', async () => {
    expect((await school.api.get('/api/fee-rules/late-fine')).json()).toMatchObject({ enabled: false, dueDay: 10 });
    expect((await school.api.get(`/api/students/${studentId}/fee-status`)).json().fine).toMatchObject({ enabled: false, due: '0.00', explanation: 'No late fine.' });
    const bad = await school.api.put('/api/fee-rules/late-fine', { ...RULE, amount: '0' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('Enter the fine amount');
    const ok = await school.api.put('/api/fee-rules/late-fine', RULE);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ enabled: true, amount: '10.00', capPerMonth: '100.00', capPerSession: null });
    expect((await other.api.get('/api/fee-rules/late-fine')).json().enabled).toBe(false);
  });

  it('accrues past the grace days, capped per month, with how it was reached, on fee status', async () => {
    const fine = (await school.api.get(`/api/students/${studentId}/fee-status`)).json().fine;
    expect(fine).toMatchObject({ enabled: true, asOf: '2025-05-22', accrued: '200.00', waived: '0.00', paid: '0.00', due: '200.00' });
    expect(fine.lines.map((l: { explanation: string }) => l.explanation)).toEqual([
      'Apr 2025: 42 days × ₹10.00 = ₹420.00, capped at ₹100.00',
      'May 2025: 12 days × ₹10.00 = ₹120.00, capped at ₹100.00',
    ]);
    // the same figure on its own endpoint, and none yet within the grace days
    expect((await school.api.get(`/api/students/${studentId}/late-fine?asOf=2025-04-15`)).json()).toMatchObject({ due: '0.00' });
  });

  it('waives one month once, after approval', async () => {
    const req = await school.api.post('/api/fine-waivers', { studentId, academicYear: '2025-2026', instalment: '2025-04', reason: 'Parent was in hospital' });
    expect(req.statusCode).toBe(201);
    expect(req.json()).toMatchObject({ status: 'requested', instalment: '2025-04' });
    expect((await school.api.get(`/api/students/${studentId}/fee-status`)).json().fine.due).toBe('200.00');
    expect((await other.api.post(`/api/fine-waivers/${req.json().id}/approve`, {})).statusCode).toBe(404);
    const ok = await school.api.post(`/api/fine-waivers/${req.json().id}/approve`, {});
    expect(ok.json()).toMatchObject({ status: 'approved', statusLabel: 'Waived', amount: '100.00' });
    const fine = (await school.api.get(`/api/students/${studentId}/fee-status`)).json().fine;
    expect(fine).toMatchObject({ accrued: '200.00', waived: '100.00', due: '100.00' });
    const again = await school.api.post('/api/fine-waivers', { studentId, academicYear: '2025-2026', instalment: '2025-04', reason: 'again' });
    expect(again.statusCode).toBe(409);
  });

  it('collects the fine as a ledger line of head fine, never more than is due', async () => {
    const over = await school.api.post('/api/fees', { studentId, fees: [{ type: 'fine', amount: '150' }] });
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toContain('Late Fine: only ₹100.00 is due today');
    const paid = await school.api.post('/api/fees', { studentId, fees: [{ type: 'fine', amount: '100' }, { type: 'monthly', amount: '3000' }] });
    expect(paid.statusCode, paid.body).toBe(201);
    const status = (await school.api.get(`/api/students/${studentId}/fee-status`)).json();
    expect(status.account.finePaid).toBe('100.00');
    // April and May were paid on the 22nd: their fines stay as reached, and nothing more is owed
    expect(status.fine).toMatchObject({ accrued: '200.00', waived: '100.00', paid: '100.00', due: '0.00' });
  });
});

describe('the fine-waiver list', () => {
  it('filters on the server by status, who asked, student and session, and refuses a filter of the wrong form', async () => {
    const clerk = await addStaff(ctx, school, 'clerk', 'Ravi Kumar');
    const asked = await clerk.api.post('/api/fine-waivers', { studentId, academicYear: '2025-2026', instalment: '2025-05', reason: 'Bus broke down that week' });
    expect(asked.statusCode, asked.body).toBe(201);
    const owner = (await school.api.get('/api/auth/me')).json().user;
    const list = async (query: string) => {
      const res = await school.api.get(`/api/fine-waivers?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      // the test clock stands still: both were asked for at the same instant, so compare as sets
      return (res.json() as Array<{ instalment: string; status: string; requestedBy: string | null; academicYear: string }>).map((w) => `${w.instalment} ${w.status} by ${w.requestedBy}`).sort();
    };
    expect(await list('')).toEqual([`2025-04 approved by ${owner.username}`, '2025-05 requested by Ravi Kumar']);
    expect(await list('status=requested')).toEqual(['2025-05 requested by Ravi Kumar']);
    expect(await list('status=approved')).toEqual([`2025-04 approved by ${owner.username}`]);
    expect(await list('status=rejected')).toEqual([]);
    expect(await list(`requestedBy=${clerk.id}`)).toEqual(['2025-05 requested by Ravi Kumar']);
    expect(await list(`requestedBy=${owner.id}&status=requested`)).toEqual([]);
    expect(await list(`studentId=${studentId}&academicYear=2025-26`)).toHaveLength(2);
    expect(await list('studentId=00000000-0000-4000-8000-000000000000')).toEqual([]);
    expect(await list('academicYear=2030-2031')).toEqual([]);
    // the other school's list is its own
    expect((await other.api.get(`/api/fine-waivers?studentId=${studentId}`)).json()).toEqual([]);

    for (const [query, message] of [
      ['status=done', 'status must be requested, approved or rejected'],
      ['requestedBy=ravi', 'requestedBy must be an id from the app (a UUID)'],
      ['studentId=12', 'studentId must be an id from the app (a UUID)'],
      ['academicYear=soon', 'academicYear must be a session such as 2025-2026'],
    ]) {
      const bad = await school.api.get(`/api/fine-waivers?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().error, query).toContain(message);
    }
  });
});
