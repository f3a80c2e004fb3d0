import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySchoolBalances } from '../balances/verify';
import { STUDENT_KEY_REUSED_MESSAGE } from '../../domain/students';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

type School = Awaited<ReturnType<typeof signUpSchool>>;

const student = (overrides: Record<string, unknown> = {}) => ({
  name: 'Aarav Sharma',
  class: 'Class 5',
  section: 'A',
  rollNumber: '',
  fatherName: 'Rakesh Sharma',
  motherName: 'Sunita Sharma',
  dateOfBirth: '2016-05-14',
  mobileNumber: '+919876543210',
  aadharNumber: '',
  residence: 'Rajbagh, Srinagar',
  parentName: 'Rakesh Sharma',
  parentPhone: '9876543210',
  parentEmail: 'rakesh@example.com',
  parentWhatsApp: '9876543210',
  monthlyBusFee: 500,
  ...overrides,
});

async function add(school: School, overrides: Record<string, unknown> = {}) {
  const res = await school.api.post('/api/students', student(overrides));
  if (res.statusCode !== 201) throw new Error(`add failed: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string; rollNumber: number; class: string; section: string; aadharNumber: string | null };
}

const editBody = (s: Record<string, unknown>, overrides: Record<string, unknown> = {}) => ({
  ...s,
  rollNumber: String(s.rollNumber),
  monthlyBusFee: Number(s.monthlyBusFee),
  ...overrides,
});

describe('Add New Student', () => {
  let school: School;
  beforeAll(async () => {
    school = await signUpSchool(ctx, { selectedPlan: 'premium' });
  });

  it('refuses each §5 rule with its words and writes nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '  ' }, 'Student name is required'],
      [{ class: '' }, 'Class is required'],
      [{ section: '' }, 'Section is required'],
      [{ aadharNumber: '1234 5678 901' }, 'Aadhar number must be 12 digits'],
      [{ aadharNumber: '1234abcd9012' }, 'Aadhar number must be 12 digits'],
      [{ mobileNumber: '0987654321' }, 'Invalid mobile number format'],
      [{ mobileNumber: '+9' }, 'Invalid mobile number format'],
      [{ mobileNumber: '98765432101234567' }, 'Invalid mobile number format'],
      [{ parentEmail: 'rakesh@' }, 'Invalid email format'],
      [{ monthlyBusFee: -1 }, 'Bus fee must be an amount of at least 0 with at most 2 decimals'],
      [{ monthlyBusFee: '10.555' }, 'Bus fee must be an amount of at least 0 with at most 2 decimals'],
      [{ class: 'Class 13' }, 'Unknown class "Class 13"'],
      [{ section: 'G' }, 'Section must be one of A, B, C, D, E, F'],
    ];
    for (const [overrides, message] of cases) {
      const res = await school.api.post('/api/students', student(overrides));
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error).toBe(message);
    }
    expect((await school.api.get('/api/students')).json()).toEqual([]);
  });

  it('allocates roll numbers per class and section, normalises class spellings and keeps rupees exact', async () => {
    const first = await add(school, { class: '5th', section: 'b', monthlyBusFee: '450.5', rollNumber: '99' });
    expect(first).toMatchObject({ class: 'Class 5', section: 'B', rollNumber: 1, monthlyBusFee: '450.50' });
    const second = await add(school, { class: 'V', section: 'B', name: 'Zoya Khan' });
    expect(second.rollNumber).toBe(2);
    const otherSection = await add(school, { class: 'Class 5', section: 'C' });
    expect(otherSection.rollNumber).toBe(1);
    const ist = await add(school, { class: 'IST', section: 'A' });
    expect(ist).toMatchObject({ class: 'Class 1', rollNumber: 1 });
    const lkg = await add(school, { class: 'l.k.g.', section: 'A' });
    expect(lkg.class).toBe('LKG');
    const next = await school.api.get('/api/students/next-roll-number/5th/B');
    expect(next.json()).toEqual({ nextRollNumber: 3 });
    // peeking allocates nothing
    expect((await school.api.get('/api/students/next-roll-number/Class%205/B')).json()).toEqual({ nextRollNumber: 3 });
    expect((await school.api.get('/api/students/next-roll-number/Class%209/A')).json()).toEqual({ nextRollNumber: 1 });
    expect((await school.api.get('/api/students/next-roll-number/Class%2099/A')).json().error).toBe('Unknown class "Class 99"');
  });

  it('returns the full record with the fee structure of the class and session, an enrollment and an audit entry', async () => {
    await school.api.post('/api/class-fee-structures', { className: 'Class 7', academicYear: '2026-27', monthlyTuitionFee: '1500', yearlyFee: 5000 });
    const res = await school.api.post('/api/students', student({ class: 'Class 7', admissionNumber: 'ADM-700' }));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      name: 'Aarav Sharma',
      class: 'Class 7',
      section: 'A',
      rollNumber: 1,
      admissionNumber: 'ADM-700',
      fatherName: 'Rakesh Sharma',
      dateOfBirth: '2016-05-14',
      mobileNumber: '+919876543210',
      aadharNumber: null,
      monthlyBusFee: '500.00',
      enrollmentDate: '2026-04-10',
      status: 'active',
      enableSmsReminders: true,
      enableWhatsappReminders: true,
      reminderPreference: 'both',
      monthlyFee: '1500.00',
      admissionFee: '5000.00',
      schoolId: school.schoolId,
    });
    const session = (await school.api.get('/api/academic-sessions/active')).json();
    expect(session).toMatchObject({ sessionName: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31', isActive: true });
    expect(body.sessionId).toBe(session.id);
    const enrollment = await ctx.database.db.execute(
      sql`select class_name, section, roll_number, session_id from student_enrollments where student_id = ${body.id}`,
    );
    expect(enrollment.rows).toEqual([{ class_name: 'Class 7', section: 'A', roll_number: 1, session_id: session.id }]);
    const audit = await ctx.database.db.execute(sql`select action from audit_log where entity_id = ${body.id}`);
    expect(audit.rows).toEqual([{ action: 'student.create' }]);
    const noFee = await add(school, { class: 'Class 8' });
    expect(noFee).toMatchObject({ monthlyFee: '0.00', admissionFee: '0.00' });
  });

  it('refuses an admission number already used in the school with 409', async () => {
    const res = await school.api.post('/api/students', student({ admissionNumber: 'ADM-700' }));
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('Admission number ADM-700 is already used by another student in this school.');
  });

  it('gives 20 simultaneous adds in one class and section 20 distinct consecutive roll numbers', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => school.api.post('/api/students', student({ name: `Racer ${i}`, class: 'Class 10', section: 'D' }))),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(201));
    const rolls = answers.map((a) => a.json().rollNumber as number).sort((a, b) => a - b);
    expect(rolls).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});

describe('Add Student pressed twice or retried: one clientId, one student (ruling 5)', () => {
  let school: School;
  beforeAll(async () => {
    school = await signUpSchool(ctx, { selectedPlan: 'premium' });
  });
  const post = (body: Record<string, unknown>) => school.api.post('/api/students', body);
  const created = async (id: string) =>
    Number((await ctx.database.db.execute(sql`select count(*) as n from audit_log where entity_id = ${id} and action = 'student.create'`)).rows[0]!.n);

  it('answers every request with the key the one student the first added: at once, and once more after', async () => {
    const body = student({ name: 'Nida Qadri', class: 'Class 9', section: 'B', aadharNumber: '2345 6789 0123', clientId: 'add-nida-1' });
    const atOnce = await Promise.all([post(body), post(body)]);
    const again = await post(body);
    const answers = [...atOnce, again];
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 201]);
    const first = answers.find((a) => a.statusCode === 201)!.json();
    for (const a of answers) expect(a.json()).toEqual(first);
    expect(first).toMatchObject({ name: 'Nida Qadri', class: 'Class 9', section: 'B', rollNumber: 1, aadharNumber: 'XXXX XXXX 0123' });
    expect(Object.keys(first)).not.toContain('clientId');
    // the student is listed once, with the fields of their own answer; the roll number was handed out once
    expect((await school.api.get('/api/students?class=Class%209&section=B')).json()).toEqual([first]);
    expect((await school.api.get('/api/students/next-roll-number/Class%209/B')).json()).toEqual({ nextRollNumber: 2 });
    expect(await created(first.id)).toBe(1);
  });

  it('refuses the key with other details with 409 and adds nothing; after an edit too', async () => {
    const body = student({ name: 'Faizan Wani', class: 'Class 9', section: 'C', clientId: 'add-faizan-1' });
    const first = await post(body);
    expect(first.statusCode, first.body).toBe(201);
    const other = await post({ ...body, name: 'Faizan Ahmad Wani' });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({ error: STUDENT_KEY_REUSED_MESSAGE });
    expect((await post({ ...body, monthlyBusFee: 600 })).statusCode).toBe(409);
    expect((await school.api.get('/api/students?class=Class%209&section=C')).json()).toEqual([first.json()]);
    // the student changed since: the press that added them no longer asks for what is stored
    const edited = await school.api.put(`/api/students/${first.json().id}`, editBody(first.json(), { parentPhone: '9123456780' }));
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await post(body)).statusCode).toBe(409);
    expect(await created(first.json().id)).toBe(1);
  });

  it('keeps keys apart per school, and without a key two adds are two students as before', async () => {
    const other = await signUpSchool(ctx, { selectedPlan: 'premium' });
    const body = student({ name: 'Nida Qadri', class: 'Class 9', section: 'B', aadharNumber: '2345 6789 0123', clientId: 'add-nida-1' });
    const elsewhere = await other.api.post('/api/students', body);
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    expect(elsewhere.json()).toMatchObject({ schoolId: other.schoolId, rollNumber: 1 });

    const plain = student({ name: 'Twin Press', class: 'Class 9', section: 'D' });
    const answers = await Promise.all([post(plain), post(plain)]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201]);
    expect(answers.map((a) => a.json().rollNumber as number).sort()).toEqual([1, 2]);
    // only the dialog's adds carry a key; an import's students never do
    const imported = await school.api.post('/api/students/bulk-progress', { csv: 'name,class,section\nImported Pupil,Class 9,D' });
    expect(imported.statusCode).toBe(200);
    const keys = await ctx.database.db.execute(sql`select name, client_id from students where school_id = ${school.schoolId} and class_name = 'Class 9' and section = 'D' order by roll_number`);
    expect(keys.rows).toEqual([
      { name: 'Twin Press', client_id: null },
      { name: 'Twin Press', client_id: null },
      { name: 'Imported Pupil', client_id: null },
    ]);
  });
});

describe('Aadhaar numbers (ruling 24)', () => {
  let school: School;
  let id: string;
  beforeAll(async () => {
    school = await signUpSchool(ctx, { selectedPlan: 'premium' });
    id = (await add(school, { aadharNumber: '1234 5678 9012' })).id;
  });

  it('stores the number encrypted and shows it masked', async () => {
    const raw = await ctx.database.db.execute(sql`select aadhaar_encrypted, aadhaar_last4 from students where id = ${id}`);
    const row = raw.rows[0] as { aadhaar_encrypted: string; aadhaar_last4: string };
    expect(row.aadhaar_encrypted).not.toContain('123456789012');
    expect(row.aadhaar_encrypted).toMatch(/^v1\./);
    expect(row.aadhaar_last4).toBe('9012');
    const dto = (await school.api.get(`/api/students/${id}`)).json();
    expect(dto.aadharNumber).toBe('XXXX XXXX 9012');
    const list = (await school.api.get('/api/students')).body;
    expect(list).not.toContain('123456789012');
  });

  it('reveals the full number on request and audits each reveal', async () => {
    const res = await school.api.post(`/api/students/${id}/reveal-aadhaar`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ aadharNumber: '123456789012' });
    const audit = await ctx.database.db.execute(
      sql`select action, after::text as after from audit_log where entity_id = ${id} and action = 'student.aadhaar_reveal'`,
    );
    expect(audit.rows).toHaveLength(1);
    expect((audit.rows[0] as { after: string }).after).not.toContain('123456789012');
  });

  it('keeps the number when the mask is sent back, replaces it with a new one, clears it with empty text', async () => {
    const current = (await school.api.get(`/api/students/${id}`)).json();
    const kept = await school.api.put(`/api/students/${id}`, editBody(current));
    expect(kept.statusCode).toBe(200);
    expect((await school.api.post(`/api/students/${id}/reveal-aadhaar`)).json().aadharNumber).toBe('123456789012');
    const replaced = await school.api.put(`/api/students/${id}`, editBody(current, { aadharNumber: '9999 8888 7777' }));
    expect(replaced.json().aadharNumber).toBe('XXXX XXXX 7777');
    expect((await school.api.post(`/api/students/${id}/reveal-aadhaar`)).json().aadharNumber).toBe('999988887777');
    const bad = await school.api.put(`/api/students/${id}`, editBody(current, { aadharNumber: '12345' }));
    expect(bad.json().error).toBe('Aadhar number must be 12 digits');
    const cleared = await school.api.put(`/api/students/${id}`, editBody(current, { aadharNumber: '' }));
    expect(cleared.json().aadharNumber).toBeNull();
    expect((await school.api.post(`/api/students/${id}/reveal-aadhaar`)).json().aadharNumber).toBeNull();
  });
});

describe('Edit Complete Student Details', () => {
  let school: School;
  beforeAll(async () => {
    school = await signUpSchool(ctx, { selectedPlan: 'premium' });
  });

  it('requires name, class, section and roll number with one message', async () => {
    const s = await add(school);
    for (const overrides of [{ name: '' }, { class: '' }, { section: '' }, { rollNumber: '' }, { rollNumber: null }]) {
      const res = await school.api.put(`/api/students/${s.id}`, editBody(s, overrides));
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Please fill in all required fields (Name, Class, Section, Roll Number)');
    }
  });

  it('moves a student to another class, section and roll, keeps the enrollment in step and audits before and after', async () => {
    const a = await add(school, { class: 'Class 3', section: 'A', name: 'Asha' });
    const b = await add(school, { class: 'Class 3', section: 'A', name: 'Bilal' });
    const taken = await school.api.put(`/api/students/${b.id}`, editBody(b, { rollNumber: String(a.rollNumber) }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe(`Roll number ${a.rollNumber} is already taken in Class 3-A`);

    const moved = await school.api.put(`/api/students/${b.id}`, editBody(b, { class: '4th', section: 'C', rollNumber: '7', name: 'Bilal Ahmad', dateOfBirth: '2015-01-31', monthlyBusFee: 0 }));
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ name: 'Bilal Ahmad', class: 'Class 4', section: 'C', rollNumber: 7, dateOfBirth: '2015-01-31', monthlyBusFee: '0.00' });
    const enrollment = await ctx.database.db.execute(sql`select class_name, section, roll_number from student_enrollments where student_id = ${b.id}`);
    expect(enrollment.rows).toEqual([{ class_name: 'Class 4', section: 'C', roll_number: 7 }]);
    // the hand-set number is never handed out again in that group
    expect((await add(school, { class: 'Class 4', section: 'C' })).rollNumber).toBe(8);
    const audit = await ctx.database.db.execute(
      sql`select before->>'class' as before_class, after->>'class' as after_class from audit_log where entity_id = ${b.id} and action = 'student.update'`,
    );
    expect(audit.rows).toEqual([{ before_class: 'Class 3', after_class: 'Class 4' }]);
  });
});

describe('lists and lookups', () => {
  let school: School;
  beforeAll(async () => {
    school = await signUpSchool(ctx, { selectedPlan: 'premium' });
    for (const [name, cls, section] of [
      ['Kabir', 'Class 2', 'B'], ['Meera', 'Nursery', 'A'], ['Zara', 'Class 10', 'A'], ['Ishaan', 'Class 2', 'A'],
      ['Anaya', 'Class 2', 'A'], ['Vihaan', 'UKG', 'A'], ['Diya', 'Class 1', 'A'],
    ] as const) {
      await add(school, { name, class: cls, section, admissionNumber: `A-${name}` });
    }
    // roll numbers 1..11 in Class 2-A so the sort must be numeric, not text
    for (let i = 0; i < 9; i++) await add(school, { name: `Filler ${i}`, class: 'Class 2', section: 'A' });
  });

  it('orders by class order, section and numeric roll number, with the total in X-Total-Count', async () => {
    const res = await school.api.get('/api/students');
    expect(res.headers['x-total-count']).toBe('16');
    const names = (res.json() as Array<{ name: string; class: string; section: string; rollNumber: number }>).map((s) => `${s.class}-${s.section}-${s.rollNumber}`);
    expect(names.slice(0, 4)).toEqual(['Nursery-A-1', 'UKG-A-1', 'Class 1-A-1', 'Class 2-A-1']);
    expect(names.slice(3, 15)).toEqual([...Array.from({ length: 11 }, (_, i) => `Class 2-A-${i + 1}`), 'Class 2-B-1']);
    expect(names[15]).toBe('Class 10-A-1');
  });

  it('filters by class spelling and section, pages, and searches names and admission numbers', async () => {
    const page = await school.api.get('/api/students?class=2nd&section=a&limit=5&offset=5&withTotal=true');
    expect(page.headers['x-total-count']).toBe('11');
    // a full page is not counted unless asked: counting a 60,000-student school costs more than its page
    expect((await school.api.get('/api/students?class=2nd&section=a&limit=5')).headers['x-total-count']).toBeUndefined();
    const byRoll = await school.api.get('/api/students?class=Class%202&section=A&rollNumber=3');
    expect(byRoll.json().map((s: { class: string; section: string; rollNumber: number }) => `${s.class}-${s.section}-${s.rollNumber}`)).toEqual(['Class 2-A-3']);
    expect(page.json().map((s: { rollNumber: number }) => s.rollNumber)).toEqual([6, 7, 8, 9, 10]);
    const byName = await school.api.get('/api/students?q=ZAR');
    expect(byName.json().map((s: { name: string }) => s.name)).toEqual(['Zara']);
    const byAdmission = await school.api.get('/api/students?q=a-kabir');
    expect(byAdmission.json().map((s: { name: string }) => s.name)).toEqual(['Kabir']);
    const wildcard = await school.api.get('/api/students?q=%25');
    expect(wildcard.json()).toEqual([]);
    expect((await school.api.get('/api/students?limit=10001')).statusCode).toBe(400);
    expect((await school.api.get('/api/students?class=Class%2013')).json().error).toBe('Unknown class "Class 13"');
  });

  it('lists a class and section for the fee screens with only what the roll-number picker shows, in roll order', async () => {
    const res = await school.api.get('/api/students/roster?class=2nd&section=A');
    expect(res.statusCode).toBe(200);
    const roster = res.json() as Array<Record<string, unknown>>;
    expect(roster.map((s) => s.rollNumber)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    expect(roster[0]).toEqual({ id: expect.any(String), name: 'Ishaan', rollNumber: 1 });
    // the picked student's own row: where they sit, their session and fees
    const picked = await school.api.get(`/api/students/roster/${roster[0]!.id as string}`);
    expect(picked.json()).toEqual({
      id: roster[0]!.id, name: 'Ishaan', class: 'Class 2', section: 'A', rollNumber: 1, admissionNumber: 'A-Ishaan', fatherName: expect.any(String),
      status: 'active', sessionId: expect.any(String), monthlyBusFee: '500.00', monthlyFee: '0.00', admissionFee: '0.00',
    });
    expect(Object.keys(picked.json())).not.toContain('aadharNumber');
    expect((await school.api.get('/api/students/roster/not-an-id')).json()).toEqual({ error: 'Student not found' });
    expect((await school.api.get(`/api/students/roster/${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect((await school.api.get('/api/students/roster?class=Class%2013&section=A')).json().error).toBe('Unknown class "Class 13"');
    expect((await school.api.get('/api/students/roster?section=A')).statusCode).toBe(400);
  });

  it('a listed student, a looked-up one and a roster row carry the same fields as the student\'s own answer', async () => {
    const other = await signUpSchool(ctx, { selectedPlan: 'premium' });
    await other.api.post('/api/class-fee-structures', { className: 'Class 7', academicYear: '2026-27', monthlyTuitionFee: '1500.50', yearlyFee: 5000 });
    const added = await add(other, { name: 'Tara Bhat', class: 'Class 7', section: 'C', admissionNumber: 'T-77', aadharNumber: '234567890124', monthlyBusFee: '650.25' });
    const own = (await other.api.get(`/api/students/${added.id}`)).json();
    expect(own).toMatchObject({ monthlyFee: '1500.50', admissionFee: '5000.00', monthlyBusFee: '650.25', aadharNumber: 'XXXX XXXX 0124', dateOfBirth: '2016-05-14' });
    const listed = (await other.api.get('/api/students')).json();
    expect(listed).toEqual([own]);
    // PostgreSQL writes the list's JSON itself too (listStudents): the schema's fields in the schema's order
    expect(Object.keys(listed[0])).toEqual(Object.keys(own));
    expect((await other.api.get('/api/students?q=t-77')).json()).toEqual([own]);
    expect((await other.api.get('/api/students?q=bhat&academicYear=2026-27')).json()).toEqual([own]);
    const roster = (await other.api.get('/api/students/roster?class=7th&section=C')).json();
    // PostgreSQL writes the roster's JSON and the picked student's itself (rosterJson, rosterStudentJson):
    // the schemas' fields in the schemas' order, with the student's own values
    const listedFields = ['id', 'name', 'rollNumber'];
    expect(roster).toEqual([Object.fromEntries(listedFields.map((k) => [k, own[k]]))]);
    expect(Object.keys(roster[0])).toEqual(listedFields);
    const pickedFields = ['id', 'name', 'class', 'section', 'rollNumber', 'admissionNumber', 'fatherName', 'status', 'sessionId', 'monthlyBusFee', 'monthlyFee', 'admissionFee'];
    const picked = (await other.api.get(`/api/students/roster/${added.id}`)).json();
    expect(picked).toEqual(Object.fromEntries(pickedFields.map((k) => [k, own[k]])));
    expect(Object.keys(picked)).toEqual(pickedFields);
    expect((await other.api.get(`/api/students/roster/${added.id}?academicYear=2026-2027`)).json()).toEqual(picked);
    const empty = await other.api.get('/api/students/roster?class=7th&section=D');
    expect(empty.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(empty.json()).toEqual([]);
    expect((await other.api.get('/api/students/roster?class=7th&section=C&academicYear=2026-2027')).json()).toEqual(roster);
    const plain = await add(other, { name: 'Anil Bhat', class: 'Class 7', section: 'C' });
    const plainOwn = (await other.api.get(`/api/students/${plain.id}`)).json();
    expect(plainOwn).toMatchObject({ aadharNumber: null, admissionNumber: null });
    const both = await other.api.get('/api/students?class=Class%207&section=C');
    expect(both.json()).toEqual([own, plainOwn]);
    expect(both.headers['x-total-count']).toBe('2');
    const none = await other.api.get('/api/students?class=Class%207&section=D');
    expect(none.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(none.json()).toEqual([]);
    expect(none.headers['x-total-count']).toBe('0');
    // a creation time between milliseconds: cut to the millisecond as Date.toISOString writes it, never rounded up
    await ctx.database.db.execute(sql`update students set created_at = '2026-04-10 05:30:00.123789+00' where id = ${plain.id}`);
    const cut = (await other.api.get(`/api/students/${plain.id}`)).json();
    expect(cut.createdAt).toBe('2026-04-10T05:30:00.123Z');
    expect((await other.api.get('/api/students?q=anil')).json()).toEqual([cut]);
  });

  it('a listed student follows every change of their own fields, in any session\'s list', async () => {
    const other = await signUpSchool(ctx, { selectedPlan: 'premium' });
    const added = await add(other, { name: 'Riya "Chhoti" Koul', class: 'Class 3', section: 'B', admissionNumber: 'K\\3' });
    const listedAs = async (query: string) => {
      const own = (await other.api.get(`/api/students/${added.id}`)).json();
      const rows = (await other.api.get(`/api/students?${query}`)).json() as Array<Record<string, unknown>>;
      expect(rows).toEqual([own]);
      expect(Object.keys(rows[0]!)).toEqual(Object.keys(own));
      return own;
    };
    expect(await listedAs('q=chhoti')).toMatchObject({ name: 'Riya "Chhoti" Koul', admissionNumber: 'K\\3', aadharNumber: null, monthlyBusFee: '500.00' });
    // every field of their own changed at once, with text that JSON must escape
    const current = (await other.api.get(`/api/students/${added.id}`)).json();
    const edited = await other.api.put(`/api/students/${added.id}`, editBody(current, {
      name: 'रिया कौल', admissionNumber: 'K/3 "b"', fatherName: 'Sanjay\tKoul', motherName: 'Neha Koul', dateOfBirth: '2017-01-31',
      mobileNumber: '+919812345678', aadharNumber: '2345 6789 0124', residence: 'Line 1\nBemina', parentName: 'Neha Koul',
      parentPhone: '9812345678', parentEmail: 'neha@example.com', parentWhatsApp: '9812345670', monthlyBusFee: 725.75,
      enrollmentDate: '2026-06-15', feesFromMonth: '2026-07', enableSmsReminders: false, enableWhatsappReminders: true, reminderPreference: 'whatsapp',
    }));
    expect(edited.statusCode).toBe(200);
    expect(await listedAs('q=%E0%A4%B0%E0%A4%BF%E0%A4%AF%E0%A4%BE')).toMatchObject({
      name: 'रिया कौल', admissionNumber: 'K/3 "b"', fatherName: 'Sanjay\tKoul', dateOfBirth: '2017-01-31', aadharNumber: 'XXXX XXXX 0124',
      residence: 'Line 1\nBemina', monthlyBusFee: '725.75', enrollmentDate: '2026-06-15', feesFromMonth: '2026-07',
      enableSmsReminders: false, enableWhatsappReminders: true, reminderPreference: 'whatsapp', status: 'active',
    });
    await listedAs('academicYear=2026-27&class=Class%203&section=B');
    // discharged: their status is their own too
    expect((await other.api.post(`/api/students/${added.id}/discharge`, {})).statusCode).toBe(200);
    expect(await listedAs('status=passout')).toMatchObject({ status: 'passout', monthlyBusFee: '725.75' });
  });

  it('summarises active students per class and section in class order', async () => {
    const res = await school.api.get('/api/students/class-summary');
    expect(res.json()).toEqual([
      { class: 'Nursery', section: 'A', count: 1 },
      { class: 'UKG', section: 'A', count: 1 },
      { class: 'Class 1', section: 'A', count: 1 },
      { class: 'Class 2', section: 'A', count: 11 },
      { class: 'Class 2', section: 'B', count: 1 },
      { class: 'Class 10', section: 'A', count: 1 },
    ]);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '1']) {
      const res = await school.api.get(`/api/students/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('Student not found');
    }
  });
});

describe('adds and edits while the fees change', () => {
  it("stores every student's running balances at the fee the structure ends with", { timeout: 120_000 }, async () => {
    const school = await signUpSchool(ctx, { selectedPlan: 'premium' });
    const fees = { academicYear: '2026-2027', yearlyFee: '0', examFee: '0', booksFee: '0', uniformFee: '0', miscFee: '0' };
    const class5 = (await school.api.post('/api/class-fee-structures', { ...fees, className: 'Class 5', monthlyTuitionFee: '1000' })).json();
    expect((await school.api.post('/api/class-fee-structures', { ...fees, className: 'Class 6', monthlyTuitionFee: '2000' })).statusCode).toBe(201);
    const sixth: string[] = [];
    for (let i = 0; i < 10; i++) sixth.push((await school.api.post('/api/students', student({ name: `Sixth ${i + 1}`, class: 'Class 6', aadharNumber: '' }))).json().id);
    const adds = Array.from({ length: 40 }, (_, i) => school.api.post('/api/students', student({ name: `Fifth ${i + 1}`, aadharNumber: '' })));
    const moves = sixth.map((id, i) => school.api.put(`/api/students/${id}`, student({ name: `Sixth ${i + 1}`, class: 'Class 5', rollNumber: 21 + i, aadharNumber: undefined })));
    const changes = (async () => {
      for (const tuition of ['1100', '1200', '1300', '1400', '1500']) {
        const changed = await school.api.put(`/api/class-fee-structures/${class5.id}`, { ...fees, className: 'Class 5', monthlyTuitionFee: tuition });
        expect(changed.statusCode, changed.body).toBe(200);
      }
    })();
    const added = await Promise.all(adds);
    expect(added.map((r) => r.statusCode)).toEqual(Array(40).fill(201));
    // ten edits into the class and section the adds fill, each asking for a roll number an add may be
    // handed meanwhile: moved, or told the number is taken; none lost to a deadlock (a 500)
    const moved = await Promise.all(moves);
    for (const r of moved) expect([200, 409], r.body).toContain(r.statusCode);
    for (const r of moved.filter((m) => m.statusCode === 409)) expect(r.json().error).toMatch(/^Roll number \d+ is already taken in Class 5-A$/);
    await changes;
    // an add or an edit that read the fees before a change and committed after the change's refresh kept the old fee
    expect((await verifySchoolBalances(ctx.database.db, school.schoolId)).differences).toEqual([]);
    const status = (await school.api.get(`/api/students/${added[0]!.json().id}/fee-status`)).json();
    expect(status.student.className).toBe('Class 5');
    expect(status.account.months[0].tuition.expected).toBe('1500.00');
    const rolls = (await school.api.get('/api/students?class=Class 5&section=A')).json().map((s: { rollNumber: number }) => s.rollNumber);
    expect(new Set(rolls).size).toBe(rolls.length);
  });
});

describe('Delete Student', () => {
  let school: School;
  beforeAll(async () => {
    school = await signUpSchool(ctx, { selectedPlan: 'premium' });
  });

  it('deletes a student without fee records, removes the enrollment and never reuses the roll number', async () => {
    const a = await add(school, { class: 'Class 6', name: 'First' });
    const b = await add(school, { class: 'Class 6', name: 'Second' });
    const res = await school.api.delete(`/api/students/${b.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Student has been successfully deleted from the system.' });
    expect((await school.api.get(`/api/students/${b.id}`)).statusCode).toBe(404);
    const enrollments = await ctx.database.db.execute(sql`select count(*)::int as n from student_enrollments where student_id = ${b.id}`);
    expect(enrollments.rows).toEqual([{ n: 0 }]);
    expect((await add(school, { class: 'Class 6', name: 'Third' })).rollNumber).toBe(3);
    expect(a.rollNumber).toBe(1);
    const audit = await ctx.database.db.execute(sql`select action from audit_log where entity_id = ${b.id} order by id`);
    expect(audit.rows).toEqual([{ action: 'student.create' }, { action: 'student.delete' }]);
  });

  it('refuses to delete a student once money is recorded for them', async () => {
    const s = await add(school, { class: 'Class 6', name: 'Payer' });
    const session = (await school.api.get('/api/academic-sessions/active')).json();
    await ctx.database.db.execute(sql`
      insert into receipts (school_id, receipt_number, prefix, academic_year, sequence, source, student_id, session_id, student_name,
        class_name, section, roll_number, received_by, received_at, total_paise)
      values (${school.schoolId}, 'MON/2026-27/000001', 'MON', '2026-2027', 1, 'monthly', ${s.id}, ${session.id}, 'Payer',
        'Class 6', 'A', ${s.rollNumber}, 'Office', now(), 150000)`);
    const res = await school.api.delete(`/api/students/${s.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('This student has fee records and cannot be deleted. Use Discharge instead so no money disappears.');
    expect((await school.api.get(`/api/students/${s.id}`)).statusCode).toBe(200);
  });

  it('deletes a student whose rollover carried nothing, and refuses one who carries a balance', async () => {
    const session = (await school.api.get('/api/academic-sessions/active')).json();
    const carry = (studentId: string, monthlyPaise: number) =>
      ctx.database.db.execute(sql`
        insert into student_previous_balances (school_id, student_id, session_id, academic_year, class_name,
          monthly_outstanding_paise, yearly_outstanding_paise, through_month, reason)
        values (${school.schoolId}, ${studentId}, ${session.id}, ${session.sessionName}, 'Class 6', ${monthlyPaise}, 0, '2027-03', 'rollover')`);
    const settled = await add(school, { class: 'Class 6', name: 'Settled' });
    await carry(settled.id, 0);
    expect((await school.api.delete(`/api/students/${settled.id}`)).statusCode).toBe(200);
    const left = await ctx.database.db.execute(sql`select count(*)::int as n from student_previous_balances where student_id = ${settled.id}`);
    expect(left.rows).toEqual([{ n: 0 }]);

    const owing = await add(school, { class: 'Class 6', name: 'Owing' });
    await carry(owing.id, 150_000);
    const res = await school.api.delete(`/api/students/${owing.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('This student has fee records and cannot be deleted. Use Discharge instead so no money disappears.');
  });
});

describe('plan student limit (ruling 13)', () => {
  it('refuses the 101st student of a Basic school with the upgrade answer', async () => {
    const school = await signUpSchool(ctx, { selectedPlan: 'basic' });
    const session = (await school.api.get('/api/academic-sessions/active')).json();
    // 100 students straight into the table: the limit counts what is there, however it got there
    await ctx.database.db.execute(sql`
      insert into students (school_id, name, class_name, section, roll_number, session_id)
      select ${school.schoolId}, 'Student ' || g, 'Class 1', 'A', g, ${session.id} from generate_series(1, 100) g`);
    const res = await school.api.post('/api/students', student());
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'Your Basic plan allows up to 100 students. Upgrade your plan to add more.', upgradeRequired: true });
  });
});

describe('tenancy: another school sees nothing and changes nothing', () => {
  it('answers 404 for A\u2019s student to B on every route and never lists it', async () => {
    const a = await signUpSchool(ctx, { selectedPlan: 'premium' });
    const b = await signUpSchool(ctx, { selectedPlan: 'premium' });
    const s = await add(a, { aadharNumber: '123412341234', class: 'Class 9' });
    expect((await b.api.get(`/api/students/${s.id}`)).statusCode).toBe(404);
    expect((await b.api.put(`/api/students/${s.id}`, editBody(s, { name: 'Hijacked' }))).statusCode).toBe(404);
    expect((await b.api.post(`/api/students/${s.id}/reveal-aadhaar`)).statusCode).toBe(404);
    expect((await b.api.delete(`/api/students/${s.id}`)).statusCode).toBe(404);
    expect((await b.api.get('/api/students')).json()).toEqual([]);
    expect((await b.api.get('/api/students?q=Aarav')).json()).toEqual([]);
    expect((await b.api.get('/api/students/class-summary')).json()).toEqual([]);
    expect((await b.api.get('/api/students/roster?class=Class%209&section=A')).json()).toEqual([]);
    expect((await b.api.get(`/api/students/roster/${s.id}`)).statusCode).toBe(404);
    // B's roll numbers do not continue A's
    expect((await add(b, { class: 'Class 9' })).rollNumber).toBe(1);
    expect((await a.api.get(`/api/students/${s.id}`)).json().name).toBe('Aarav Sharma');
    expect((await a.api.get('/api/students/roster?class=Class%209&section=A')).json()).toEqual([{ id: s.id, name: 'Aarav Sharma', rollNumber: 1 }]);
    expect((await a.api.get(`/api/students/roster/${s.id}`)).json()).toMatchObject({ name: 'Aarav Sharma', class: 'Class 9' });
  });
});

describe('a school whose trial has ended', () => {
  it('can read its students, fee structures and sessions but not change them (402)', async () => {
    const school = await signUpSchool(ctx, { selectedPlan: 'premium' });
    const s = await add(school);
    const structure = (await school.api.post('/api/class-fee-structures', { className: 'Class 5', academicYear: '2026-2027', monthlyTuitionFee: 900 })).json();
    const session = (await school.api.get('/api/academic-sessions/active')).json();
    // sessions last a day: sign in again an hour before the trial ends, then let it end
    ctx.clock.advance(5 * 86_400_000 - 3_600_000);
    const login = await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password });
    school.api = client(ctx.app, login.json().token);
    ctx.clock.advance(2 * 3_600_000);
    expect((await school.api.get('/api/students')).statusCode).toBe(200);
    expect((await school.api.get(`/api/students/${s.id}`)).statusCode).toBe(200);
    expect((await school.api.post(`/api/students/${s.id}/reveal-aadhaar`)).statusCode).toBe(200);
    expect((await school.api.get('/api/class-fee-structures')).json()).toHaveLength(1);
    expect((await school.api.get('/api/academic-sessions')).json()).toHaveLength(1);
    for (const res of [
      await school.api.post('/api/class-fee-structures', { className: 'Class 6', academicYear: '2026-2027' }),
      await school.api.put(`/api/class-fee-structures/${structure.id}`, { className: 'Class 5', academicYear: '2026-2027', monthlyTuitionFee: 1 }),
      await school.api.put('/api/class-fee-structures/bulk-adjust', { percentage: 10, feeTypes: { monthlyTuitionFee: true } }),
      await school.api.post('/api/academic-sessions', { sessionName: '2027-2028', startDate: '2027-04-01', endDate: '2028-03-31' }),
      await school.api.put(`/api/academic-sessions/${session.id}/activate`),
      await school.api.post('/api/students', student()),
      await school.api.put(`/api/students/${s.id}`, editBody(s)),
      await school.api.delete(`/api/students/${s.id}`),
      await school.api.post('/api/students/bulk-progress', { csv: 'name,class\nA,1' }),
    ]) {
      expect(res.statusCode).toBe(402);
      expect(res.json().requiresPayment).toBe(true);
    }
    ctx.clock.advance(-(5 * 86_400_000 + 3_600_000));
  });
});
