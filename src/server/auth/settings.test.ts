import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe('change password', () => {
  it('checks the rules with the settings messages', async () => {
    const school = await signUpSchool(ctx);
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ currentPassword: school.password, newPassword: 'abc12' }, 400, 'Password must be at least 10 characters long'],
      [{ currentPassword: school.password, newPassword: 'qwertyuiop' }, 400, 'This password is one of the most commonly used passwords. Please choose a less common one.'],
      [{ currentPassword: school.password, newPassword: school.password }, 400, 'New password must be different from current password'],
      [{ currentPassword: 'Wrong1234', newPassword: 'Brand-new-pass' }, 400, 'Current password is incorrect'],
    ];
    for (const [body, status, message] of cases) {
      const res = await school.api.post('/api/auth/change-password', body);
      expect(res.statusCode).toBe(status);
      expect(res.json().error).toBe(message);
    }
  });

  it('a session cannot be used to guess the password: wrong answers, even in parallel, meet the limit', async () => {
    const school = await signUpSchool(ctx);
    const guesses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => school.api.post('/api/auth/change-password', { currentPassword: `Guess-${i}-wrong`, newPassword: 'Brand-new-pass' })),
    );
    const codes = guesses.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 400)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(3);
    const limited = guesses.find((r) => r.statusCode === 429)!;
    expect(limited.json().error).toMatch(/^Too many/);
    // the right password is refused too while the wait lasts, on either route that asks for it
    const right = await school.api.post('/api/auth/change-email', { newEmail: 'other@school.test', password: school.password });
    expect(right.statusCode).toBe(429);
  });

  it('changes it, keeps this session and signs out the others', async () => {
    const school = await signUpSchool(ctx);
    const second = (await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password })).json().token;
    const res = await school.api.post('/api/auth/change-password', { currentPassword: school.password, newPassword: 'brand new pass' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Your account password has been changed securely.');
    expect((await school.api.get('/api/auth/me')).statusCode).toBe(200);
    expect((await client(ctx.app, second).get('/api/auth/me')).statusCode).toBe(401);
    expect((await client(ctx.app).post('/api/auth/login', { email: school.email, password: 'brand new pass' })).statusCode).toBe(200);
  });
});

describe('change email', () => {
  it('refuses the same address and a wrong password', async () => {
    const a = await signUpSchool(ctx);
    const same = await a.api.post('/api/auth/change-email', { newEmail: a.email.toUpperCase(), password: a.password });
    expect(same.json().error).toBe('New email must be different from current email');
    const badFormat = await a.api.post('/api/auth/change-email', { newEmail: 'nope@', password: a.password });
    expect(badFormat.json().error).toBe('Please enter a valid email address');
    const noPassword = await a.api.post('/api/auth/change-email', { newEmail: 'x@y.test', password: '' });
    expect(noPassword.json().error).toBe('Password is required to change email');
    const wrong = await a.api.post('/api/auth/change-email', { newEmail: 'new@school.test', password: 'Wrong1234' });
    expect(wrong.json().error).toBe('Password is incorrect');
  });

  it('an email change takes effect only once the link mailed to the new address is opened, and the old address is told', async () => {
    const school = await signUpSchool(ctx);
    const res = await school.api.post('/api/auth/change-email', { newEmail: 'New.Head@School.test', password: school.password });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(
      'We have sent a confirmation link to new.head@school.test. Your sign-in email changes once you open it; until then, keep using your current address.',
    );
    expect(res.json().pendingEmail).toBe('new.head@school.test');

    // nothing has changed yet: the old address still signs in, the new one does not
    expect((await school.api.get('/api/auth/me')).json().user.email).toBe(school.email);
    expect((await client(ctx.app).post('/api/auth/login', { email: 'new.head@school.test', password: school.password })).statusCode).toBe(401);
    const notice = await ctx.smtp.waitFor(school.email, /about to change/);
    expect(notice.text).toContain('new.head@school.test');
    const mail = await ctx.smtp.waitFor('new.head@school.test', /Confirm your new/);
    const link = new URL(mail.links[0]!);
    expect(`${link.origin}${link.pathname}`).toBe('http://school.test/confirm-email-change');

    const confirm = await client(ctx.app).post('/api/auth/confirm-email-change', { token: tokenOf(mail.links[0]!) });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.json()).toEqual({ message: 'Your sign-in email has been changed. Use the new address the next time you sign in.', email: 'new.head@school.test' });
    const me = (await school.api.get('/api/auth/me')).json();
    expect(me.user.email).toBe('new.head@school.test');
    expect(me.school.email).toBe('new.head@school.test');
    expect((await client(ctx.app).post('/api/auth/login', { email: 'new.head@school.test', password: school.password })).statusCode).toBe(200);
    expect((await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password })).statusCode).toBe(401);

    const again = await client(ctx.app).post('/api/auth/confirm-email-change', { token: tokenOf(mail.links[0]!) });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('This email change link is invalid or has expired. Please ask for the change again from Settings.');
    const audit = await ctx.database.db.execute(
      sql`select action, before->>'email' as before, after->>'email' as after from audit_log where entity_id = ${school.userId} order by id`,
    );
    expect(audit.rows).toEqual([
      { action: 'email.change_requested', before: school.email, after: 'new.head@school.test' },
      { action: 'email.change', before: school.email, after: 'new.head@school.test' },
    ]);
  });

  it('does not reveal that the new address belongs to another account: same answer, and that owner is told instead', async () => {
    const a = await signUpSchool(ctx);
    const b = await signUpSchool(ctx);
    const taken = await a.api.post('/api/auth/change-email', { newEmail: b.email, password: a.password });
    const free = await a.api.post('/api/auth/change-email', { newEmail: 'free@school.test', password: a.password });
    expect([taken.statusCode, free.statusCode]).toEqual([200, 200]);
    expect(taken.json().message).toBe(free.json().message.replace('free@school.test', b.email));
    await ctx.smtp.waitFor(b.email, /Someone tried to use your email/);
    expect(ctx.smtp.inbox.filter((m) => m.to.includes(b.email) && /Confirm your new/.test(m.subject))).toHaveLength(0);
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
