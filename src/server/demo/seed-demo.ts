import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { EXPENSE_CATEGORIES } from '../../domain/expenses';
import { aprilToMarchSession, indiaDate, sessionMonths } from '../../domain/sessions';
import { CLASSES } from '../../domain/classes';
import { expensesFor, paysMonth, paysYearly, payDay, structureOf, studentAt, tuitionShare } from './generate';
import { hashPassword } from '../auth/passwords';
import type { Db } from '../db/client';
import { schools, users } from '../db/schema';
import { rowsOf } from '../lib/sql-rows';

/**
 * A demo school with a realistic year and a half, written through the app's own API (students,
 * fee structures, monthly and yearly saves, Record Fee Payment, a cancelled receipt, expenses,
 * and the session rollover), so every receipt, balance and audit row is a real one. The shape
 * of the school comes from ./generate.ts, which also feeds the benchmark at scale.
 */

export interface DemoOptions {
  email: string;
  password: string;
  schoolName: string;
  students: number;
  now: Date;
  log: (line: string) => void;
}

export interface DemoResult {
  email: string;
  password: string;
  schoolId: string;
  students: number;
  receipts: number;
}

type Json = Record<string, unknown>;

function caller(app: FastifyInstance, token: string) {
  return async (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown): Promise<Json> => {
    const res = await app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { payload: body as object }) });
    if (res.statusCode >= 400) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
    return res.json() as Json;
  };
}

const details = (i: number) =>
  i % 10 === 0
    ? { paymentMode: 'upi', upiReference: `UPI${String(400000000 + i * 97)}` }
    : i % 10 === 5
      ? { paymentMode: 'cheque', chequeNumber: String(100200 + i), bankName: i % 20 === 5 ? 'J&K Bank' : 'State Bank of India' }
      : { paymentMode: 'cash' };

