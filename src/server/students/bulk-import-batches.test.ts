import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySchoolBalances } from '../balances/verify';
import { CLASS5_2025, seedSession, seedStructure } from '../fees/test-fixtures';
import { createTestApp, openTestDatabase, signUpSchool, type TestContext } from '../test/harness';

/**
 * Issue 14: a bulk import's batch is a fixed handful of statements whatever its size (a batch is 2%
 * of the file), and the running balances it stores for its new students, computed in memory from
 * the school's sessions, structures and plans rather than read back, equal a recomputation from
 * the ledger (decision 0041). Runs on the embedded database and on PostgreSQL (DATABASE_URL).
 */
const sent: string[] = [];
let ctx: TestContext;

beforeAll(async () => {
  const database = await openTestDatabase({ logger: { logQuery: (query) => sent.push(query.replace(/\s+/g, ' ').trim()) } });
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z'), database });
});
afterAll(() => ctx.close());

const HEADER = 'name,class,section,father_name,monthly_bus_fee,enrollment_date,admission_number';
const CLASSES = ['Class 5', 'Class 6', 'Nursery'];

function csvOf(count: number, seed: string): string {
  const rows = Array.from({ length: count }, (_, i) =>
    [`Pupil ${seed}${i}`, CLASSES[i % 3], 'ABC'[i % 3 === 0 ? 0 : (i >> 2) % 3], `Father ${seed}${i}`, i % 4 === 0 ? '450.50' : '0', i % 5 === 0 ? '2025-09-10' : '', i % 7 === 0 ? `${seed}-${i}` : ''].join(','),
  );
  return [HEADER, ...rows].join('\n');
}

async function importOf(count: number, seed: string) {
  const school = await signUpSchool(ctx, { selectedPlan: 'premium' });
  const db = ctx.database.db;
  await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025, className: 'Class 6', tuition: 1700 });
  sent.length = 0;
  const res = await school.api.post('/api/students/bulk-progress', { csv: csvOf(count, seed) });
  expect(res.statusCode).toBe(200);
  const complete = JSON.parse(res.body.trim().split('\n\n').at(-1)!.slice('data: '.length));
  expect(complete.result).toMatchObject({ imported: count, errors: [] });
  const statements = sent.filter((q) => !/^(begin|commit)$/i.test(q) && !/auth_sessions|mail_outbox|message_outbox/.test(q));
  return { school, statements };
}

describe('bulk import batches', () => {
  it('send the same statements for 100 rows as for 1,000 (50 batches of 2 or of 20), and store balances equal to recomputation', async () => {
    const small = await importOf(100, 'S');
    const large = await importOf(1_000, 'L');
    expect(large.statements.length, large.statements.join('\n')).toBe(small.statements.length);
    // per batch: the lock, one read, the roll numbers, one write of students, enrollments, balances and audit
    const writes = large.statements.filter((q) => q.startsWith('with new_students as'));
    expect(writes).toHaveLength(50);
    for (const table of ['student_enrollments', 'student_session_balances', 'student_balances', 'audit_log']) expect(writes[0]).toContain(table);
    // roll numbers from the counters alone, synced once before the batches: a batch that read the
    // enrollments per class and section could walk the school's every enrollment for each of them
    const numbering = large.statements.filter((q) => q.startsWith('insert into "roll_counters"'));
    expect(numbering).toHaveLength(51);
    expect(numbering.filter((q) => q.includes('student_enrollments'))).toHaveLength(1);
    for (const { school } of [small, large]) {
      const verified = await verifySchoolBalances(ctx.database.db, school.schoolId);
      expect(verified.differences).toEqual([]);
      expect(verified.rows).toBeGreaterThan(0);
    }
  });
});
