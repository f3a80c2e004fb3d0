import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('change password', () => {
  it('checks the rules with the settings messages', async () => {
    const school = await signUpSchool(ctx);
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ currentPassword: school.password, newPassword: 'abc12' }, 400, 'Password must be at least 6 characters long'],
      [{ currentPassword: school.password, newPassword: 'alllowercase1' }, 400, 'Password must contain at least one uppercase letter, one lowercase letter, and one number'],
      [{ currentPassword: school.password, newPassword: school.password }, 400, 'New password must be different from current password'],
      [{ currentPassword: 'Wrong1234', newPassword: 'Brand123' }, 400, 'Current password is incorrect'],
    ];
    for (const [body, status, message] of cases) {
      const res = await school.api.post('/api/auth/change-password', body);
      expect(res.statusCode).toBe(status);
      expect(res.json().error).toBe(message);
    }
  });

  it('changes it, keeps this session and signs out the others', async () => {
    const school = await signUpSchool(ctx);
    const second = (await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password })).json().token;
    const res = await school.api.post('/api/auth/change-password', { currentPassword: school.password, newPassword: 'Brand123' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Your account password has been changed securely.');
    expect((await school.api.get('/api/auth/me')).statusCode).toBe(200);
    expect((await client(ctx.app, second).get('/api/auth/me')).statusCode).toBe(401);
    expect((await client(ctx.app).post('/api/auth/login', { email: school.email, password: 'Brand123' })).statusCode).toBe(200);
  });
});

describe('change email', () => {
  it('refuses the same address, a wrong password and an address in use', async () => {
    const a = await signUpSchool(ctx);
    const b = await signUpSchool(ctx);
    const same = await a.api.post('/api/auth/change-email', { newEmail: a.email.toUpperCase(), password: a.password });
    expect(same.json().error).toBe('New email must be different from current email');
    const badFormat = await a.api.post('/api/auth/change-email', { newEmail: 'nope@', password: a.password });
    expect(badFormat.json().error).toBe('Please enter a valid email address');
    const noPassword = await a.api.post('/api/auth/change-email', { newEmail: 'x@y.test', password: '' });
    expect(noPassword.json().error).toBe('Password is required to change email');
    const wrong = await a.api.post('/api/auth/change-email', { newEmail: 'new@school.test', password: 'Wrong1234' });
    expect(wrong.json().error).toBe('Password is incorrect');
    const taken = await a.api.post('/api/auth/change-email', { newEmail: b.email, password: a.password });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe('This email is already registered. Please use a different email address.');
  });

  it('moves sign-in and the school contact to the new address', async () => {
    const school = await signUpSchool(ctx);
    const res = await school.api.post('/api/auth/change-email', { newEmail: 'New.Head@School.test', password: school.password });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe('new.head@school.test');
    const me = (await school.api.get('/api/auth/me')).json();
    expect(me.school.email).toBe('new.head@school.test');
    expect((await client(ctx.app).post('/api/auth/login', { email: 'new.head@school.test', password: school.password })).statusCode).toBe(200);
    expect((await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password })).statusCode).toBe(401);
  });
});

describe('school information', () => {
  it('validates with the settings messages', async () => {
    const school = await signUpSchool(ctx);
    const base = { name: 'Valley School', phone: '98765 43210', address: 'Srinagar', schoolCode: 'VS01' };
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...base, name: '' }, 'School name is required'],
      [{ ...base, name: 'AB' }, 'School name must be at least 3 characters long'],
      [{ ...base, phone: '12345' }, 'Phone number must be 10 digits'],
      [{ ...base, schoolCode: '' }, 'School code is required'],
      [{ ...base, schoolCode: 'AB' }, 'School code must be 3-10 characters long and contain only uppercase letters and numbers'],
      [{ ...base, schoolCode: 'VS-01' }, 'School code must be 3-10 characters long and contain only uppercase letters and numbers'],
    ];
    for (const [body, message] of cases) {
      const res = await school.api.put('/api/schools/update-info', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(message);
    }
  });

  it('saves the school details, uppercases the code and audits the change, for its own school only', async () => {
    const a = await signUpSchool(ctx, { schoolName: 'Alpha School' });
    const b = await signUpSchool(ctx, { schoolName: 'Beta School' });
    const res = await a.api.put('/api/schools/update-info', { name: 'Alpha Public School', phone: '9876543210', address: 'Lal Chowk, Srinagar', schoolCode: 'aps2026' });
    expect(res.statusCode).toBe(200);
    expect(res.json().school).toMatchObject({ name: 'Alpha Public School', phone: '9876543210', address: 'Lal Chowk, Srinagar', schoolCode: 'APS2026' });
    expect((await b.api.get('/api/auth/me')).json().school.name).toBe('Beta School');
    const audit = await ctx.database.db.execute(
      sql`select action, before->>'name' as before_name, after->>'name' as after_name from audit_log where school_id = ${a.schoolId}`,
    );
    expect(audit.rows).toEqual([{ action: 'school.update', before_name: 'Alpha School', after_name: 'Alpha Public School' }]);
  });
});
