import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

type School = Awaited<ReturnType<typeof signUpSchool>>;

const structure = (overrides: Record<string, unknown> = {}) => ({
  className: 'Class 1',
  academicYear: '2026-2027',
  monthlyTuitionFee: '1000',
  yearlyFee: '5000.00',
  examFee: 800,
  booksFee: '1200.5',
  uniformFee: '',
  miscFee: '333.33',
  ...overrides,
});

describe('class fee structures', () => {
  let school: School;
  beforeAll(async () => {
    school = await signUpSchool(ctx);
  });

  it('creates a structure with exact amounts, the yearly total and an audit entry', async () => {
    const res = await school.api.post('/api/class-fee-structures', structure({ className: 'ist', academicYear: '2026-27' }));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      className: 'Class 1',
      academicYear: '2026-2027',
      monthlyTuitionFee: '1000.00',
      yearlyFee: '5000.00',
      examFee: '800.00',
      booksFee: '1200.50',
      uniformFee: '0.00',
      miscFee: '333.33',
      totalYearlyFees: '7333.83',
    });
    const audit = await ctx.database.db.execute(sql`select action from audit_log where entity_id = ${body.id}`);
    expect(audit.rows).toEqual([{ action: 'fee_structure.create' }]);
  });

  it('checks the §5 rules with their words', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ className: '' }, 'Class is required'],
      [{ className: 'Class 14' }, 'Unknown class "Class 14"'],
      [{ academicYear: '' }, 'Academic year is required'],
      [{ academicYear: '2026-2028' }, 'Academic year must be written like 2024-2025'],
      [{ monthlyTuitionFee: '-5' }, 'Monthly tuition fee must be an amount of at least 0 with at most 2 decimals'],
      [{ examFee: '10.123' }, 'Exam fee must be an amount of at least 0 with at most 2 decimals'],
      [{ miscFee: 'abc' }, 'Misc fee must be an amount of at least 0 with at most 2 decimals (digits only, no letters)'],
    ];
    for (const [overrides, message] of cases) {
      const res = await school.api.post('/api/class-fee-structures', structure({ className: 'Class 2', ...overrides }));
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error).toBe(message);
    }
  });

  it('refuses a second structure for a class and year, whatever the spelling', async () => {
    const res = await school.api.post('/api/class-fee-structures', structure({ className: '1st', academicYear: '2026-2027' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'Fee structure for Class 1 in 2026-2027 already exists.', title: 'Duplicate Fee Structure' });
    // another year is a different structure
    expect((await school.api.post('/api/class-fee-structures', structure({ academicYear: '2027-28' }))).statusCode).toBe(201);
  });

  it('edits a structure and refuses an edit onto an existing class and year', async () => {
    const created = (await school.api.post('/api/class-fee-structures', structure({ className: 'LKG' }))).json();
    const edited = await school.api.put(`/api/class-fee-structures/${created.id}`, structure({ className: 'LKG', monthlyTuitionFee: '1250.75' }));
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ className: 'LKG', monthlyTuitionFee: '1250.75' });
    const clash = await school.api.put(`/api/class-fee-structures/${created.id}`, structure({ className: 'Class 1' }));
    expect(clash.statusCode).toBe(409);
    expect(clash.json().title).toBe('Duplicate Fee Structure');
    const audit = await ctx.database.db.execute(
      sql`select before->>'monthlyTuitionFee' as before, after->>'monthlyTuitionFee' as after from audit_log where entity_id = ${created.id} and action = 'fee_structure.update'`,
    );
    expect(audit.rows).toEqual([{ before: '1000.00', after: '1250.75' }]);
    expect((await school.api.put('/api/class-fee-structures/nope', structure())).statusCode).toBe(404);
  });

  it('lists in class order and matches class and year spellings', async () => {
    await school.api.post('/api/class-fee-structures', structure({ className: 'Nursery' }));
    await school.api.post('/api/class-fee-structures', structure({ className: '12th' }));
    const all = (await school.api.get('/api/class-fee-structures')).json() as Array<{ className: string; academicYear: string }>;
    expect(all.map((s) => `${s.className} ${s.academicYear}`)).toEqual([
      'Nursery 2026-2027',
      'LKG 2026-2027',
      'Class 1 2027-2028',
      'Class 1 2026-2027',
      'Class 12 2026-2027',
    ]);
    for (const query of ['class=class%201&academicYear=2026-27', 'class=IST&academicYear=2026-2027', 'class=Grade%201&academicYear=2026%E2%80%932027']) {
      const res = (await school.api.get(`/api/class-fee-structures?${query}`)).json();
      expect(res.map((s: { className: string; academicYear: string }) => `${s.className} ${s.academicYear}`), query).toEqual(['Class 1 2026-2027']);
    }
    expect((await school.api.get('/api/class-fee-structures?class=lkg')).json()).toHaveLength(1);
    expect((await school.api.get('/api/class-fee-structures?class=Class%2015')).json()).toEqual([]);
  });
});

