import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySchoolBalances } from '../balances/verify';
import { createTestApp, type TestContext } from '../test/harness';
import { schoolBeforeStart } from './test-start';

/**
 * A start is undone only while nothing has happened in the new session (issue 11). A student
 * discharged from it has a passout row and a carried balance of the new session: putting them back
 * as active in the old one would owe that year twice, once as the old session's dues and once as
 * the balance their leaving carried.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof schoolBeforeStart>>['school'];
let ids: Record<string, string>;
let nextId: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-11-23T06:00:00.000Z') });
  ({ school, ids, nextId } = await schoolBeforeStart(ctx, ['Asha Kaul', 'Divya Raina']));
});
afterAll(() => ctx.close());

describe('undoing a start after a student left the new session', () => {
  it('is refused naming the student, who stays discharged with one balance carried', async () => {
    const started = await school.api.post(`/api/academic-sessions/${nextId}/start`, {});
    expect(started.statusCode, started.body).toBe(200);
    const discharged = await school.api.post(`/api/students/${ids['Asha Kaul']}/discharge`, { reason: 'Family moved to Jammu' });
    expect(discharged.statusCode, discharged.body).toBe(200);

    const list = (await school.api.get('/api/academic-sessions')).json();
    expect(list.find((s: { id: string }) => s.id === nextId).canUndoStart).toBe(false);
    const undo = await school.api.post(`/api/academic-sessions/${nextId}/undo-start`, {});
    expect(undo.statusCode, undo.body).toBe(409);
    expect(undo.json().error).toBe('Asha Kaul was discharged after 2027-2028 started: the start can no longer be undone.');

    // Asha stays a passout; Divya stays in Class 6 of the new session; the year carried at the start is owed once each
    expect((await school.api.get(`/api/students/${ids['Asha Kaul']}`)).json()).toMatchObject({ status: 'passout' });
    expect((await school.api.get(`/api/students/${ids['Divya Raina']}`)).json()).toMatchObject({ class: 'Class 6', status: 'active' });
    const balances = (await school.api.get('/api/student-previous-balances')).json();
    expect(balances.map((b: { studentName: string; balance: string }) => [b.studentName, b.balance]).sort()).toEqual([
      ['Asha Kaul', '12000.00'],
      ['Divya Raina', '12000.00'],
    ]);
    expect((await verifySchoolBalances(ctx.database.db, school.schoolId)).differences).toEqual([]);
  });
});
