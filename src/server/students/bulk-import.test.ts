import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySchoolBalances } from '../balances/verify';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

type School = Awaited<ReturnType<typeof signUpSchool>>;

interface Progress { type: 'progress'; processed: number; total: number; imported: number; errors: number; currentStudent: string }
interface RowError { row: number; name: string; reason: string; reasons: string[] }
interface Complete {
  type: 'complete';
  result: {
    imported: number;
    errors: RowError[];
    skipped: Array<{ row: number; name: string; reason: string }>;
    sections: Array<{ class: string; section: string; count: number }>;
  };
}

/** The streamed answer, line by line as the browser reads it. */
function readEvents(body: string): Array<Progress | Complete | { type: 'error'; message: string }> {
  expect(body.endsWith('\n\n')).toBe(true);
  return body
    .split('\n\n')
    .filter(Boolean)
    .map((chunk) => {
      expect(chunk.startsWith('data: ')).toBe(true);
      return JSON.parse(chunk.slice('data: '.length));
    });
}

async function importCsv(school: School, csv: string, importAnyway?: number[]) {
  const res = await school.api.post('/api/students/bulk-progress', { csv, ...(importAnyway ? { importAnyway } : {}) });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  const events = readEvents(res.body);
  const complete = events.at(-1) as Complete;
  expect(complete.type).toBe('complete');
  // `reason` is every problem of the row joined; the assertions below read it
  for (const e of complete.result.errors) expect(e.reason).toBe(e.reasons.join('; '));
  const { skipped, ...rest } = complete.result;
  const result = { ...rest, errors: rest.errors.map(({ reasons: _, ...e }) => e) };
  return { events, progress: events.filter((e): e is Progress => e.type === 'progress'), result, skipped, full: complete.result };
}

const HEADER = 'name,class,section,father_name,mother_name,mobile_number,aadhar_number,residence,monthly_bus_fee,parent_name,parent_phone,parent_email,parent_whatsapp';