describe('Annual Fee Increment (bulk adjust)', () => {
  let school: School;
  beforeAll(async () => {
    school = await signUpSchool(ctx);
  });

  it('checks the percentage and the fee types with the §5 words', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ percentage: 0, feeTypes: { monthlyTuitionFee: true } }, 'Please enter a valid percentage greater than 0'],
      [{ percentage: -5, feeTypes: { monthlyTuitionFee: true } }, 'Please enter a valid percentage greater than 0'],
      [{ percentage: 'ten', feeTypes: { monthlyTuitionFee: true } }, 'Please enter a valid percentage greater than 0'],
      [{ percentage: '', feeTypes: { monthlyTuitionFee: true } }, 'Please enter a valid percentage greater than 0'],
      [{ percentage: 10, feeTypes: {} }, 'Please select at least one fee type to increase'],
      [{ percentage: 10, feeTypes: { monthlyTuitionFee: false, examFee: false } }, 'Please select at least one fee type to increase'],
      [{ percentage: 1000, feeTypes: { examFee: true } }, 'The percentage must be below 1000'],
    ];
    for (const [body, message] of cases) {
      const res = await school.api.put('/api/class-fee-structures/bulk-adjust', body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error).toBe(message);
    }
  });

  it('raises only the chosen heads, half-up to whole rupees, in one go (10% on 1000 → 1100, 7.5% on 333.33 → 358)', async () => {
    const one = (await school.api.post('/api/class-fee-structures', structure())).json();
    const two = (await school.api.post('/api/class-fee-structures', structure({ className: 'Class 2', monthlyTuitionFee: '333.33', examFee: '0.05' }))).json();
    const ten = await school.api.put('/api/class-fee-structures/bulk-adjust', { percentage: 10, feeTypes: { monthlyTuitionFee: true, examFee: true } });
    expect(ten.statusCode).toBe(200);
    expect(ten.json().updated).toBe(2);
    const after = (await school.api.get('/api/class-fee-structures')).json() as Array<Record<string, string>>;
    expect(after.find((s) => s.id === one.id)).toMatchObject({
      monthlyTuitionFee: '1100.00',
      examFee: '880.00',
      yearlyFee: '5000.00',
      booksFee: '1200.50',
      miscFee: '333.33',
    });
    // 333.33 + 10% = 366.66 → ₹367; 0.05 + 10% → ₹0 (whole rupees unless asked otherwise)
    expect(after.find((s) => s.id === two.id)).toMatchObject({ monthlyTuitionFee: '367.00', examFee: '0.00' });

    const more = await school.api.put('/api/class-fee-structures/bulk-adjust', { percentage: '7.5', feeTypes: { miscFee: true } });
    const changed = more.json().structures as Array<Record<string, string>>;
    expect(changed.find((s) => s.id === one.id)).toMatchObject({ miscFee: '358.00', monthlyTuitionFee: '1100.00' });
    const audit = await ctx.database.db.execute(sql`select count(*)::int as n from audit_log where school_id = ${school.schoolId} and action = 'fee_structure.bulk_adjust'`);
    expect(audit.rows).toEqual([{ n: 2 }]);
  });

  it('limits the increase to one academic year when asked', async () => {
    const next = (await school.api.post('/api/class-fee-structures', structure({ academicYear: '2027-2028', monthlyTuitionFee: '2000' }))).json();
    const res = await school.api.put('/api/class-fee-structures/bulk-adjust', { percentage: 50, feeTypes: { monthlyTuitionFee: true }, academicYear: '2027-28' });
    expect(res.json().updated).toBe(1);
    expect(res.json().structures[0]).toMatchObject({ id: next.id, monthlyTuitionFee: '3000.00' });
    const current = (await school.api.get('/api/class-fee-structures?class=Class%201&academicYear=2026-2027')).json();
    expect(current[0].monthlyTuitionFee).toBe('1100.00');
  });
});

