import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { createTestApp, type signUpSchool, type TestContext } from '../test/harness';
import { lockWaiters, schoolWithOneStudent, until } from '../test/races';
import { lockStudentAdds } from './queries';

/**
 * The same file imported twice at once: a re-upload after the browser lost the connection while the
 * first import kept running (a closed connection does not stop an import). Both checks for possible
 * duplicates ran before either import wrote anything; each batch checks again under the school's
 * student-adds lock, so the import that comes to a batch second finds the other's students and skips
 * them. The test holds that lock, in a transaction of its own, until both imports wait for it.
 * PostgreSQL only: the embedded database runs one statement at a time.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  ({ school } = await schoolWithOneStudent(ctx));
});
afterAll(() => ctx.close());

interface Outcome {
  imported: number;
  errors: Array<{ row: number; reason: string }>;
  skipped: Array<{ row: number; name: string; reason: string }>;
}

/** The `complete` event of a streamed import's answer. */
function resultOf(answer: { statusCode: number; body: string }): Outcome {
  expect(answer.statusCode, answer.body.slice(0, 300)).toBe(200);
  const events = answer.body
    .split('\n\n')
    .filter(Boolean)
    .map((chunk) => JSON.parse(chunk.slice('data: '.length)) as { type: string; result?: Outcome; message?: string });
  const last = events.at(-1)!;
  expect(last.type, last.message).toBe('complete');
  return last.result!;
}

const CSV = [
  'name,class,section,father_name',
  'Aarav Sharma,Class 3,A,Rakesh Sharma',
  'Mehak Jan,Class 3,A,Farooq Jan',
  'Ishaan Dar,Class 4,B,Bilal Dar',
  'Zoya Bhat,Class 4,B,Imran Bhat',
  'Rehan Mir,Class 6,A,Tariq Mir',
].join('\n');

const advisoryWaiters = (db: Db) => lockWaiters(db, ['advisory']);

describe('the same file imported twice at once', () => {
  it('adds each student once: the import that comes to a row second skips it as a possible duplicate', async () => {
    const answers: Array<{ statusCode: number; body: string }> = [];
    const db = ctx.database.db;
    await db.transaction(async (tx) => {
      await lockStudentAdds(tx, school.schoolId);
      // the first upload, then its re-upload once the first waits for the lock: both checked the
      // school for duplicates already, and found none
      void school.api.post('/api/students/bulk-progress', { csv: CSV }).then((r) => answers.push(r));
      await until(async () => (await advisoryWaiters(db)) >= 1);
      void school.api.post('/api/students/bulk-progress', { csv: CSV }).then((r) => answers.push(r));
      await until(async () => (await advisoryWaiters(db)) >= 2);
      expect(await advisoryWaiters(db)).toBe(2);
    });
    await until(() => answers.length === 2, 20);
    const [first, second] = answers.map(resultOf).sort((a, b) => b.imported - a.imported);

    // five rows are five batches of one; the imports take turns at the lock batch by batch, and the
    // one that comes to a row second skips it, in the words of the check before the import
    expect(first!.imported + second!.imported).toBe(5);
    for (const outcome of [first!, second!]) {
      expect(outcome.errors).toEqual([]);
      expect(outcome.imported + outcome.skipped.length).toBe(5);
    }
    const skipped = [...first!.skipped, ...second!.skipped].sort((a, b) => a.row - b.row);
    expect(skipped.map((s) => s.row)).toEqual([2, 3, 4, 5, 6]);
    expect(skipped[0]).toEqual({
      row: 2,
      name: 'Aarav Sharma',
      reason: "Skipped as a possible duplicate: Same name, father's name and class as Aarav Sharma, Class 3-A, already in the school",
    });
    expect(skipped[4]!.reason).toBe("Skipped as a possible duplicate: Same name, father's name and class as Rehan Mir, Class 6-A, already in the school");

    const list = (await school.api.get('/api/students?status=all')).json() as Array<{ name: string; class: string; section: string; rollNumber: number }>;
    expect(list.map((s) => `${s.name} ${s.class}-${s.section} ${s.rollNumber}`).sort()).toEqual([
      'Aarav Sharma Class 3-A 1',
      'Ishaan Dar Class 4-B 1',
      'Kabir Lone Class 5-A 1',
      'Mehak Jan Class 3-A 2',
      'Rehan Mir Class 6-A 1',
      'Zoya Bhat Class 4-B 2',
    ]);
  });
});
