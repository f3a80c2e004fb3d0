import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-11-22T05:30:00.000Z') });
});
afterAll(() => ctx.close());

type Checklist = { steps: Array<{ id: string; done: boolean }>; completed: number; total: number; allDone: boolean };

describe('GET /api/setup-checklist (first-run guidance)', () => {
  it('ticks each step as the school sets it up, from its own records', async () => {
    const school = await signUpSchool(ctx);
    const other = await signUpSchool(ctx);
    const db = ctx.database.db;
    const read = async (api = school.api) => {
      const res = await api.get('/api/setup-checklist');
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Checklist;
    };
    const done = (list: Checklist) => list.steps.filter((s) => s.done).map((s) => s.id);

    // registration opens the current academic session, so a new school starts with that step ticked
    const fresh = await read();
    expect(fresh).toEqual({
      steps: [
        { id: 'schoolDetails', done: false },
        { id: 'session', done: true },
        { id: 'feeStructures', done: false },
        { id: 'students', done: false },
        { id: 'firstReceipt', done: false },
      ],
      completed: 1,
      total: 5,
      allDone: false,
    });

    const saved = await school.api.put('/api/schools/update-info', { name: school.schoolName, phone: '9876543210', address: 'Lal Chowk, Srinagar', schoolCode: 'GVS01' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(done(await read())).toEqual(['schoolDetails', 'session']);

    const session = await seedSession(db, { schoolId: school.schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31' });
    await seedStructure(db, { schoolId: school.schoolId, academicYear: '2026-2027', className: 'Class 5', tuition: 1500 });
    expect(done(await read())).toEqual(['schoolDetails', 'session', 'feeStructures']);

    const student = await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Aarav Sharma', className: 'Class 5' });
    expect((await read()).completed).toBe(4);

    const receipt = await school.api.post('/api/monthly-fee-entries/bulk', {
      studentId: student.id,
      academicYear: '2026-2027',
      entries: [{ month: 'April', year: 2026, tuitionFee: '1500', tuitionDate: '2026-04-10' }],
    });
    expect(receipt.statusCode, receipt.body).toBe(201);
    expect(await read()).toMatchObject({ completed: 5, allDone: true });

    // another school's records tick nothing of its own
    expect(done(await read(other.api))).toEqual(['session']);
  });

  it('needs a school session', async () => {
    expect((await client(ctx.app).get('/api/setup-checklist')).statusCode).toBe(401);
  });
});