describe('bulk import from CSV text', () => {
  let school: School;
  beforeAll(async () => {
    school = await signUpSchool(ctx, { selectedPlan: 'premium' });
  });

  it('imports the good rows, reports each bad row with its row number and reason, and streams progress', async () => {
    const good = Array.from({ length: 25 }, (_, i) => {
      const cls = ['1st', 'Class 1', 'ukg', 'XII', 'Grade 2'][i % 5];
      const section = i % 5 === 1 ? 'b' : '';
      return `Student ${i + 1},${cls},${section},Father ${i + 1},Mother ${i + 1},98765${String(i).padStart(5, '0')},,"House ${i + 1}, Rajbagh, Srinagar",${i % 2 ? '350.5' : ''},Parent ${i + 1},,parent${i + 1}@example.com,`;
    });
    const bad = [
      'Bad Class,Class 13,A,,,,,,,,,,', // row 27
      ',Class 1,A,Father,,,,,,,,,', // row 28: no name
      'Bad Aadhaar,Class 1,A,,,,1234,,,,,,', // row 29
      'Bad Mobile,Class 1,A,,,0123,,,,,,,', // row 30
      'Bad Email,Class 1,A,,,,,,,,,someone@,', // row 31
      'Bad Fee,Class 1,A,,,,,,-20,,,,', // row 32
      'Too Many,Class 1,A,,,,,,,,,,,extra,values', // row 33
    ];
    const csv = [HEADER, ...good.slice(0, 10), '', ...good.slice(10), ...bad].join('\n');
    const { progress, result } = await importCsv(school, csv);

    expect(result.imported).toBe(25);
    expect(result.errors).toEqual([
      { row: 28, name: 'Bad Class', reason: 'Unknown class "Class 13"' },
      { row: 29, name: '', reason: 'Student name is required' },
      { row: 30, name: 'Bad Aadhaar', reason: 'Aadhar number must be 12 digits' },
      { row: 31, name: 'Bad Mobile', reason: 'Invalid mobile number format' },
      { row: 32, name: 'Bad Email', reason: 'Invalid email format' },
      { row: 33, name: 'Bad Fee', reason: 'Bus fee must be an amount of at least 0 with at most 2 decimals' },
      {
        row: 34,
        name: 'Too Many',
        reason: 'This row has 15 values but the header has 13 columns; put quotes around values that contain commas',
      },
    ]);
    expect(result.sections).toEqual([
      { class: 'UKG', section: 'A', count: 5 },
      { class: 'Class 1', section: 'A', count: 5 },
      { class: 'Class 1', section: 'B', count: 5 },
      { class: 'Class 2', section: 'A', count: 5 },
      { class: 'Class 12', section: 'A', count: 5 },
    ]);

    // progress: starts at 0, grows to the total, at least every 2% of the rows
    expect(progress[0]).toMatchObject({ processed: 0, total: 32, imported: 0, errors: 0 });
    expect(progress.at(-1)).toMatchObject({ processed: 32, total: 32, imported: 25, errors: 7 });
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]!.processed - progress[i - 1]!.processed).toBeLessThanOrEqual(Math.max(1, Math.floor(32 * 0.02)));
    }
    expect(progress.some((p) => p.currentStudent === 'Student 13')).toBe(true);

    const list = (await school.api.get('/api/students?class=1st&section=A')).json() as Array<Record<string, unknown>>;
    expect(list.map((s) => s.rollNumber)).toEqual([1, 2, 3, 4, 5]);
    expect(list[0]).toMatchObject({
      name: 'Student 1',
      class: 'Class 1',
      section: 'A',
      fatherName: 'Father 1',
      mobileNumber: '9876500000',
      residence: 'House 1, Rajbagh, Srinagar',
      monthlyBusFee: '0.00',
      parentEmail: 'parent1@example.com',
    });
    const b = (await school.api.get('/api/students?class=Class%201&section=B')).json() as Array<Record<string, unknown>>;
    expect(b[0]).toMatchObject({ name: 'Student 2', monthlyBusFee: '350.50' });
  });

  it('accepts the header aliases and fills the mobile number from the parent phone', async () => {
    const csv = [
      'Student Name,Class,DOB,Address,Bus Fee,Email,Parent Phone,Admission No,Roll Number',
      '"Khan, Ayaan",5th,2015-08-01,"Lal Chowk, Srinagar","1,200",ayaan@example.com,9123456789,ADM-1,77',
    ].join('\r\n');
    const { result } = await importCsv(school, csv);
    expect(result).toEqual({ imported: 1, errors: [], sections: [{ class: 'Class 5', section: 'A', count: 1 }] });
    const [s] = (await school.api.get('/api/students?q=ADM-1')).json();
    expect(s).toMatchObject({
      name: 'Khan, Ayaan',
      class: 'Class 5',
      section: 'A',
      rollNumber: 1, // the file's roll number is ignored: numbers are allocated
      dateOfBirth: '2015-08-01',
      residence: 'Lal Chowk, Srinagar',
      monthlyBusFee: '1200.00',
      parentEmail: 'ayaan@example.com',
      parentPhone: '9123456789',
      mobileNumber: '9123456789',
      admissionNumber: 'ADM-1',
    });
  });

  it('refuses admission numbers used twice in the file or already in the school', async () => {
    const csv = ['name,class,admission_number', 'One,1,ADM-1', 'Two,1,ADM-2', 'Three,1,ADM-2'].join('\n');
    const { result } = await importCsv(school, csv);
    expect(result.imported).toBe(1);
    expect(result.errors).toEqual([
      { row: 2, name: 'One', reason: 'Admission number ADM-1 is already used by another student in this school.' },
      { row: 4, name: 'Three', reason: 'Admission number ADM-2 appears twice in this file (first in row 3)' },
    ]);
  });

  it('answers whole-file problems with a clear 400 before importing anything', async () => {
    const before = (await school.api.get('/api/students?limit=1&withTotal=true')).headers['x-total-count'];
    const cases: Array<[unknown, string | RegExp]> = [
      [{ csv: '' }, 'Please enter CSV data'],
      [{ csv: '  \n \n' }, 'Please enter CSV data'],
      [{}, 'Please enter CSV data'],
      [{ csv: HEADER }, 'CSV must have header and at least one data row...'],
      [{ csv: `${HEADER}\n\n` }, 'CSV must have header and at least one data row...'],
      [{ csv: 'name,class\n,5\nAnil,\n' }, 'No valid student data found...'],
      [{ csv: 'first,second\nA,B\n' }, 'No valid student data found...'],
      [{ csv: 'name,class\nGood,1\n"Broken, 2\nAnother,3\n' }, /^Row 3 has broken quoting/],
      [{ csv: 'name,class\nGood,1\nBro"ken",2\n"Ab"c,6\n' }, /^Row 4 has broken quoting/],
      [{ csv: `name,class\n${'Anil,1\n'.repeat(10_001)}` }, 'A single import can hold at most 10,000 students'],
      [{ csv: `name,class\n${'Anil,1\n'.repeat(50_000)}` }, 'A single import can hold at most 10,000 students'],
      [{ csv: `name,class\nAnil,1\n${'x'.repeat(5 * 1024 * 1024)},1\n` }, /^Row 3 is longer than 10,000 characters/],
      [{ students: [] }, 'No valid student data found...'],
      [{ students: [1, 2] }, 'Each student must be an object of column values'],
    ];
    for (const [body, message] of cases) {
      const res = await school.api.post('/api/students/bulk-progress', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      if (typeof message === 'string') expect(res.json().error).toBe(message);
      else expect(res.json().error).toMatch(message);
    }
    expect((await school.api.get('/api/students?limit=1&withTotal=true')).headers['x-total-count']).toBe(before);
  });

  it('answers a body over 10 MB with 413 and a clear message', async () => {
    const res = await school.api.post('/api/students/bulk-progress', { csv: `name,class\n${'Anil Kumar Sharma,Class 1\n'.repeat(450_000)}` });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toMatch(/^The import is larger than 10 MB/);
  });

  it('needs a session (ruling 23)', async () => {
    const res = await client(ctx.app).post('/api/students/bulk-progress', { csv: 'name,class\nA,1' });
    expect(res.statusCode).toBe(401);
  });
});

