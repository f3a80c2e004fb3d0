import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aprilToMarchSession, indiaDate } from '../../domain/sessions';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

type School = Awaited<ReturnType<typeof signUpSchool>>;
type Session = { id: string; sessionName: string; academicYear: string; isActive: boolean; startDate: string; endDate: string };

describe('the default session', () => {
  it('is the April–March session containing the date in India', () => {
    expect(aprilToMarchSession('2026-11-22')).toEqual({ name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31' });
    expect(aprilToMarchSession('2027-03-31')).toEqual({ name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31' });
    expect(aprilToMarchSession('2027-04-01').name).toBe('2027-2028');
    // 31 March 20:00 UTC is already 1 April in India
    expect(indiaDate(new Date('2027-03-31T20:00:00Z'))).toBe('2027-04-01');
  });

  it('is created, active, for every new school at registration', async () => {
    const school = await signUpSchool(ctx);
    const res = await school.api.get('/api/academic-sessions');
    expect(res.json()).toEqual([
      expect.objectContaining({ sessionName: '2026-2027', academicYear: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31', isActive: true, isPromotionCompleted: false }),
    ]);
  });
});

describe('creating sessions', () => {
  let school: School;
  beforeAll(async () => {
    school = await signUpSchool(ctx);
  });

  it('checks the §5 rules with their words', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ sessionName: '', startDate: '2027-04-01', endDate: '2028-03-31' }, 'Please fill in all required fields'],
      [{ sessionName: '2027-2028', startDate: '', endDate: '2028-03-31' }, 'Please fill in all required fields'],
      [{ sessionName: '2027-2028', startDate: '2027-04-01', endDate: '' }, 'Please fill in all required fields'],
      [{ sessionName: '2027-2028', startDate: '2027-04-01', endDate: '2027-03-01' }, 'End date must be after start date.'],
      [{ sessionName: '2027-2028', startDate: '2027-04-01', endDate: '2027-04-01' }, 'End date must be after start date.'],
      [
        { sessionName: '2027-2028', startDate: '2027-04-01', endDate: '2028-02-29' },
        'Academic session must be at least 12 months long. Current duration: 11 months. Please adjust the dates.',
      ],
      [
        { sessionName: '2027-2028', startDate: '2027-04-01', endDate: '2028-03-30' },
        'Academic session must be at least 12 months long. Current duration: 11 months. Please adjust the dates.',
      ],
      [
        { sessionName: '2027-2028', startDate: '2027-04-01', endDate: '2027-09-30' },
        'Academic session must be at least 12 months long. Current duration: 6 months. Please adjust the dates.',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await school.api.post('/api/academic-sessions', body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error).toBe(message);
    }
    expect((await school.api.get('/api/academic-sessions')).json()).toHaveLength(1);
  });

  it('creates an inactive session of exactly 12 months and keeps the active one', async () => {
    const res = await school.api.post('/api/academic-sessions', { sessionName: '2027-28', startDate: '2027-04-01', endDate: '2028-03-31', isActive: false });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ sessionName: '2027-2028', academicYear: '2027-2028', isActive: false });
    expect((await school.api.get('/api/academic-sessions/active')).json().sessionName).toBe('2026-2027');
  });

  it('refuses a duplicate name with 409', async () => {
    const res = await school.api.post('/api/academic-sessions', { sessionName: '2027-2028', startDate: '2027-04-01', endDate: '2028-03-31' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('An academic session named "2027-2028" already exists.');
  });

  it('a session name must be an academic year such as 2025-2026', async () => {
    const message = 'Session name must be an academic year such as 2025-2026 (the second year one after the first)';
    for (const sessionName of ['2025', 'Session A', '2025-2027', '2025-24', '2025-2026-2027', '2025 2026', 'x2025-2026']) {
      const res = await school.api.post('/api/academic-sessions', { sessionName, startDate: '2031-04-01', endDate: '2032-03-31' });
      expect(res.statusCode, sessionName).toBe(400);
      expect(res.json().error, sessionName).toBe(message);
    }
    expect(((await school.api.get('/api/academic-sessions')).json() as Session[]).map((s) => s.sessionName)).toEqual(['2027-2028', '2026-2027']);
  });

  it('two sessions of one school may not overlap: 409 naming the other session', async () => {
    const cases: Array<[string, string]> = [
      ['2026-10-01', '2027-09-30'], // starts inside 2026-2027
      ['2025-10-01', '2026-09-30'], // ends inside 2026-2027
      ['2026-01-01', '2028-12-31'], // covers both
      ['2027-03-31', '2028-03-30'], // one shared day
    ];
    for (const [startDate, endDate] of cases) {
      // a free name: the dates are what is refused
      const res = await school.api.post('/api/academic-sessions', { sessionName: '2040-2041', startDate, endDate });
      expect(res.statusCode, `${startDate}..${endDate}`).toBe(409);
      expect(res.json().error).toBe(
        'These dates overlap the academic session 2026-2027 (2026-04-01 to 2027-03-31). Sessions of a school may not overlap; adjust the dates.',
      );
    }
    const later = await school.api.post('/api/academic-sessions', { sessionName: '2041-2042', startDate: '2027-10-01', endDate: '2028-09-30' });
    expect(later.json().error).toBe(
      'These dates overlap the academic session 2027-2028 (2027-04-01 to 2028-03-31). Sessions of a school may not overlap; adjust the dates.',
    );
    expect(((await school.api.get('/api/academic-sessions')).json() as Session[]).map((s) => s.sessionName)).toEqual(['2027-2028', '2026-2027']);
  });

  it('creating next year\'s session never moves anyone: it cannot be made active, it is started', async () => {
    const res = await school.api.post('/api/academic-sessions', { sessionName: '2028-2029', startDate: '2028-04-01', endDate: '2029-03-31', isActive: true });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(
      '2028-2029 starts after 2026-2027: students move into it when you start it (Start 2028-2029 in Session Management), not by making it active.',
    );
    expect((await school.api.get('/api/academic-sessions')).json()).toHaveLength(2);
  });

  it('makes a new earlier session the only active one and lists newest first', async () => {
    const res = await school.api.post('/api/academic-sessions', { sessionName: '2025-2026', startDate: '2025-04-01', endDate: '2026-03-31', isActive: true });
    expect(res.statusCode).toBe(201);
    const list = (await school.api.get('/api/academic-sessions')).json() as Session[];
    expect(list.map((s) => [s.sessionName, s.isActive])).toEqual([
      ['2027-2028', false],
      ['2026-2027', false],
      ['2025-2026', true],
    ]);
    const audit = await ctx.database.db.execute(
      sql`select count(*)::int as n from audit_log where school_id = ${school.schoolId} and action = 'academic_session.create'`,
    );
    expect(audit.rows).toEqual([{ n: 2 }]);
  });

  it('activates a session so that exactly one is active', async () => {
    const list = (await school.api.get('/api/academic-sessions')).json() as Session[];
    const target = list.find((s) => s.sessionName === '2026-2027')!;
    const res = await school.api.put(`/api/academic-sessions/${target.id}/activate`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: target.id, isActive: true });
    const after = (await school.api.get('/api/academic-sessions')).json() as Session[];
    expect(after.filter((s) => s.isActive).map((s) => s.sessionName)).toEqual(['2026-2027']);
    expect((await school.api.get('/api/academic-sessions/active')).json().id).toBe(target.id);
    // activating the active one again changes nothing
    expect((await school.api.put(`/api/academic-sessions/${target.id}/activate`)).statusCode).toBe(200);
    // simultaneous activations still leave exactly one
    const answers = await Promise.all(after.map((s) => school.api.put(`/api/academic-sessions/${s.id}/activate`)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const final = (await school.api.get('/api/academic-sessions')).json() as Session[];
    expect(final.filter((s) => s.isActive)).toHaveLength(1);
  });

  it('answers 404 for unknown ids', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'x']) {
      const res = await school.api.put(`/api/academic-sessions/${id}/activate`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('Academic session not found');
    }
  });
});

describe('a school with no active session', () => {
  it('answers 404 on /active and gets the default session with its first student', async () => {
    const school = await signUpSchool(ctx, { selectedPlan: 'premium' });
    await ctx.database.db.execute(sql`delete from academic_sessions where school_id = ${school.schoolId}`);
    const none = await school.api.get('/api/academic-sessions/active');
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toBe('No active academic session');
    expect((await school.api.get('/api/students/next-roll-number/1st/A')).json()).toEqual({ nextRollNumber: 1 });
    const res = await school.api.post('/api/students', { name: 'First Pupil', class: '1st', section: 'A' });
    expect(res.statusCode).toBe(201);
    const active = (await school.api.get('/api/academic-sessions/active')).json();
    expect(active).toMatchObject({ sessionName: '2026-2027', isActive: true });
    expect(res.json().sessionId).toBe(active.id);
  });

  it('activates the session that holds today rather than adding an April–March one over it', async () => {
    const school = await signUpSchool(ctx, { selectedPlan: 'premium' });
    const db = ctx.database.db;
    // a school whose year runs June–May: its running session is not the April–March default
    await db.execute(sql`delete from academic_sessions where school_id = ${school.schoolId}`);
    await db.execute(
      sql`insert into academic_sessions (school_id, name, start_date, end_date, is_active) values (${school.schoolId}, '2026-2027', '2026-06-01', '2027-05-31', false)`,
    );
    const res = await school.api.post('/api/students', { name: 'June Pupil', class: '1st', section: 'A' });
    expect(res.statusCode).toBe(201);
    const sessions = (await school.api.get('/api/academic-sessions')).json() as Session[];
    expect(sessions.map((s) => [s.sessionName, s.startDate, s.isActive])).toEqual([['2026-2027', '2026-06-01', true]]);
  });

  it('never creates the default session over another one that overlaps it', async () => {
    const school = await signUpSchool(ctx, { selectedPlan: 'premium' });
    const db = ctx.database.db;
    // the only session is an inactive calendar-year one that ends inside the April–March default
    await db.execute(sql`delete from academic_sessions where school_id = ${school.schoolId}`);
    await db.execute(
      sql`insert into academic_sessions (school_id, name, start_date, end_date, is_active) values (${school.schoolId}, '2025-2026', '2025-11-01', '2026-10-31', false)`,
    );
    const res = await school.api.post('/api/students', { name: 'Late Pupil', class: '1st', section: 'A' });
    expect(res.statusCode).toBe(201);
    const sessions = (await school.api.get('/api/academic-sessions')).json() as Session[];
    expect(sessions.map((s) => [s.sessionName, s.isActive])).toEqual([['2025-2026', true]]);
  });
});

describe('tenancy', () => {
  it("never shows or activates one school's sessions for another", async () => {
    const a = await signUpSchool(ctx);
    const b = await signUpSchool(ctx);
    const created = (await a.api.post('/api/academic-sessions', { sessionName: '2030-2031', startDate: '2030-04-01', endDate: '2031-03-31' })).json();
    expect((await b.api.get(`/api/academic-sessions/${created.id}`)).statusCode).toBe(404);
    expect((await b.api.put(`/api/academic-sessions/${created.id}/activate`)).statusCode).toBe(404);
    expect(((await b.api.get('/api/academic-sessions')).json() as Session[]).map((s) => s.sessionName)).toEqual(['2026-2027']);
    expect((await a.api.get(`/api/academic-sessions/${created.id}`)).json().isActive).toBe(false);
    // the same name is free for another school
    expect((await b.api.post('/api/academic-sessions', { sessionName: '2030-2031', startDate: '2030-04-01', endDate: '2031-03-31' })).statusCode).toBe(201);
  });
});
