import { and, count, eq, sql } from 'drizzle-orm';
import { CLASSES } from '../src/domain/classes';
import { aprilToMarchSession, indiaDate, sessionMonths } from '../src/domain/sessions';
import { previousBalances, receiptLines, receipts, students } from '../src/server/db/schema';
import { seedSession, seedStructure, seedStudents } from '../src/server/fees/test-fixtures';
import { percentile } from './load';
import type { BenchContext, BenchRow } from './types';
import { rebuildSchoolBalances } from '../src/server/balances/refresh';

/**
 * Issue 4 speed targets: saving a 12-month grid (< 100 ms), the fee status of a student with five
 * sessions of history (< 50 ms), rolling a 5,000-student school into a new session (< 5 s, issue 14).
 */

interface Timing {
  p50: number;
  p99: number;
  perSecond: number;
  statuses: number[];
}

async function timeRequests(count: number, send: (i: number) => Promise<Response>): Promise<Timing> {
  const ms: number[] = [];
  const statuses: number[] = [];
  const began = performance.now();
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const res = await send(i);
    await res.arrayBuffer();
    ms.push(performance.now() - start);
    statuses.push(res.status);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 0.5, 1), p99: percentile(ms, 0.99, 1), perSecond: Math.round((count * 1000) / (performance.now() - began)), statuses };
}

const post = (ctx: BenchContext, token: string, path: string, body: unknown) =>
  fetch(`${ctx.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const get = (ctx: BenchContext, token: string, path: string) => fetch(`${ctx.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });

const startYear = (name: string) => Number(name.slice(0, 4));
const sessionNamed = (year: number) => ({ name: `${year}-${year + 1}`, startDate: `${year}-04-01`, endDate: `${year + 1}-03-31` });

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const today = indiaDate(ctx.clock.now());
  const current = aprilToMarchSession(today);

  // --- saving a 12-month grid ------------------------------------------------------------------
  {
    const school = await ctx.createSchool('Bench Fee Grid School');
    const session = await seedSession(ctx.db, { schoolId: school.schoolId, ...current });
    await seedStructure(ctx.db, { schoolId: school.schoolId, className: 'Class 5', academicYear: current.name, tuition: 1500, exam: 800 });
    const kids = await seedStudents(ctx.db, {
      schoolId: school.schoolId,
      sessionId: session.id,
      people: Array.from({ length: 200 }, (_, i) => ({ name: `Grid ${i + 1}`, className: 'Class 5', section: 'ABCDEF'[i % 6]!, busFee: 600 })),
    });
    const months = sessionMonths(current.startDate, current.endDate);
    const grid = (studentId: string, i: number) => ({
      studentId,
      academicYear: current.name,
      clientId: `bench-grid-${i}`,
      entries: months.map((m) => ({ month: m.month, year: m.year, tuitionFee: '1500', tuitionDate: today, busFee: '600', busDate: today, status: 'pending' })),
    });
    const timing = await timeRequests(kids.length, (i) => post(ctx, school.token, '/api/monthly-fee-entries/bulk', grid(kids[i]!.id, i)));
    const failed = timing.statuses.filter((s) => s !== 201).length;
    rows.push({
      name: 'POST /api/monthly-fee-entries/bulk, 12 months × tuition + bus (24 lines)',
      requestsPerSecond: timing.perSecond,
      p50Ms: timing.p50,
      p99Ms: timing.p99,
      errors: failed,
      target: 'p99 < 100 ms',
      met: failed === 0 && timing.p99 < 100,
      note: `${kids.length} saves one after another, each a new student`,
    });
  }

  // --- fee status with five sessions of history --------------------------------------------------
  {
    const school = await ctx.createSchool('Bench Fee History School');
    const first = startYear(current.name) - 4;
    const years = [0, 1, 2, 3, 4].map((k) => sessionNamed(first + k));
    const sessions = [];
    for (const [k, y] of years.entries()) {
      sessions.push(await seedSession(ctx.db, { schoolId: school.schoolId, ...y, isActive: k === 0 }));
      await seedStructure(ctx.db, { schoolId: school.schoolId, className: CLASSES[5 + k]!, academicYear: y.name, tuition: 1000 + 100 * k, yearly: 4000, exam: 700, books: 2000, uniform: 1500, misc: 300 });
    }
    const [kid] = await seedStudents(ctx.db, { schoolId: school.schoolId, sessionId: sessions[0]!.id, people: [{ name: 'History Student', className: CLASSES[5]!, busFee: 500 }] });
    for (const [k, y] of years.entries()) {
      const sessionMonthsOf = sessionMonths(y.startDate, y.endDate).filter((m) => m.key <= today.slice(0, 7));
      const paidOn = (key: string) => (`${key}-10` <= today ? `${key}-10` : today);
      const saved = await post(ctx, school.token, '/api/monthly-fee-entries/bulk', {
        studentId: kid!.id,
        academicYear: y.name,
        // a few months short each year, so the balances carried forward are real
        entries: sessionMonthsOf.slice(0, Math.max(1, sessionMonthsOf.length - 2)).map((m) => ({ month: m.month, year: m.year, tuitionFee: 1000 + 100 * k, tuitionDate: paidOn(m.key), busFee: 500, busDate: paidOn(m.key) })),
      });
      if (saved.status !== 201) throw new Error(`history save ${y.name}: ${saved.status} ${await saved.text()}`);
      const yearly = await post(ctx, school.token, '/api/yearly-fee-entries', { studentId: kid!.id, academicYear: y.name, admissionFee: 4000, admissionDate: paidOn(y.startDate.slice(0, 7)), examFee: 700, examDate: paidOn(y.startDate.slice(0, 7)) });
      if (yearly.status !== 201) throw new Error(`history yearly ${y.name}: ${yearly.status} ${await yearly.text()}`);
      if (k < years.length - 1) {
        const promoted = await post(ctx, school.token, `/api/students/${kid!.id}/promote`, { toClass: CLASSES[6 + k], toSession: years[k + 1]!.name, fromSession: y.name });
        if (promoted.status !== 200) throw new Error(`history promote ${y.name}: ${promoted.status} ${await promoted.text()}`);
      }
    }
    const path = `/api/students/${kid!.id}/fee-status`;
    const check = (await (await get(ctx, school.token, path)).json()) as { previousBalance: { balances: unknown[] }; receipts: unknown[] };
    const timing = await timeRequests(200, () => get(ctx, school.token, path));
    const failed = timing.statuses.filter((s) => s !== 200).length;
    rows.push({
      name: 'GET /api/students/:id/fee-status, five sessions of history',
      requestsPerSecond: timing.perSecond,
      p50Ms: timing.p50,
      p99Ms: timing.p99,
      errors: failed,
      target: 'p99 < 50 ms',
      met: failed === 0 && timing.p99 < 50,
      note: `${check.previousBalance.balances.length} carried balances, ${check.receipts.length} receipts this session; 200 requests one after another`,
    });
  }

  // --- rolling a 5,000-student school into a new session --------------------------------------------
  {
    const school = await ctx.createSchool('Bench Rollover School');
    const session = await seedSession(ctx.db, { schoolId: school.schoolId, ...current });
    for (const className of CLASSES) {
      await seedStructure(ctx.db, { schoolId: school.schoolId, className, academicYear: current.name, tuition: 1200, yearly: 3000, exam: 600 });
    }
    const people = Array.from({ length: 5_000 }, (_, i) => ({
      name: `Roll Student ${i + 1}`,
      className: CLASSES[i % CLASSES.length]!,
      section: 'ABCDEF'[Math.floor(i / CLASSES.length) % 6]!,
      busFee: i % 3 === 0 ? 450 : 0,
    }));
    await seedStudents(ctx.db, { schoolId: school.schoolId, sessionId: session.id, people });
    // two months of tuition received for every second student: one receipt each, two lines
    await ctx.db.execute(sql`
      insert into ${receipts} (school_id, receipt_number, prefix, academic_year, sequence, source, student_id, session_id, student_name, class_name,
                               section, roll_number, received_by, received_at, total_paise)
      select s.school_id, 'MON/' || ${current.name.slice(0, 5) + current.name.slice(7)} || '/' || lpad(n::text, 6, '0'), 'MON', ${current.name}, n, 'monthly',
             s.id, s.session_id, s.name, s.class_name, s.section, s.roll_number, 'Bench', now(), 240000
      from (select s.*, row_number() over (order by s.id) as n from ${students} s where s.school_id = ${school.schoolId}) s
      where n % 2 = 0`);
    await ctx.db.execute(sql`
      insert into ${receiptLines} (school_id, receipt_id, student_id, session_id, head, period, amount_paise, paid_on, position)
      select r.school_id, r.id, r.student_id, r.session_id, 'tuition', m.period, 120000, ${current.startDate}::date, m.position
      from ${receipts} r cross join (values (${months0(current)}, 0), (${months1(current)}, 1)) as m(period, position)
      where r.school_id = ${school.schoolId}`);
    await rebuildSchoolBalances(ctx.db, school.schoolId);
    const next = sessionNamed(startYear(current.name) + 1);
    const timed = await ctx.time(
      'POST /api/academic-sessions/:id/start: roll 5,000 students into a new session',
      async () => {
        const created = await post(ctx, school.token, '/api/academic-sessions', { sessionName: next.name, startDate: next.startDate, endDate: next.endDate, isActive: false });
        if (created.status !== 201) throw new Error(`creating the session answered ${created.status}: ${await created.text()}`);
        const { id } = (await created.json()) as { id: string };
        const res = await post(ctx, school.token, `/api/academic-sessions/${id}/start`, { early: true });
        if (res.status !== 200) throw new Error(`the start answered ${res.status}: ${await res.text()}`);
        return ((await res.json()) as { session: { isPromotionCompleted: boolean } }).session;
      },
      { ms: 5_000, label: '< 5 s' },
    );
    const [carried] = await ctx.db.select({ n: count() }).from(previousBalances).where(eq(previousBalances.schoolId, school.schoolId));
    const [passedOut] = await ctx.db.select({ n: count() }).from(students).where(and(eq(students.schoolId, school.schoolId), eq(students.status, 'passout')));
    timed.row.met = Boolean(timed.row.met) && timed.value.isPromotionCompleted && Number(carried!.n) === 5_000;
    timed.row.note = `${Number(carried!.n)} balances carried, ${Number(passedOut!.n)} Class 12 students to passouts, one transaction`;
    rows.push(timed.row);
  }
  return rows;
}

const months0 = (s: { startDate: string }) => s.startDate.slice(0, 7);
const months1 = (s: { startDate: string }) => sessionMonths(s.startDate, `${Number(s.startDate.slice(0, 4)) + 1}-03-31`)[1]!.key;
