import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONTHLY_LOCKED_MESSAGE } from '../../domain/ledger';
import { receiptLines, receipts } from '../db/schema';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { CLASS5_2025, seedSession, seedStructure, seedStudents } from './test-fixtures';

/**
 * Simultaneous requests, as a busy fee counter or a flaky network produces them. On PostgreSQL
 * (DATABASE_URL set) these run on separate connections at the same time.
 */

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let kids: string[];

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  const rows = await seedStudents(db, {
    schoolId: school.schoolId,
    sessionId: session.id,
    people: Array.from({ length: 22 }, (_, i) => ({ name: `Student ${String(i + 1).padStart(2, '0')}`, className: 'Class 5' })),
  });
  kids = rows.map((r) => r.id);
});
afterAll(() => ctx.close());

const aprilLines = (studentId: string) =>
  ctx.database.db
    .select()
    .from(receiptLines)
    .where(and(eq(receiptLines.studentId, studentId), eq(receiptLines.period, '2025-04'), eq(receiptLines.head, 'tuition')));

const saveApril = (studentId: string, clientId: string, tuitionFee = 1500) =>
  school.api.post('/api/monthly-fee-entries/bulk', {
    studentId,
    academicYear: '2025-2026',
    clientId,
    entries: [{ month: 'April', year: 2025, tuitionFee, tuitionDate: '2025-04-10' }],
  });

describe('simultaneous saves', () => {
  it('twenty retries of one save (same clientId) write one receipt line', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => saveApril(kids[0]!, 'same-save')));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(19);
    expect(new Set(results.map((r) => r.json().receipt.receiptNumber)).size).toBe(1);
    expect(await aprilLines(kids[0]!)).toHaveLength(1);
  });

  it('twenty different saves of the same month (twenty clientIds) write one receipt line; the rest see the month locked', async () => {
    // twenty people typing twenty different amounts for April at the same moment
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => saveApril(kids[1]!, `browser-${i}`, 1000 + i)));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    const refused = results.filter((r) => r.statusCode !== 201);
    expect(refused).toHaveLength(19);
    for (const r of refused) {
      expect(r.statusCode).toBe(409);
      expect(r.json().error).toBe(MONTHLY_LOCKED_MESSAGE);
    }
    expect(await aprilLines(kids[1]!)).toHaveLength(1);
  });

  it('twenty simultaneous receipts get twenty consecutive numbers', async () => {
    const results = await Promise.all(
      kids.slice(2, 22).map((studentId) => school.api.post('/api/fees', { studentId, fees: [{ type: 'exam', amount: 800 }] })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const numbers = results.map((r) => r.json().receipt.receiptNumber as string).sort();
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => `FEE/2025-26/${String(i + 1).padStart(6, '0')}`));
    const stored = await ctx.database.db.select({ sequence: receipts.sequence }).from(receipts).where(and(eq(receipts.schoolId, school.schoolId), eq(receipts.prefix, 'FEE')));
    expect(stored.map((r) => r.sequence).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('a save refused in the middle of others takes no number: the numbering has no gap', async () => {
    const results = await Promise.all([
      saveApril(kids[5]!, 'ok-1'),
      saveApril(kids[6]!, 'ok-2'),
      // April is locked for this student: refused, and it must not use up a number
      saveApril(kids[1]!, 'late', 999),
      saveApril(kids[7]!, 'ok-3'),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 409]);
    const mon = await ctx.database.db.select({ sequence: receipts.sequence }).from(receipts).where(and(eq(receipts.schoolId, school.schoolId), eq(receipts.prefix, 'MON')));
    const seq = mon.map((r) => r.sequence).sort((a, b) => a - b);
    expect(seq).toEqual(Array.from({ length: seq.length }, (_, i) => i + 1));
  });
});
