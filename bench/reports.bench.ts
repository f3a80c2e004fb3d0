import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { indiaDate, sessionMonths } from '../src/domain/sessions';
import { rowsOf } from '../src/server/lib/sql-rows';
import { markSchoolChanged } from '../src/server/stats/versions';
import { generatedSchool, type BenchSchool } from './generate';
import type { BenchContext, BenchRow } from './types';
import { BROWSER_HEADERS, failedRequests } from './load';

/**
 * Issue 5 targets, for schools of ctx.sizes students (default 2,000 and 60,000) with three sessions
 * of fees, generated set-based with the demo's generator (src/server/demo/generate.ts) and rolled
 * over with the app's own rollover:
 *   school stats p99 < 100 ms (60,000) and < 20 ms (2,000) at 50 connections, zero errors;
 *   a year's financial report < 2 s (60,000).
 * Also measured: the class/section lookup, one student's fee status, saving a month grid and the
 * defaulters list. The targets are for PostgreSQL; the embedded figures are recorded beside them.
 */

async function fetchTimed(ctx: BenchContext, token: string, path: string) {
  const send = () => fetch(`${ctx.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  // PGlite runs on the event loop: after minutes of generation an idle keep-alive socket may be
  // closed under the first request (ECONNRESET); one retry on a new connection is honest enough
  const res = await send().catch(() => send());
  const body = await res.arrayBuffer();
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${Buffer.from(body).toString().slice(0, 200)}`);
  return body.byteLength;
}

/** Month-grid saves under load: each request a different student paying next month, so none is a replay. */
async function gridSaves(ctx: BenchContext, school: BenchSchool, label: string): Promise<BenchRow> {
  const session = school.sessions[2]!;
  const today = indiaDate(ctx.clock.now());
  const next = sessionMonths(session.startDate, session.endDate).find((m) => m.key > today.slice(0, 7));
  const students = rowsOf<{ id: string }>(
    await ctx.db.execute(sql`
      select e.student_id as id from student_enrollments e join students s on s.id = e.student_id and s.status = 'active'
      where e.school_id = ${school.schoolId} and e.session_id = ${session.id} order by e.class_name, e.section, e.roll_number limit 2000`),
  );
  if (!next || students.length === 0) return { name: label, note: 'no month left in the session to pay in advance' };
  let i = 0;
  const result = await autocannon({
    url: `${ctx.baseUrl}/api/monthly-fee-entries/bulk`,
    method: 'POST',
    connections: 50,
    amount: students.length,
    headers: { ...BROWSER_HEADERS, authorization: `Bearer ${school.token}`, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (req) => {
          const student = students[i % students.length]!;
          i += 1;
          return {
            ...req,
            body: JSON.stringify({
              studentId: student.id,
              academicYear: session.name,
              clientId: `bench-${session.name}-${student.id}-${next.key}`,
              entries: [{ month: next.month, year: next.year, tuitionFee: '1000', tuitionDate: today, busFee: null, busDate: null }],
            }),
          };
        },
      },
    ],
  });
  const errors = failedRequests(result);
  return {
    name: label,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors,
    note: `${students.length} saves, each a different student paying ${next.month} in advance`,
  };
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const size of ctx.sizes) {
    const n = size.toLocaleString('en-IN');
    ctx.log(`  generating a school of ${n} students with three sessions of fees…`);
    const shared = generatedSchool(ctx, size);
    const school = await shared.school;
    if (shared.first) rows.push(...school.rows);
    for (const r of school.rows) ctx.log(`  ${r.name}: ${r.ms} ms ${r.note ? `(${r.note})` : ''}`);
    const previous = school.sessions[1]!;

    // school stats: once cold (after a change), then under load
    await markSchoolChanged(ctx.db, school.schoolId);
    const cold = await ctx.time(`GET /api/stats/school, first after a change (${n} students)`, () => fetchTimed(ctx, school.token, '/api/stats/school'));
    rows.push(cold.row);
    // the issue's targets are for PostgreSQL; the embedded figures are recorded without a verdict
    const onPostgres = ctx.dbKind === 'postgres';
    const statsTarget = !onPostgres ? undefined : size >= 60_000 ? 100 : size <= 2_000 ? 20 : undefined;
    rows.push(
      await ctx.load({
        name: `GET /api/stats/school (${n} students)`,
        path: '/api/stats/school',
        token: school.token,
        ...(statsTarget ? { target: { p99Ms: statsTarget, label: `p99 < ${statsTarget} ms` } } : {}),
      }),
    );
    await fetchTimed(ctx, school.token, '/api/stats/charts');
    rows.push(await ctx.load({ name: `GET /api/stats/charts (${n} students)`, path: '/api/stats/charts', token: school.token, duration: 3 }));

    rows.push(
      await ctx.load({
        name: `GET /api/students?class=Class 5&section=A (${n} students)`,
        path: '/api/students?class=Class%205&section=A',
        token: school.token,
        duration: 3,
      }),
    );
    const [someone] = rowsOf<{ id: string }>(
      await ctx.db.execute(sql`select id from students where school_id = ${school.schoolId} and status = 'active' order by admission_number limit 1 offset 7`),
    );
    rows.push(await ctx.load({ name: `GET /api/students/:id/fee-status (${n} students)`, path: `/api/students/${someone!.id}/fee-status`, token: school.token, duration: 3 }));
    rows.push(await gridSaves(ctx, school, `POST /api/monthly-fee-entries/bulk, a month for one student (${n} students)`));

    const year = `/api/reports/financial?fromDate=${previous.startDate}&toDate=${previous.endDate}`;
    const financial = await ctx.time(
      `GET /api/reports/financial for a year (${n} students)`,
      () => fetchTimed(ctx, school.token, year),
      onPostgres && size >= 60_000 ? { ms: 2000, label: '< 2 s' } : undefined,
    );
    rows.push({ ...financial.row, note: `${Math.round(financial.value / 1024)} KB` });
    // slow requests: a fixed number of them, so each one's time is counted (a 5 s window would cut them off)
    rows.push(await ctx.load({ name: `GET /api/reports/financial for a year, 20 requests on 5 connections (${n} students)`, path: year, token: school.token, connections: 5, amount: 20 }));
    const xlsx = await ctx.time(`GET /api/reports/financial.xlsx for a year (${n} students)`, () => fetchTimed(ctx, school.token, year.replace('financial?', 'financial.xlsx?')));
    rows.push({ ...xlsx.row, note: `${Math.round(xlsx.value / 1024)} KB` });
    const defaulters = await ctx.time(`GET /api/reports/pending-fees, the defaulters list (${n} students)`, () => fetchTimed(ctx, school.token, '/api/reports/pending-fees'));
    rows.push({ ...defaulters.row, note: `${Math.round(defaulters.value / 1024)} KB` });
    rows.push(await ctx.load({ name: `GET /api/reports/pending-fees, 20 requests on 5 connections (${n} students)`, path: '/api/reports/pending-fees', token: school.token, connections: 5, amount: 20 }));
  }
  return rows;
}
