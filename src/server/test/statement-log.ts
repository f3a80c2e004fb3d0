import type { Database } from '../db/client';
import { CLASS5_2025, seedSession, seedStructure, seedStudents } from '../fees/test-fixtures';
import { createTestApp, openTestDatabase, signUpSchool, type TestContext } from './harness';

/**
 * The school of the round-trip tests (issue 14): an app on `database` with the clock at 15 Nov 2025,
 * and a school of the 2025-2026 session with Class 5's fees and the named students in Class 5 (₹500 bus
 * unless `busFee` says otherwise).
 */
export async function class5School(database: Database, names: readonly string[], { busFee = 500 }: { busFee?: number } = {}) {
  const ctx: TestContext = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z'), database });
  const school = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  const people = names.map((name) => ({ name, className: 'Class 5', busFee }));
  const ids = (await seedStudents(db, { schoolId: school.schoolId, sessionId: session.id, people })).map((s) => s.id);
  return { ctx, school, sessionId: session.id, ids };
}

/**
 * The tests that count the statements a request sends (issue 14's round trips): an app on a
 * database whose every statement sent through the app's handle is recorded, whitespace folded, and a
 * school of the 2025-2026 session with Class 5's fees and the named students in Class 5 (₹500 bus).
 * On the embedded database PGlite's own BEGIN and COMMIT are not sent through the handle, so they are
 * left out on both databases.
 */
export async function schoolWithStatementLog(names: readonly string[]) {
  const sent: string[] = [];
  const database = await openTestDatabase({ logger: { logQuery: (query) => sent.push(query.replace(/\s+/g, ' ').trim()) } });
  const { ctx, school, sessionId, ids } = await class5School(database, names);

  /**
   * The statements `send` makes the app send, BEGIN and COMMIT left out. Also left out: the token's
   * session check, cached for 10 s (a loaded machine can outlast that between requests), the mail and
   * message senders, which poll their outboxes in the background on the same handle, and whatever
   * `alsoLeftOut` matches.
   */
  async function statementsOf<T>(send: () => Promise<T>, alsoLeftOut?: RegExp): Promise<{ answer: T; statements: string[] }> {
    sent.length = 0;
    const answer = await send();
    const statements = sent.filter((q) => !/^(begin|commit)$/i.test(q) && !/auth_sessions|mail_outbox|message_outbox/.test(q) && !alsoLeftOut?.test(q));
    return { answer, statements };
  }

  return { ctx, school, sessionId, ids, statementsOf };
}