export async function seedDemoSchool(app: FastifyInstance, db: Db, o: DemoOptions): Promise<DemoResult> {
  const today = indiaDate(o.now);
  const [taken] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from users where lower(email) = lower(${o.email})`));
  if (taken && taken.n > 0) throw new Error(`${o.email} already has an account here. Use a fresh DATA_DIR or set DEMO_EMAIL.`);

  // The school and its administrator, confirmed and on a paid plan, then a real sign-in.
  const [school] = await db
    .insert(schools)
    .values({
      name: o.schoolName,
      email: o.email,
      phone: '9419012345',
      address: 'Rajbagh, Srinagar, Jammu and Kashmir 190008',
      schoolCode: 'GVPS',
      subscriptionPlan: 'premium',
      subscriptionStatus: 'active',
      trialEndsAt: o.now,
      planStartDate: o.now,
      planEndDate: new Date(o.now.getTime() + 365 * 86_400_000),
      hasPaidSubscription: true,
    })
    .returning();
  await db.insert(users).values({
    schoolId: school!.id,
    email: o.email,
    username: 'Principal',
    passwordHash: await hashPassword(o.password),
    role: 'school_admin',
    schoolRole: 'owner',
    emailConfirmedAt: o.now,
    hasSeenOnboarding: true,
    isFirstLogin: false,
  });
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: o.email, password: o.password } });
  if (login.statusCode !== 200) throw new Error(`sign-in failed: ${login.body}`);
  const call = caller(app, (login.json() as { token: string }).token);

  const current = aprilToMarchSession(today);
  const previous = aprilToMarchSession(`${Number(current.startDate.slice(0, 4)) - 1}-06-01`);
  await call('POST', '/api/academic-sessions', { sessionName: previous.name, startDate: previous.startDate, endDate: previous.endDate, isActive: true });
  o.log(`Session ${previous.name} created`);
  for (const className of CLASSES) await call('POST', '/api/class-fee-structures', { className, academicYear: previous.name, ...structureOf(className, 0) });

  // Last year's students; this year Class 12 leaves and a Nursery intake of the same size joins.
  const intake = Math.max(1, Math.round(o.students / CLASSES.length));
  const ids = new Map<number, string>();
  for (let i = 1; i <= o.students; i++) {
    const s = studentAt(i, o.students);
    const created = (await call('POST', '/api/students', {
      name: s.name,
      class: s.className,
      section: s.section,
      admissionNumber: s.admissionNumber,
      fatherName: s.fatherName,
      motherName: s.motherName,
      parentName: s.fatherName,
      parentPhone: s.parentPhone,
      mobileNumber: s.parentPhone,
      residence: s.residence,
      monthlyBusFee: s.busFee,
      enrollmentDate: previous.startDate,
    })) as { id: string };
    ids.set(i, created.id);
  }
  o.log(`${ids.size} students added to ${previous.name}`);
  let receipts = await payFees(call, { ids, session: previous, yearsAfterFirst: 0, last: 11, today });
  await addExpenses(call, previous, o.students, 11, today);
  o.log(`${previous.name}: ${receipts} receipts and a year of expenses`);

  // The new session: every student moves up a class and takes their dues along (ruling 9).
  const created = (await call('POST', '/api/academic-sessions', { sessionName: current.name, startDate: current.startDate, endDate: current.endDate, isActive: false })) as { id: string };
  await call('POST', `/api/academic-sessions/${created.id}/start`, { early: true });
  o.log(`Session ${current.name} started: students promoted, Class 12 graduated, balances carried forward`);
  for (const className of CLASSES) await call('POST', '/api/class-fee-structures', { className, academicYear: current.name, ...structureOf(className, 1) });
  for (let i = o.students + 1; i <= o.students + intake; i++) {
    const s = studentAt(i, o.students, 'Nursery');
    const created = (await call('POST', '/api/students', {
      name: s.name,
      class: 'Nursery',
      section: 'A',
      admissionNumber: s.admissionNumber,
      fatherName: s.fatherName,
      motherName: s.motherName,
      parentName: s.fatherName,
      parentPhone: s.parentPhone,
      mobileNumber: s.parentPhone,
      residence: s.residence,
      monthlyBusFee: s.busFee,
      enrollmentDate: current.startDate,
    })) as { id: string };
    ids.set(i, created.id);
  }
  const active = rowsOf<{ id: string; admission_number: string }>(
    await db.execute(sql`select id, admission_number from students where school_id = ${school!.id} and status = 'active'`),
  );
  const activeIds = new Map(active.map((r) => [Number(r.admission_number.slice(4)), r.id]));
  const last = sessionMonths(current.startDate, current.endDate).findIndex((m) => m.key === today.slice(0, 7));
  receipts += await payFees(call, { ids: activeIds, session: current, yearsAfterFirst: 1, last, today });

  // Some families clear last year's balance at the counter (Record Fee Payment).
  let cleared = 0;
  for (const [i, id] of activeIds) {
    if (i % 4 !== 0) continue;
    const owed = (await call('GET', `/api/students/${id}/outstanding-fees`)) as { previousBalance: { balance: string } };
    if (Number(owed.previousBalance.balance) <= 0) continue;
    await call('POST', '/api/fees', { studentId: id, fees: [{ type: 'previous_balance', amount: owed.previousBalance.balance }], paidOn: today, clientId: `demo-prev-${i}`, ...details(i) });
    cleared += 1;
    receipts += 1;
  }
  // One receipt entered for the wrong student and cancelled, as happens.
  const [wrong] = rowsOf<{ id: string }>(
    await db.execute(sql`select id from receipts where school_id = ${school!.id} and prefix = 'MON' and academic_year = ${current.name} order by sequence desc limit 1`),
  );
  if (wrong) await call('POST', `/api/receipts/${wrong.id}/cancel`, { reason: 'Entered for the wrong student; fees re-entered on a new receipt' });
  await addExpenses(call, current, o.students, last, today);
  o.log(`${current.name}: fees to ${today.slice(0, 7)}, ${cleared} previous balances cleared, one receipt cancelled, expenses`);
  return { email: o.email, password: o.password, schoolId: school!.id, students: activeIds.size, receipts };
}

async function payFees(
  call: ReturnType<typeof caller>,
  { ids, session, yearsAfterFirst, last, today }: { ids: Map<number, string>; session: { name: string; startDate: string; endDate: string }; yearsAfterFirst: number; last: number; today: string },
): Promise<number> {
  const months = sessionMonths(session.startDate, session.endDate);
  let receipts = 0;
  for (const [i, studentId] of ids) {
    const student = (await call('GET', `/api/students/${studentId}`)) as { class: string; monthlyBusFee: string | number };
    const fees = structureOf(student.class as (typeof CLASSES)[number], yearsAfterFirst);
    const bus = Number(student.monthlyBusFee);
    const tuition = Math.floor((fees.monthlyTuitionFee * tuitionShare(i)) / 100);
    for (let q = 0; q * 3 <= last; q++) {
      const entries = [];
      for (let m = q * 3; m < Math.min(q * 3 + 3, last + 1); m++) {
        if (!paysMonth(i, m, last)) continue;
        const date = `${months[m]!.key}-${String(payDay(i)).padStart(2, '0')}`;
        const paidOn = date > today ? today : date;
        entries.push({ month: months[m]!.month, year: months[m]!.year, tuitionFee: tuition, tuitionDate: paidOn, busFee: bus > 0 ? bus : null, busDate: bus > 0 ? paidOn : null });
      }
      if (entries.length === 0) continue;
      await call('POST', '/api/monthly-fee-entries/bulk', { studentId, academicYear: session.name, entries, clientId: `demo-${session.name}-${i}-q${q}`, receivedBy: 'Accounts Office', ...details(i) });
      receipts += 1;
    }
    const heads = ['admission', 'exam', 'books', 'uniform', 'misc'] as const;
    const amounts = [fees.yearlyFee, fees.examFee, fees.booksFee, fees.uniformFee, fees.miscFee];
    const body: Record<string, unknown> = { studentId, academicYear: session.name, clientId: `demo-${session.name}-${i}-yearly`, receivedBy: 'Accounts Office', ...details(i) };
    let any = false;
    heads.forEach((h, k) => {
      if (!paysYearly(i, k)) return;
      const date = `${months[0]!.key}-${String(payDay(i)).padStart(2, '0')}`;
      body[`${h}Fee`] = amounts[k];
      body[`${h}Date`] = date > today ? today : date;
      any = true;
    });
    if (any) {
      await call('POST', '/api/yearly-fee-entries', body);
      receipts += 1;
    }
  }
  return receipts;
}

async function addExpenses(call: ReturnType<typeof caller>, session: { startDate: string; endDate: string }, students: number, last: number, today: string) {
  for (const e of expensesFor(session, students, last, today)) {
    if (!(EXPENSE_CATEGORIES as readonly string[]).includes(e.category)) throw new Error(`unknown category ${e.category}`);
    await call('POST', '/api/expenses', { ...e, amount: String(e.amount) });
  }
}

export const demoEmail = () => process.env.DEMO_EMAIL ?? 'principal@greenvalley.demo';
export const demoPassword = () => process.env.DEMO_PASSWORD ?? 'GreenValley2026';