describe('the annual increment for next year', () => {
  it('sets next year\'s fees from this year\'s, rounded to ₹1, ₹5 or ₹10, and leaves what students owe this year alone', async () => {
    const s = await signUpSchool(ctx);
    await s.api.post('/api/class-fee-structures', structure({ className: 'Class 3', academicYear: '2026-2027', monthlyTuitionFee: '1234', examFee: '799' }));
    await s.api.post('/api/class-fee-structures', structure({ className: 'Class 4', academicYear: '2026-2027', monthlyTuitionFee: '1654.50' }));
    // Class 4 already has next year's fees: they are replaced from this year's
    await s.api.post('/api/class-fee-structures', structure({ className: 'Class 4', academicYear: '2027-2028', monthlyTuitionFee: '9' }));
    const body = { percentage: 10, feeTypes: { monthlyTuitionFee: true }, fromAcademicYear: '2026-2027', academicYear: '2027-2028' };
    const tuitionOf = async (className: string, year: string) =>
      ((await s.api.get(`/api/class-fee-structures?class=${encodeURIComponent(className)}&academicYear=${year}`)).json() as Array<{ monthlyTuitionFee: string; examFee: string }>)[0];
    // 1234 + 10% = 1357.40; 1654.50 + 10% = 1819.95
    for (const [roundTo, class3, class4] of [[1, '1357.00', '1820.00'], [5, '1355.00', '1820.00'], [10, '1360.00', '1820.00']] as const) {
      const res = await s.api.put('/api/class-fee-structures/bulk-adjust', { ...body, roundTo });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().updated).toBe(2);
      expect((await tuitionOf('Class 3', '2027-2028'))!.monthlyTuitionFee).toBe(class3);
      expect((await tuitionOf('Class 4', '2027-2028'))!.monthlyTuitionFee).toBe(class4);
    }
    // unchosen heads are carried over as they are; this year's structures did not move
    expect((await tuitionOf('Class 3', '2027-2028'))!.examFee).toBe('799.00');
    expect((await tuitionOf('Class 3', '2026-2027'))!.monthlyTuitionFee).toBe('1234.00');
    expect((await tuitionOf('Class 4', '2026-2027'))!.monthlyTuitionFee).toBe('1654.50');
    const bad = await s.api.put('/api/class-fee-structures/bulk-adjust', { ...body, roundTo: 3 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Round to ₹1, ₹5 or ₹10');
  });
});

describe('tenancy', () => {
  it("never shows or changes one school's fee structures for another", async () => {
    const a = await signUpSchool(ctx);
    const b = await signUpSchool(ctx);
    const mine = (await a.api.post('/api/class-fee-structures', structure())).json();
    expect((await b.api.get(`/api/class-fee-structures/${mine.id}`)).statusCode).toBe(404);
    expect((await b.api.put(`/api/class-fee-structures/${mine.id}`, structure({ monthlyTuitionFee: 1 }))).statusCode).toBe(404);
    expect((await b.api.get('/api/class-fee-structures')).json()).toEqual([]);
    // B may create the same class and year for itself, and B's increase leaves A alone
    expect((await b.api.post('/api/class-fee-structures', structure())).statusCode).toBe(201);
    await b.api.put('/api/class-fee-structures/bulk-adjust', { percentage: 100, feeTypes: { monthlyTuitionFee: true } });
    expect((await a.api.get(`/api/class-fee-structures/${mine.id}`)).json().monthlyTuitionFee).toBe('1000.00');
  });
});
