import { activatePlan, seedSession, seedStructure, seedStudents } from '../fees/test-fixtures';
import { client, signUpSchool, type TestContext } from '../test/harness';

/**
 * For the tests of starting a session: a school in 2026-2027 (Class 5 at ₹1,000 a month, every
 * student named there, nothing paid) with 2027-2028 made and not started (Class 6 at ₹1,200), the
 * clock at 5 March 2027, the running year's last month, and signed in again at that date.
 */
export async function schoolBeforeStart(ctx: TestContext, names: readonly string[]) {
  let school = await signUpSchool(ctx);
  const db = ctx.database.db;
  await activatePlan(db, { schoolId: school.schoolId });
  const running = await seedSession(db, { schoolId: school.schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31' });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 5', academicYear: '2026-2027', tuition: 1000 });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 6', academicYear: '2027-2028', tuition: 1200 });
  const rows = await seedStudents(db, { schoolId: school.schoolId, sessionId: running.id, people: names.map((name) => ({ name, className: 'Class 5' })) });
  const ids: Record<string, string> = Object.fromEntries(rows.map((r) => [r.name, r.id]));
  const next = await school.api.post('/api/academic-sessions', { sessionName: '2027-2028', startDate: '2027-04-01', endDate: '2028-03-31', isActive: false });
  if (next.statusCode !== 201) throw new Error(`2027-2028 not made: ${next.statusCode} ${next.body}`);
  ctx.clock.set(new Date('2027-03-05T06:00:00.000Z'));
  const login = await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password });
  school = { ...school, api: client(ctx.app, login.json().token) };
  return { school, ids, nextId: next.json().id as string };
}