describe('bulk import of parsed rows', () => {
  it('takes template columns or camelCase keys and numbers rows as in the file', async () => {
    const school = await signUpSchool(ctx, { selectedPlan: 'premium' });
    const res = await school.api.post('/api/students/bulk-progress', {
      students: [
        { name: 'Riya', class: 'LKG', section: 'c', father_name: 'Raj', monthly_bus_fee: 300 },
        { name: 'Sam', class: 'LKG', fatherName: 'Om', parentEmail: 'om@example.com', monthlyBusFee: '250.25', aadharNumber: '1111 2222 3333' },
        { name: 'Nope', class: 'Class 0' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const events = readEvents(res.body);
    const { result } = events.at(-1) as Complete;
    expect(result.imported).toBe(2);
    expect(result.errors).toEqual([{ row: 4, name: 'Nope', reason: 'Unknown class "Class 0"', reasons: ['Unknown class "Class 0"'] }]);
    const list = (await school.api.get('/api/students')).json() as Array<Record<string, unknown>>;
    expect(list.map((s) => [s.name, s.section, s.rollNumber, s.fatherName, s.monthlyBusFee, s.aadharNumber])).toEqual([
      ['Sam', 'A', 1, 'Om', '250.25', 'XXXX XXXX 3333'],
      ['Riya', 'C', 1, 'Raj', '300.00', null],
    ]);
    const audit = await ctx.database.db.execute(sql`select count(*)::int as n from audit_log where school_id = ${school.schoolId} and action = 'student.bulk_import'`);
    expect((audit.rows[0] as { n: number }).n).toBeGreaterThan(0);
  });
});

describe('plan limit during import (ruling 13)', () => {
  it('imports up to the Basic plan limit of 100 and reports the rest with the upgrade reason', async () => {
    const school = await signUpSchool(ctx, { selectedPlan: 'basic' });
    const first = await importCsv(school, ['name,class,section', ...Array.from({ length: 95 }, (_, i) => `Pupil ${i + 1},Class 3,A`)].join('\n'));
    expect(first.result.imported).toBe(95);
    expect(first.result.errors).toEqual([]);
    // at least every 2%: 95 rows give batches of one row
    expect(first.progress.length).toBeGreaterThanOrEqual(50);

    const second = await importCsv(school, ['name,class,section', ...Array.from({ length: 10 }, (_, i) => `Late ${i + 1},Class 3,A`)].join('\n'));
    expect(second.result.imported).toBe(5);
    expect(second.result.errors).toEqual(
      Array.from({ length: 5 }, (_, i) => ({
        row: i + 7,
        name: `Late ${i + 6}`,
        reason: 'Your Basic plan allows up to 100 students. Upgrade your plan to add more.',
      })),
    );
    const rolls = (await school.api.get('/api/students?class=Class%203&section=A')).json().map((s: { rollNumber: number }) => s.rollNumber);
    expect(rolls).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect((await school.api.get('/api/students/class-summary')).json()).toEqual([{ class: 'Class 3', section: 'A', count: 100 }]);
  });
});

describe('roll numbers after students placed outside the counter', () => {
  it('numbers an import after the highest roll enrolled, even one the counter never handed out (demo data, an old register)', async () => {
    const school = await signUpSchool(ctx, { selectedPlan: 'premium' });
    await importCsv(school, 'name,class,section\nFirst Pupil,Class 4,A\nSecond Pupil,Class 4,A');
    // the second pupil's number set to 7 in the tables alone, as the demo generator places students
    await ctx.database.db.execute(sql`update student_enrollments set roll_number = 7 where school_id = ${school.schoolId} and roll_number = 2`);
    await ctx.database.db.execute(sql`update students set roll_number = 7 where school_id = ${school.schoolId} and roll_number = 2`);
    const { result } = await importCsv(school, 'name,class,section\nThird Pupil,Class 4,A\nFourth Pupil,Class 4,A\nOther Class,Class 5,A');
    expect(result.imported).toBe(3);
    const list = (await school.api.get('/api/students')).json() as Array<{ name: string; rollNumber: number }>;
    expect(list.map((s) => [s.name, s.rollNumber]).sort((x, y) => String(x[0]).localeCompare(String(y[0])))).toEqual([
      ['First Pupil', 1],
      ['Fourth Pupil', 9],
      ['Other Class', 1],
      ['Second Pupil', 7],
      ['Third Pupil', 8],
    ]);
  });
});

describe('an import while the counter adds students to the same class', () => {
  it('gives every student of the class its own roll number: no number twice, none skipped, whichever came first', { timeout: 120_000 }, async () => {
    const school = await signUpSchool(ctx, { selectedPlan: 'premium' });
    const inClass = async (name: string) =>
      Number(
        (await ctx.database.db.execute(sql`
          select count(*) as n from students where school_id = ${school.schoolId} and name like ${name}`)).rows[0]!.n,
      );
    // 1,000 rows in 50 batches (the 2% progress rule), each batch allocating from the counters the
    // import synced once at its start; the single adds raise the same counter meanwhile
    const csv = ['name,class,section', ...Array.from({ length: 1_000 }, (_, i) => `Imported ${i + 1},Class 6,A`)].join('\n');
    const importing = importCsv(school, csv);
    // the adds begin once the first batch is in (on PostgreSQL; the embedded database runs one
    // statement at a time, so there they follow the import)
    if (ctx.database.kind === 'postgres') await expect.poll(() => inClass('Imported %'), { timeout: 60_000, interval: 5 }).toBeGreaterThan(0);
    const walkIn = (i: number) =>
      school.api.post('/api/students', { name: `Walk-in ${i + 1}`, class: 'Class 6', section: 'A', rollNumber: '', fatherName: 'A Parent', parentPhone: '9876543210' });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => walkIn(i)));
    const imported = await importing;
    expect(imported.result.imported).toBe(1_000);
    expect(imported.result.errors).toEqual([]);
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(201));

    const enrolled = await ctx.database.db.execute(sql`
      select s.name, e.roll_number from student_enrollments e join students s on s.id = e.student_id
      where e.school_id = ${school.schoolId} and e.class_name = 'Class 6' and e.section = 'A' order by e.roll_number`);
    expect(enrolled.rows.map((r) => Number(r.roll_number))).toEqual(Array.from({ length: 1_020 }, (_, i) => i + 1));
    if (ctx.database.kind === 'postgres') {
      // they did interleave: a walk-in's number lies between imported ones
      const last = Math.max(...enrolled.rows.filter((r) => String(r.name).startsWith('Imported')).map((r) => Number(r.roll_number)));
      expect(Math.min(...answers.map((a) => a.json().rollNumber as number))).toBeLessThan(last);
    }
    // the next add continues after them all
    expect((await walkIn(20)).json().rollNumber).toBe(1_021);
  });
});

describe('a fee structure changed during an import', () => {
  it("stores every imported student's running balances at the fee the structure ends with", { timeout: 120_000 }, async () => {
    const school = await signUpSchool(ctx, { selectedPlan: 'premium' });
    const db = ctx.database.db;
    const fees = { className: 'Class 6', academicYear: '2026-2027', yearlyFee: '2000', examFee: '0', booksFee: '0', uniformFee: '0', miscFee: '0' };
    const created = await school.api.post('/api/class-fee-structures', { ...fees, monthlyTuitionFee: '1000' });
    expect(created.statusCode, created.body).toBe(201);
    const csv = ['name,class,section', ...Array.from({ length: 1_000 }, (_, i) => `Pupil ${i + 1},Class 6,A`)].join('\n');
    const importing = importCsv(school, csv);
    // the changes begin once the first batch is in (on PostgreSQL; the embedded database runs one
    // statement at a time, so there they follow the import)
    const imported = async () => Number((await db.execute(sql`select count(*) as n from students where school_id = ${school.schoolId}`)).rows[0]!.n);
    if (ctx.database.kind === 'postgres') await expect.poll(imported, { timeout: 60_000, interval: 5 }).toBeGreaterThan(0);
    for (const tuition of ['1100', '1200', '1300', '1400', '1500']) {
      const changed = await school.api.put(`/api/class-fee-structures/${created.json().id}`, { ...fees, monthlyTuitionFee: tuition });
      expect(changed.statusCode, changed.body).toBe(200);
    }
    expect((await importing).result.imported).toBe(1_000);
    if (ctx.database.kind === 'postgres') expect(await imported()).toBe(1_000);
    // a batch that read the fees before a change and was stored after the change's refresh kept the old fee
    expect((await verifySchoolBalances(db, school.schoolId)).differences).toEqual([]);
    const [one] = (await school.api.get('/api/students?q=Pupil 1000')).json() as Array<{ id: string }>;
    const status = (await school.api.get(`/api/students/${one!.id}/fee-status`)).json();
    expect(status.structure.monthlyTuitionFee).toBe('1500.00');
    expect(status.account.months[0].tuition.expected).toBe('1500.00');
  });
});

describe('tenancy', () => {
  it("continues each school's own roll numbers and never shows one school's import to another", async () => {
    const a = await signUpSchool(ctx, { selectedPlan: 'premium' });
    const b = await signUpSchool(ctx, { selectedPlan: 'premium' });
    await importCsv(a, 'name,class\nAlpha One,1\nAlpha Two,1');
    const { result } = await importCsv(b, 'name,class\nBeta One,1');
    expect(result.imported).toBe(1);
    expect((await b.api.get('/api/students')).json().map((s: { name: string; rollNumber: number }) => [s.name, s.rollNumber])).toEqual([['Beta One', 1]]);
  });
});

describe('an import a clerk can trust', () => {
  let school: School;
  beforeAll(async () => {
    school = await signUpSchool(ctx, { selectedPlan: 'premium' });
    await importCsv(school, ['name,class,section,father_name,aadhar_number,admission_number', 'Aarav Sharma,Class 5,A,Rakesh Sharma,234567890123,ADM-9'].join('\n'));
  });

  it('a bulk import reports every error of a row, not only the first', async () => {
    const csv = ['name,class,section,mobile_number,aadhar_number,parent_email,monthly_bus_fee', 'Many Faults,Class 13,Z,0123,12345,someone@,1e3'].join('\n');
    const check = await school.api.post('/api/students/bulk-check', { csv });
    expect(check.statusCode).toBe(200);
    const reasons = [
      'Unknown class "Class 13"',
      'Section must be one of A, B, C, D, E, F',
      'Aadhar number must be 12 digits',
      'Invalid mobile number format',
      'Invalid email format',
      'Bus fee must be an amount of at least 0 with at most 2 decimals (write it out, not 1e3)',
    ];
    expect(check.json().errors).toEqual([{ row: 2, name: 'Many Faults', reason: reasons.join('; '), reasons }]);
    const { full } = await importCsv(school, csv);
    expect(full.imported).toBe(0);
    expect(full.errors[0]!.reasons).toEqual(reasons);
  });

  it('Aadhaar typed as printed (1234 5678 9012) is accepted', async () => {
    const csv = ['name,class,aadhar_number', 'Printed Card,Class 2,3456 7890 1234', 'Hyphenated,Class 2,4567-8901-2345'].join('\n');
    const { result } = await importCsv(school, csv);
    expect(result).toMatchObject({ imported: 2, errors: [] });
    const list = (await school.api.get('/api/students?class=Class%202')).json() as Array<{ name: string; aadharNumber: string }>;
    expect(list.map((s) => [s.name, s.aadharNumber])).toEqual([
      ['Printed Card', 'XXXX XXXX 1234'],
      ['Hyphenated', 'XXXX XXXX 2345'],
    ]);
    // the single-student form takes the same spellings
    const add = await school.api.post('/api/students', { name: 'Form Entry', class: 'Class 2', section: 'A', aadharNumber: '5678-9012-3456' });
    expect(add.statusCode, add.body).toBe(201);
    const reveal = await school.api.post(`/api/students/${add.json().id}/reveal-aadhaar`, {});
    expect(reveal.json().aadharNumber).toBe('567890123456');
  });

  it('a bulk import flags duplicates in the file and in the school, with whom they match, and skips them unless told', async () => {
    const csv = [
      'name,class,section,father_name,aadhar_number',
      'aarav  sharma,5,B,RAKESH SHARMA,', // row 2: same name, father and class as the student already there
      'Ishaan Dar,Class 4,A,Bilal Dar,2345 6789 0123', // row 3: same Aadhaar as Aarav
      'Mehak Jan,Class 3,A,Farooq Jan,', // row 4: new
      'Mehak Jan,Class 3,B,Farooq Jan,', // row 5: same as row 4 of this file
    ].join('\n');
    const check = await school.api.post('/api/students/bulk-check', { csv });
    expect(check.statusCode).toBe(200);
    const body = check.json();
    expect(body).toMatchObject({ total: 4, ready: 1, errors: [] });
    expect(body.duplicates.map((d: { row: number; description: string[] }) => [d.row, d.description])).toEqual([
      [2, ["Same name, father's name and class as Aarav Sharma, Class 5-A, already in the school"]],
      [3, ['Same Aadhaar number as Aarav Sharma, Class 5-A, already in the school']],
      [5, ["Same name, father's name and class as row 4 of this file (Mehak Jan, Class 3-A)"]],
    ]);

    // default: the duplicates are skipped and said so; the clerk chose to import row 5 anyway
    const { result, skipped } = await importCsv(school, csv, [5]);
    expect(result.imported).toBe(2);
    expect(skipped.map((s) => s.row)).toEqual([2, 3]);
    expect(skipped[0]!.reason).toBe("Skipped as a possible duplicate: Same name, father's name and class as Aarav Sharma, Class 5-A, already in the school");
    const names = ((await school.api.get('/api/students?q=Mehak')).json() as Array<{ section: string }>).map((s) => s.section);
    expect(names.sort()).toEqual(['A', 'B']);
    expect(((await school.api.get('/api/students?q=Aarav')).json() as unknown[]).length).toBe(1);
  });

  it('the same file imported again, or twice at once (a re-upload while the first still runs), adds each student once', async () => {
    const csv = ['name,class,section,father_name,aadhar_number', 'Sana Wani,Class 7,A,Javed Wani,', 'Umar Lone,Class 7,B,Ashraf Lone,3456 1234 7890', 'Hiba Shah,Class 8,A,Nisar Shah,'].join('\n');
    const again = await signUpSchool(ctx, { selectedPlan: 'premium' });
    expect((await importCsv(again, csv)).result.imported).toBe(3);
    const second = await importCsv(again, csv);
    expect(second.result).toMatchObject({ imported: 0, errors: [] });
    expect(second.skipped).toEqual([
      { row: 2, name: 'Sana Wani', reason: "Skipped as a possible duplicate: Same name, father's name and class as Sana Wani, Class 7-A, already in the school" },
      {
        row: 3,
        name: 'Umar Lone',
        reason:
          "Skipped as a possible duplicate: Same name, father's name and class as Umar Lone, Class 7-B, already in the school; Same Aadhaar number as Umar Lone, Class 7-B, already in the school",
      },
      { row: 4, name: 'Hiba Shah', reason: "Skipped as a possible duplicate: Same name, father's name and class as Hiba Shah, Class 8-A, already in the school" },
    ]);
    expect(((await again.api.get('/api/students')).json() as unknown[]).length).toBe(3);

    // twice at once: both checked the school before either wrote; each batch checks again under the lock
    const atOnce = await signUpSchool(ctx, { selectedPlan: 'premium' });
    const [a, b] = await Promise.all([importCsv(atOnce, csv), importCsv(atOnce, csv)]);
    expect(a.result.imported + b.result.imported).toBe(3);
    expect([...a.skipped, ...b.skipped].map((s) => s.row).sort()).toEqual([2, 3, 4]);
    expect(((await atOnce.api.get('/api/students')).json() as unknown[]).length).toBe(3);
  });

  it('finds an Aadhaar duplicate of a student stored before the blind index existed (backfilled, not decrypted row by row)', async () => {
    const other = await signUpSchool(ctx, { selectedPlan: 'premium' });
    await importCsv(other, ['name,class,aadhar_number', 'Old Record,Class 8,9876 5432 1098'].join('\n'));
    await ctx.database.db.execute(sql`update students set aadhaar_hash = null where school_id = ${other.schoolId}`);
    const check = await other.api.post('/api/students/bulk-check', { csv: ['name,class,aadhar_number', 'New Copy,Class 9,987654321098'].join('\n') });
    expect(check.json().duplicates[0].description).toEqual(['Same Aadhaar number as Old Record, Class 8-A, already in the school']);
    // another school with the same number is not a duplicate: only this school's students are read
    const third = await signUpSchool(ctx, { selectedPlan: 'premium' });
    const clean = await third.api.post('/api/students/bulk-check', { csv: ['name,class,aadhar_number', 'New Copy,Class 9,987654321098'].join('\n') });
    expect(clean.json()).toMatchObject({ total: 1, ready: 1, duplicates: [] });
  });
});
