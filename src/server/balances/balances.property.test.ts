import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRupees } from '../../domain/money';
import { carryThroughMonth } from '../../domain/sessions';
import { academicSessions, previousBalances, students } from '../db/schema';
import { outstandingOfMany } from '../fees/balances';
import { seedSession } from '../fees/test-fixtures';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { verifySchoolBalances } from './verify';

/**
 * Decision 0041: the running balances are kept by every write. Random sequences of the writes a
 * school makes, through the real endpoints (monthly and yearly saves, Record Fee Payment, previous
 * balances, cancellations, fee-structure edits, student class and bus-fee edits, opening arrears
 * and months paid before go-live, promotion, discharge and the start of the next session), must
 * leave the stored rows and each day's income (decision 0089) equal to a recomputation from the
 * ledger, and stats, pending fees and fee status agreeing to the paisa.
 * A refused request (4xx) is part of the game: it must leave nothing behind.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-11-22T05:30:00.000Z') });
});
afterAll(() => ctx.close());

const P = (text: string) => parseRupees(text)!;
const MONTHS = ['April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December', 'January', 'February', 'March'] as const;
const YEARS = ['2025-2026', '2026-2027'] as const;
const CLASSES = ['Class 1', 'Class 2'] as const;

const who = fc.integer({ min: 0, max: 2 });
const op = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('monthly' as const), s: who, y: fc.integer({ min: 0, max: 1 }), m: fc.integer({ min: 0, max: 7 }), tuition: fc.integer({ min: 1, max: 1200 }), bus: fc.option(fc.integer({ min: 1, max: 400 }), { nil: null }) }), weight: 4 },
  fc.record({ kind: fc.constant('yearly' as const), s: who, y: fc.integer({ min: 0, max: 1 }), amount: fc.integer({ min: 1, max: 3000 }) }),
  { arbitrary: fc.record({ kind: fc.constant('payment' as const), s: who, type: fc.constantFrom('monthly', 'sports', 'previous_balance'), amount: fc.integer({ min: 1, max: 2500 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), s: who }), weight: 3 },
  fc.record({ kind: fc.constant('structure' as const), c: fc.integer({ min: 0, max: 1 }), y: fc.integer({ min: 0, max: 1 }), tuition: fc.constantFrom(500, 1000, 1750.5) }),
  fc.record({ kind: fc.constant('student' as const), s: who, c: fc.integer({ min: 0, max: 1 }), bus: fc.constantFrom(0, 300, 450.5) }),
  fc.record({ kind: fc.constant('opening' as const), s: who, amount: fc.integer({ min: 1, max: 5000 }) }),
  // months paid before go-live: a receipt whose lines settle dues but are not income (decision 0089)
  fc.record({ kind: fc.constant('openingMonths' as const), s: who, m: fc.integer({ min: 4, max: 9 }) }),
  fc.record({ kind: fc.constant('promote' as const), s: who }),
  fc.record({ kind: fc.constant('discharge' as const), s: who }),
  fc.record({ kind: fc.constant('rollover' as const) }),
);

describe('running balances under random writes', () => {
  it('stored rows equal the ledger, and stats, pending fees and fee status agree', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 24 }), async (ops) => {
        const school = await signUpSchool(ctx);
        const { api, schoolId } = school;
        const db = ctx.database.db;
        await seedSession(db, { schoolId, name: '2025-2026', startDate: '2025-04-01', endDate: '2026-03-31', isActive: true });
        const next = await seedSession(db, { schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31', isActive: false });
        const structures = new Map<string, string>();
        for (const academicYear of YEARS) {
          for (const className of [...CLASSES, 'Class 3']) {
            const res = await api.post('/api/class-fee-structures', { className, academicYear, monthlyTuitionFee: '1000', yearlyFee: '3000', examFee: '500', booksFee: '0', uniformFee: '0', miscFee: '0' });
            expect(res.statusCode, res.body).toBe(201);
            structures.set(`${className}|${academicYear}`, res.json().id);
          }
        }
        const ids: string[] = [];
        for (const k of [0, 1, 2]) {
          const res = await api.post('/api/students', { name: `Student ${k + 1}`, class: CLASSES[k % 2], section: 'A', monthlyBusFee: k === 1 ? '300' : '0', enrollmentDate: '2025-04-01' });
          expect(res.statusCode, res.body).toBe(201);
          ids.push(res.json().id);
        }
        const receipts = new Map<number, string[]>();
        let rolled = false;
        const year = (y: number) => (rolled ? YEARS[1] : YEARS[y]!);

        for (const o of ops) {
          let res;
          switch (o.kind) {
            case 'monthly': {
              const y = year(o.y);
              const date = y === YEARS[0] ? '2026-03-15' : '2026-11-20';
              const m = MONTHS[o.m]!;
              const calendarYear = o.m <= 8 ? Number(y.slice(0, 4)) : Number(y.slice(0, 4)) + 1;
              res = await api.post('/api/monthly-fee-entries/bulk', {
                studentId: ids[o.s], academicYear: y,
                entries: [{ month: m, year: calendarYear, tuitionFee: o.tuition, tuitionDate: date, busFee: o.bus, busDate: o.bus ? date : null }],
              });
              break;
            }
            case 'yearly': {
              const y = year(o.y);
              res = await api.post('/api/yearly-fee-entries', { studentId: ids[o.s], academicYear: y, admissionFee: o.amount, admissionDate: y === YEARS[0] ? '2025-05-05' : '2026-05-05' });
              break;
            }
            case 'payment':
              res = await api.post('/api/fees', { studentId: ids[o.s], fees: [{ type: o.type, amount: o.amount }], paidOn: rolled ? '2026-11-21' : '2026-03-20' });
              break;
            case 'cancel': {
              const id = receipts.get(o.s)?.pop();
              if (id) res = await api.post(`/api/receipts/${id}/cancel`, { reason: 'Entered by mistake' });
              break;
            }
            case 'structure': {
              const className = CLASSES[o.c]!;
              const academicYear = YEARS[o.y]!;
              res = await api.put(`/api/class-fee-structures/${structures.get(`${className}|${academicYear}`)}`, {
                className, academicYear, monthlyTuitionFee: o.tuition, yearlyFee: '3000', examFee: '500', booksFee: '0', uniformFee: '0', miscFee: '0',
              });
              break;
            }
            case 'student': {
              const before = (await api.get(`/api/students/${ids[o.s]}`)).json();
              if (before.status !== 'active') break;
              res = await api.put(`/api/students/${ids[o.s]}`, { ...before, aadharNumber: null, class: CLASSES[o.c], monthlyBusFee: o.bus });
              break;
            }
            case 'opening':
              res = await api.post('/api/opening-balances', { studentId: ids[o.s], amounts: { tuition: String(o.amount) } });
              break;
            case 'openingMonths':
              res = await api.post('/api/opening-balances', { studentId: ids[o.s], paidMonths: [`2025-0${o.m}`] });
              break;
            case 'promote': {
              const before = (await api.get(`/api/students/${ids[o.s]}`)).json();
              res = await api.post(`/api/students/${ids[o.s]}/promote`, { toClass: 'Class 3', toSession: YEARS[1], fromClass: before.class, fromSession: YEARS[0] });
              break;
            }
            case 'discharge':
              res = await api.post(`/api/students/${ids[o.s]}/discharge`, {});
              break;
            case 'rollover': {
              if (rolled) break;
              // what each moving student carries, recomputed from the ledger before the start (the
              // start reads it from the running balances)
              const [running] = await db.select().from(academicSessions).where(and(eq(academicSessions.schoolId, schoolId), eq(academicSessions.isActive, true)));
              const people = await db
                .select()
                .from(students)
                .where(and(eq(students.schoolId, schoolId), eq(students.status, 'active'), or(eq(students.sessionId, running!.id), isNull(students.sessionId))));
              const expected = await outstandingOfMany(db, { schoolId, session: running!, people, throughMonth: carryThroughMonth(running!.endDate, '2026-11-22') });
              res = await api.post(`/api/academic-sessions/${next.id}/start`, { early: true });
              if (res.statusCode !== 200) break;
              rolled = true;
              const recorded = await db
                .select()
                .from(previousBalances)
                .where(and(eq(previousBalances.schoolId, schoolId), eq(previousBalances.sessionId, running!.id), inArray(previousBalances.reason, ['rollover', 'graduation'])));
              const carriedOf = (id: string) => recorded.find((r) => r.studentId === id);
              expect(expected.map((c) => [c.studentId, carriedOf(c.studentId)?.monthlyOutstandingPaise, carriedOf(c.studentId)?.yearlyOutstandingPaise])).toEqual(
                expected.map((c) => [c.studentId, c.monthly, c.yearly]),
              );
              break;
            }
          }
          if (!res) continue;
          if (process.env.TALLY) console.log('TALLY', o.kind, res.statusCode, res.statusCode >= 400 ? res.body.slice(0, 120) : '');
          // a refusal is fine; a crash is not
          expect(res.statusCode, `${o.kind}: ${res.body}`).toBeLessThan(500);
          const receiptId = res.statusCode === 201 ? (res.json() as { receipt?: { id?: string } }).receipt?.id : undefined;
          if (receiptId && 's' in o) receipts.set(o.s, [...(receipts.get(o.s) ?? []), receiptId]);
          // after every write, not only at the end: a later write of the same student would heal a missed refresh
          const { differences } = await verifySchoolBalances(db, schoolId);
          expect(differences, `after ${o.kind} (${res.statusCode})`).toEqual([]);
        }

        // the stored rows are what the ledger says now
        expect((await verifySchoolBalances(db, schoolId)).differences).toEqual([]);

        // and every screen agrees with each student's own account
        let owed = 0;
        let withDues = 0;
        for (const id of ids) {
          const student = (await api.get(`/api/students/${id}`)).json();
          if (student.status !== 'active') continue;
          const out = (await api.get(`/api/students/${id}/outstanding-fees`)).json();
          owed += P(out.total);
          if (P(out.total) > 0) withDues += 1;
        }
        const stats = (await api.get('/api/stats/school')).json();
        expect(P(stats.pendingFees)).toBe(owed);
        expect(stats.pendingStudents).toBe(withDues);
        const pending = (await api.get('/api/reports/pending-fees')).json();
        expect(pending.tables[0].totals.total).toBe(stats.pendingFees);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 8), endOnFailure: true },
    );
  }, 600_000);
});
