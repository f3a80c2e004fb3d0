import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { createSession, enrollStudents } from '../results/test-fixtures';
import { addStaff } from './staff-helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('staff accounts (ruling 32)', () => {
  it('makes the registering administrator the owner, with every permission in the session check', async () => {
    const school = await signUpSchool(ctx);
    const me = (await school.api.get('/api/auth/me')).json();
    expect(me.user.schoolRole).toBe('owner');
    expect(me.user.permissions).toContain('staff.manage');
    const list = (await school.api.get('/api/staff')).json();
    expect(list.members).toHaveLength(1);
    expect(list.members[0]).toMatchObject({ role: 'owner', isOwner: true, status: 'active' });
    expect(list).toMatchObject({ used: 1, limit: 5, planName: 'Standard' });
  });

  it('invites a clerk by mail; the link sets a password once, and the clerk signs in with the clerk role', async () => {
    const school = await signUpSchool(ctx);
    const clerk = await addStaff(ctx, school, 'clerk', 'Ravi Kumar');
    const me = (await clerk.api.get('/api/auth/me')).json();
    expect(me.user).toMatchObject({ schoolRole: 'clerk', username: 'Ravi Kumar', schoolId: school.schoolId });
    expect(me.user.permissions).toContain('fees.collect');
    expect(me.user.permissions).not.toContain('receipts.cancel');
    const again = await client(ctx.app).post('/api/staff/accept-invite', { token: clerk.inviteToken, password: 'Another-Pass-99' });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('This invitation has already been accepted. Sign in with your email and password.');
    const bogus = await client(ctx.app).post('/api/staff/accept-invite', { token: 'x'.repeat(43), password: 'Another-Pass-99' });
    expect(bogus.json().error).toBe('This invitation link is not valid. Ask the school to send a new one.');
    // a clerk manages no staff
    const refused = await clerk.api.get('/api/staff');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("Your role (Clerk) does not allow you to manage staff. Ask the school's owner or an administrator.");
  });

  it('refuses a weak password on accepting and an email that already has an account', async () => {
    const school = await signUpSchool(ctx);
    const weak = await client(ctx.app).post('/api/staff/accept-invite', { token: 'abc', password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error).toContain('at least 10 characters');
    const taken = await school.api.post('/api/staff', { email: school.email, name: 'Me Again', role: 'clerk' });
    expect(taken.statusCode).toBe(409);
    const badRole = await school.api.post('/api/staff', { email: 'x@school.test', name: 'X', role: 'owner' });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json().error).toBe('Role must be Administrator, Accountant, Clerk or Teacher');
  });

  it('deactivating ends the sessions at once and refuses sign-in; reactivating lets them back', async () => {
    const school = await signUpSchool(ctx);
    const clerk = await addStaff(ctx, school, 'clerk');
    expect((await clerk.api.get('/api/students')).statusCode).toBe(200);
    const off = await school.api.put(`/api/staff/${clerk.id}`, { active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().status).toBe('inactive');
    expect((await clerk.api.get('/api/students')).statusCode).toBe(401);
    const login = await client(ctx.app).post('/api/auth/login', { email: clerk.email, password: clerk.password });
    expect(login.statusCode).toBe(403);
    expect(login.json().error).toBe('Your account has been deactivated by the school. Ask the owner or an administrator.');
    expect((await school.api.put(`/api/staff/${clerk.id}`, { active: true })).json().status).toBe('active');
    expect((await client(ctx.app).post('/api/auth/login', { email: clerk.email, password: clerk.password })).statusCode).toBe(200);
  });

  it('never changes the owner, and an administrator cannot demote themself', async () => {
    const school = await signUpSchool(ctx);
    const admin = await addStaff(ctx, school, 'administrator');
    const demote = await admin.api.put(`/api/staff/${school.userId}`, { role: 'clerk' });
    expect(demote.statusCode).toBe(403);
    expect(demote.json().error).toContain('owner');
    expect((await admin.api.put(`/api/staff/${school.userId}`, { active: false })).statusCode).toBe(403);
    expect((await admin.api.put(`/api/staff/${admin.id}`, { role: 'clerk' })).statusCode).toBe(403);
  });

  it('changes a role with effect on the next request', async () => {
    const school = await signUpSchool(ctx);
    const clerk = await addStaff(ctx, school, 'clerk');
    expect((await clerk.api.get('/api/expenses')).statusCode).toBe(403);
    await school.api.put(`/api/staff/${clerk.id}`, { role: 'accountant' });
    expect((await clerk.api.get('/api/expenses')).statusCode).toBe(200);
  });

  it('holds to the plan user limit with the upgrade offer (Basic: 2 users)', async () => {
    const school = await signUpSchool(ctx, { selectedPlan: 'basic' });
    await addStaff(ctx, school, 'clerk');
    const third = await school.api.post('/api/staff', { email: 'third@school.test', name: 'Third', role: 'teacher' });
    expect(third.statusCode).toBe(403);
    expect(third.json()).toEqual({ error: 'Your Basic plan allows up to 2 users. Upgrade your plan to invite more staff.', upgradeRequired: true });
  });

  it("keeps a teacher's assignments, and refuses them for another role", async () => {
    const school = await signUpSchool(ctx, { selectedPlan: 'premium' });
    const teacher = await addStaff(ctx, school, 'teacher');
    const clerk = await addStaff(ctx, school, 'clerk');
    const set = await school.api.put(`/api/staff/${teacher.id}/assignments`, { assignments: [{ className: 'Class 5', section: 'A', subjects: ['Maths'] }] });
    expect(set.statusCode).toBe(200);
    expect(set.json().assignments).toEqual([{ className: 'Class 5', section: 'A', subjects: ['Maths'] }]);
    const list = (await school.api.get('/api/staff')).json();
    expect(list.members.find((m: { id: string }) => m.id === teacher.id).assignments).toHaveLength(1);
    expect((await school.api.put(`/api/staff/${clerk.id}/assignments`, { assignments: [] })).json().error).toBe('Only a teacher has class and subject assignments');
    const other = await teacher.api.get('/api/results?class=Class%206&section=A&academicSession=2025-2026');
    expect(other.statusCode).toBe(403);
    expect(other.json().error).toBe('This class and section are not assigned to you. Ask the owner or an administrator to assign them.');
    expect((await teacher.api.get('/api/results?class=Class%205&section=A&academicSession=2025-2026')).statusCode).not.toBe(403);
  });

  it('shows a subject teacher only their subjects, refuses marks for the others, and keeps whole-class marksheets from them', async () => {
    const school = await signUpSchool(ctx, { selectedPlan: 'premium' });
    const session = await createSession(ctx.database.db, { schoolId: school.schoolId, name: '2025-2026', isActive: true });
    const [kid] = await enrollStudents(ctx.database.db, { schoolId: school.schoolId, session, className: 'Class 5', section: 'A', students: [{ name: 'Aarav Sharma' }] });
    const query = 'class=Class%205&section=A&academicSession=2025-2026';
    const subjects: Array<{ name: string }> = (await school.api.get(`/api/results?${query}`)).json().subjects;
    expect(subjects.length).toBeGreaterThan(1);
    const [mine, theirs] = [subjects[0]!.name, subjects[1]!.name];
    const marks = (subject: string) => ({ studentId: kid!.id, academicSession: '2025-2026', subject, ca: '15', sa: '40' });
    expect((await school.api.post('/api/results/bulk', { class: 'Class 5', section: 'A', results: [marks(mine), marks(theirs)] })).json().saved).toBe(2);

    const teacher = await addStaff(ctx, school, 'teacher');
    await school.api.put(`/api/staff/${teacher.id}/assignments`, { assignments: [{ className: 'Class 5', section: 'A', subjects: [mine] }] });
    const seen = (await teacher.api.get(`/api/results?${query}`)).json();
    expect(seen.subjects.map((s: { name: string }) => s.name)).toEqual([mine]);
    expect(seen.results.map((r: { subject: string }) => r.subject)).toEqual([mine]);

    const refused = await teacher.api.post('/api/results/bulk', { class: 'Class 5', section: 'A', results: [{ ...marks(mine), sa: '45' }, { ...marks(theirs), sa: '10' }] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(`${theirs} is not one of your subjects in this class. Ask the owner or an administrator to assign it.`);
    // nothing of the refused save was written
    const after = (await school.api.get(`/api/results?${query}`)).json().results as Array<{ subject: string; sa: string }>;
    expect(after.find((r) => r.subject === mine)!.sa).toBe('40');
    expect(after.find((r) => r.subject === theirs)!.sa).toBe('40');
    expect((await teacher.api.post('/api/results/bulk', { class: 'Class 5', section: 'A', results: [{ ...marks(mine), sa: '45' }] })).json().saved).toBe(1);

    const sheet = await teacher.api.get(`/api/results/marksheet?${query}&rollNumber=1`);
    expect(sheet.statusCode).toBe(403);
    expect(sheet.json().error).toBe('Marksheets show every subject of the class: they are for the teachers assigned the whole class. Ask the owner or an administrator.');
    // the class teacher (every subject) gets it
    await school.api.put(`/api/staff/${teacher.id}/assignments`, { assignments: [{ className: 'Class 5', section: 'A', subjects: [] }] });
    expect((await teacher.api.get(`/api/results/marksheet?${query}&rollNumber=1`)).statusCode).toBe(200);
  });

  it("answers 404 for another school's staff member", async () => {
    const a = await signUpSchool(ctx);
    const b = await signUpSchool(ctx);
    const clerk = await addStaff(ctx, a, 'clerk');
    expect((await b.api.put(`/api/staff/${clerk.id}`, { active: false })).statusCode).toBe(404);
  });
});
