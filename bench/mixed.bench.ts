import { sql } from 'drizzle-orm';
import { previousMonthKey } from '../src/domain/reports';
import { indiaDate, sessionMonths } from '../src/domain/sessions';
import { verifySchoolBalances } from '../src/server/balances/verify';
import { rowsOf } from '../src/server/lib/sql-rows';
import { ensurePositions } from '../src/server/stats/student-positions';
import { startChildServer } from './child';
import { generatedSchool, generateNew, type BenchSchool } from './generate';
import { openLoad, p99Row, type PlannedRequest } from './load';
import type { BenchContext, BenchRow } from './types';

/**
 * Issue 14 item 3, the clerk's day under load: 20 schools of 2,000 students and one of 60,000,
 * 200 connections for 60 s mixing lookups, rosters, fee status, grid saves, receipt PDFs, stats and
 * a report. The app runs in a CHILD PROCESS on the run's PostgreSQL database, so its peak resident
 * memory (VmHWM) is the server's alone, not this process's with autocannon in it.
 * --quick: 3 small schools and a 2,000-student one instead of 60,000, for 12 s.
 */

const PORT = Number(process.env.BENCH_CHILD_PORT ?? 5102);
/** the child's connections name themselves (node-postgres reads PGAPPNAME), so the run can end what they left running */
const CHILD_APP_NAME = 'ledger-bench-mixed-child';

interface MixSchool {
  token: string;
  pupils: Array<{ id: string; name: string; admissionNumber: string; className: string; section: string; rollNumber: number }>;
  receipts: string[];
  /** students who have not paid the month `month` yet: each grid save takes the next one */
  savers: string[];
  month: { month: string; year: number; key: string } | undefined;
  session: string;
}

