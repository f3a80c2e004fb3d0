import { serializerCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshBalances } from '../balances/refresh';
import { previousBalances } from '../db/schema';
import { compiledSerializer } from '../lib/compiled-serializer';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { feeStatusDto } from './status-routes';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from './test-fixtures';

/**
 * Fee status is written by a serializer compiled from its zod schema (decision 0042) instead of the
 * zod serializer, which validates every field of every answer. This holds the two to the same bytes
 * for answers with every shape the schema has: month cards, concessions granted, a late fine with
 * lines, a balance carried from an earlier session, receipts, and a class with no fee structure.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
const students: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  const db = ctx.database.db;
  const { schoolId } = school;
  const earlier = await seedSession(db, { schoolId, name: '2024-2025', startDate: '2024-04-01', endDate: '2025-03-31', isActive: false });
  const session = await seedSession(db, { schoolId });
  await seedStructure(db, { schoolId, ...CLASS5_2025 });
  students.paying = (await seedStudent(db, { schoolId, sessionId: session.id, name: 'Farah Qadri', className: 'Class 5', busFee: 600 })).id;
  students.unstructured = (await seedStudent(db, { schoolId, sessionId: session.id, name: 'Gul Ahmad', className: 'Class 9' })).id;

  const entries = [
    { month: 'April', year: 2025, tuitionFee: 1500, tuitionDate: '2025-04-10', busFee: 600, busDate: '2025-04-10' },
    { month: 'May', year: 2025, tuitionFee: 1200, tuitionDate: '2025-05-20' },
  ];
  expect((await school.api.post('/api/monthly-fee-entries/bulk', { studentId: students.paying, academicYear: '2025-2026', entries })).statusCode).toBe(201);
  const type = await school.api.post('/api/concession-types', { name: 'Sibling', kind: 'percent', value: '10', heads: ['tuition', 'exam'] });
  const asked = await school.api.post('/api/concessions', { studentId: students.paying, typeId: type.json().id, academicYear: '2025-2026', fromMonth: '2025-07', reason: 'Elder sister in Class 8' });
  expect((await school.api.post(`/api/concessions/${asked.json().id}/approve`, { reason: 'Checked' })).statusCode).toBe(200);
  const rule = { enabled: true, dueDay: 10, graceDays: 5, mode: 'per_day', amount: '10', capPerMonth: '100', capPerSession: null, heads: ['tuition'] };
  expect((await school.api.put('/api/fee-rules/late-fine', rule)).statusCode).toBe(200);
  await db.insert(previousBalances).values({
    schoolId,
    studentId: students.paying,
    sessionId: earlier.id,
    academicYear: '2024-2025',
    className: 'Class 4',
    monthlyOutstandingPaise: 300_000,
    yearlyOutstandingPaise: 80_000,
    throughMonth: '2025-03',
    reason: 'rollover',
  });
  await refreshBalances(db, { schoolId, studentIds: [students.paying!] });
});
afterAll(() => ctx.close());

const zodWrite = serializerCompiler({ schema: feeStatusDto, method: 'GET', url: '/api/students/:id/fee-status' } as Parameters<typeof serializerCompiler>[0]);
const compiledWrite = compiledSerializer({ schema: feeStatusDto });

describe('the fee status serializer', () => {
  it('writes the same bytes as the zod serializer, whatever the answer holds', async () => {
    const paying = await school.api.get(`/api/students/${students.paying}/fee-status`);
    const unstructured = await school.api.get(`/api/students/${students.unstructured}/fee-status`);
    const earlier = await school.api.get(`/api/students/${students.paying}/fee-status?academicYear=2024-2025`);
    expect([paying.statusCode, unstructured.statusCode]).toEqual([200, 200]);
    const body = paying.json();
    // the answer has every shape: grants, fine lines, a carried balance, receipts, and a null structure
    expect(body.account.months[3].tuition.grants).toEqual([{ concessionId: expect.any(String), name: 'Sibling', amount: '150.00' }]);
    expect(body.fine.lines.length).toBeGreaterThan(0);
    expect(body.previousBalance).toMatchObject({ balance: '3800.00', balances: [{ academicYear: '2024-2025', reason: 'rollover', balance: '3800.00' }] });
    expect(body.receipts).toHaveLength(1);
    expect(unstructured.json().structure).toBeNull();
    // a session the student never sat in is refused, with the error serializer of the route
    expect(earlier.statusCode).toBe(400);
    expect(earlier.json()).toEqual({ error: 'Farah Qadri was not enrolled in the 2024-2025 session' });
    for (const res of [paying, unstructured]) {
      expect(zodWrite(JSON.parse(res.body))).toBe(res.body);
      expect(compiledWrite(JSON.parse(res.body))).toBe(res.body);
    }
  });

  it('leaves out what the schema does not declare, as the zod serializer does', async () => {
    const res = await school.api.get(`/api/students/${students.paying}/fee-status`);
    const withExtras = { ...res.json(), internal: 'not for the wire', student: { ...res.json().student, aadhaar: '1234' } };
    expect(compiledWrite(withExtras)).toBe(zodWrite(withExtras));
    expect(compiledWrite(withExtras)).toBe(res.body);
  });
});