async function prepare(ctx: BenchContext, school: BenchSchool, sample: number): Promise<MixSchool> {
  const session = school.sessions[2]!;
  const today = indiaDate(ctx.clock.now());
  const months = sessionMonths(session.startDate, session.endDate).filter((m) => m.key > today.slice(0, 7));
  // the month after next when there is one: the targets bench pays the last month and the stats bench the next
  const month = months[1] ?? months[0];
  const pupils = rowsOf<MixSchool['pupils'][number]>(
    await ctx.db.execute(sql`
      select s.id, s.name, s.admission_number as "admissionNumber", e.class_name as "className", e.section, e.roll_number as "rollNumber"
      from student_enrollments e join students s on s.id = e.student_id and s.status = 'active'
      where e.school_id = ${school.schoolId} and e.session_id = ${session.id} order by md5(s.id::text) limit ${sample}`),
  );
  const receipts = rowsOf<{ id: string }>(
    await ctx.db.execute(sql`select id from receipts where school_id = ${school.schoolId} and session_id = ${session.id} order by md5(id::text) limit 300`),
  ).map((r) => r.id);
  const savers = month
    ? rowsOf<{ id: string }>(
        await ctx.db.execute(sql`
          select e.student_id as id from student_enrollments e join students s on s.id = e.student_id and s.status = 'active'
          where e.school_id = ${school.schoolId} and e.session_id = ${session.id}
            and not exists (select 1 from receipt_lines l where l.school_id = e.school_id and l.student_id = e.student_id
                            and l.session_id = e.session_id and l.head = 'tuition' and l.period = ${month.key})
          order by md5(e.student_id::text)`),
      ).map((r) => r.id)
    : [];
  return { token: school.token, pupils, receipts, savers, month, session: session.name };
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  if (ctx.dbKind !== 'postgres' || !ctx.databaseUrl) {
    return [{ name: 'mixed load (item 3)', note: 'PostgreSQL only: run npm run bench:pg' }];
  }
  const smallCount = ctx.quick ? 3 : 20;
  const bigSize = ctx.quick ? 2_000 : 60_000;
  ctx.log(`  generating ${smallCount} schools of 2,000 students and one of ${bigSize.toLocaleString('en-IN')}…`);
  const began = performance.now();
  const generated: BenchSchool[] = [];
  for (let k = 0; k < smallCount; k++) generated.push(await generateNew(ctx, 2_000, `Bench Mixed School ${k + 1}`));
  const big = await generatedSchool(ctx, bigSize).school;
  const small = await Promise.all(generated.map((s) => prepare(ctx, s, 300)));
  const large = await prepare(ctx, big, 3_000);
  // the schools as they stood at the end of last month, their whole-school rows built for it: the
  // server's keeper builds this month's as a live server does at midnight (decision 0071)
  const lastMonth = previousMonthKey(indiaDate(ctx.clock.now()));
  for (const g of [...generated, big]) await ensurePositions(ctx.db, { schoolId: g.schoolId, month: lastMonth });
  const generation: BenchRow = { name: `mixed load: ${smallCount} schools × 2,000 + one of ${bigSize.toLocaleString('en-IN')} generated`, ms: Math.round(performance.now() - began) };

  const child = await startChildServer(ctx, { port: PORT, appName: CHILD_APP_NAME });
  const baseUrl = child.baseUrl;
  const duration = ctx.quick ? 12 : 60;
  // a third of the clerks work in the large school, the rest in the small ones
  const schoolFor = (i: number) => (i % 3 === 0 ? large : small[i % small.length]!);
  const saverAt = new Map<MixSchool, number>();
  const plans: Array<{ name: string; connections: number; interactive: boolean; next: (i: number) => PlannedRequest & { token: string } }> = [
    {
      name: 'lookups (name, admission number, roll number)',
      connections: 50,
      interactive: true,
      next: (i) => {
        const s = schoolFor(i);
        const p = s.pupils[i % s.pupils.length]!;
        const paths = [
          `/api/students?limit=50&q=${encodeURIComponent(p.name.split(' ')[1]!.slice(0, 5))}`,
          `/api/students?limit=50&q=${p.admissionNumber}`,
          `/api/students?class=${encodeURIComponent(p.className)}&section=${p.section}&rollNumber=${p.rollNumber}`,
        ];
        return { token: s.token, path: paths[i % 3]! };
      },
    },
    {
      name: 'class/section rosters and the student picked',
      connections: 20,
      interactive: true,
      // as the fee screens ask: a class and section's roll numbers, then the student picked from them (decision 0083)
      next: (i) => {
        const s = schoolFor(i);
        const p = s.pupils[Math.floor(i / 2) % s.pupils.length]!;
        const path = i % 2 === 0 ? `/api/students/roster?class=${encodeURIComponent(p.className)}&section=${p.section}` : `/api/students/roster/${p.id}`;
        return { token: s.token, path };
      },
    },
    {
      name: 'fee status',
      connections: 50,
      interactive: true,
      next: (i) => {
        const s = schoolFor(i);
        // as the Fee Status screen asks it: for the session picked (features/fees/api.ts)
        return { token: s.token, path: `/api/students/${s.pupils[i % s.pupils.length]!.id}/fee-status?academicYear=${encodeURIComponent(s.session)}` };
      },
    },
    {
      name: 'monthly grid saves',
      connections: 30,
      interactive: true,
      next: (i) => {
        const s = schoolFor(i);
        const k = saverAt.get(s) ?? 0;
        saverAt.set(s, k + 1);
        const studentId = s.savers[k % Math.max(1, s.savers.length)];
        if (!s.month || !studentId) return { token: s.token, path: '/api/stats/school' };
        return {
          token: s.token,
          method: 'POST',
          path: '/api/monthly-fee-entries/bulk',
          body: { studentId, academicYear: s.session, clientId: `mixed-${studentId}-${s.month.key}`, entries: [{ month: s.month.month, year: s.month.year, tuitionFee: '100', tuitionDate: indiaDate(ctx.clock.now()), busFee: null, busDate: null }] },
        };
      },
    },
    { name: 'school stats', connections: 30, interactive: true, next: (i) => ({ token: schoolFor(i).token, path: '/api/stats/school' }) },
    {
      name: 'receipt PDFs',
      connections: 16,
      interactive: false,
      next: (i) => {
        const s = schoolFor(i);
        return { token: s.token, path: `/api/receipts/${s.receipts[i % Math.max(1, s.receipts.length)]}/pdf` };
      },
    },
    {
      name: 'reports (defaulters list, class-wise)',
      connections: 4,
      interactive: false,
      next: (i) => ({ token: schoolFor(i).token, path: i % 2 === 0 ? '/api/reports/pending-fees' : '/api/reports/class-wise' }),
    },
  ];

  // BENCH_MIXED_SKIP=reports (names' beginnings, comma-separated) leaves those plans out, to see what
  // they cost the others (decision 0094); a run with it is not for publishing
  const skip = (process.env.BENCH_MIXED_SKIP ?? '').split(',').filter(Boolean);
  for (let k = plans.length - 1; k >= 0; k--) if (skip.some((w) => plans[k]!.name.startsWith(w))) plans.splice(k, 1);
  const rows: BenchRow[] = [
    generation,
    {
      name: 'mixed load: the month’s whole-school rows built by the server’s background keeper before the day',
      ms: child.monthBuiltMs,
      note: `${smallCount + 1} schools whose rows were built for last month; a live server builds this month's at midnight (decision 0071)`,
    },
  ];
  try {
    // the clerks' browsers are open before the day starts: every plan's connections are opened first,
    // then all 200 work from one moment (openLoad, decision 0060)
    const opened = await Promise.all(plans.map((plan) => openLoad({ name: plan.name, baseUrl, connections: plan.connections, duration, next: plan.next })));
    const results = await Promise.all(opened.map((load) => load.run()));
    const peak = child.memoryMb().peak;
    const errors = results.reduce((s, r) => s + r.errors, 0);
    const total = results.reduce((s, r) => s + r.total, 0);
    const interactive = results.filter((_, k) => plans[k]!.interactive);
    const worstP99 = Math.max(...interactive.map((r) => r.p99Ms));
    rows.push({ name: `mixed load: errors (200 connections, ${duration} s)`, measured: errors, unit: 'errors', target: '0', met: errors === 0, note: `${total} requests` });
    rows.push({
      name: 'mixed load: p99 of interactive routes (worst route)',
      measured: worstP99,
      unit: 'ms p99',
      target: '< 200 ms',
      met: worstP99 < 200,
      note: interactive.map((r, k) => `${plans.filter((p) => p.interactive)[k]!.name} ${r.p99Ms}`).join(', '),
    });
    rows.push({ name: 'mixed load: server memory peak (child process VmHWM)', measured: peak, unit: 'MB', target: '< 400 MB', met: peak < 400 });
    results.forEach((r, k) => rows.push(p99Row(`mixed load, ${plans[k]!.name} (${plans[k]!.connections} connections)`, r, undefined)));
  } finally {
    await child.stop();
  }
  // every school the scenario wrote to, recomputed from its receipts and compared with the stored balances
  const verified = await Promise.all([...generated, big].map((g) => verifySchoolBalances(ctx.db, g.schoolId)));
  const differences = verified.reduce((n, v) => n + v.differences.length, 0);
  const checked = verified.reduce((n, v) => n + v.rows, 0);
  rows.push({ name: 'mixed load: ledger verified after', target: '0 differences', measured: differences, unit: 'differences', met: differences === 0, note: `${checked} balance, position and income rows of ${verified.length} schools recomputed` });
  return rows;
}
