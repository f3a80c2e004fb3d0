import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../db/client';
import { academicSessions, auditLog, classFeeStructures, schools } from '../db/schema';
import { openTestDatabase } from '../test/harness';
import { read, readAtOnce, tableRead } from './read-at-once';

// runs on the embedded database, and on PostgreSQL with DATABASE_URL (its own database per file)
let database: Database;
let schoolId: string;

beforeAll(async () => {
  database = await openTestDatabase();
  const db = database.db;
  const [school] = await db.insert(schools).values({ name: 'Reads School', email: 'reads@school.test' }).returning({ id: schools.id });
  schoolId = school!.id;
  await db.insert(academicSessions).values([
    { schoolId, name: '2025-2026', startDate: '2025-04-01', endDate: '2026-03-31', isActive: true },
    { schoolId, name: '2024-2025', startDate: '2024-04-01', endDate: '2025-03-31', isActive: false },
  ]);
  await db.insert(classFeeStructures).values([
    // the largest integer a JSON number keeps exactly: paise stay far below it
    { schoolId, className: 'Class 5', academicYear: '2025-2026', monthlyTuitionFeePaise: 150_000, yearlyFeePaise: Number.MAX_SAFE_INTEGER, examFeePaise: 0, booksFeePaise: 0, uniformFeePaise: 0, miscFeePaise: 0 },
  ]);
  await db.insert(auditLog).values([
    { schoolId, action: 'a.object', entity: 'test', after: { total: 150_000, lines: [{ head: 'tuition' }] }, ip: '10.0.0.1' },
    // a JSON string that looks like a number stays a string
    { schoolId, action: 'b.string', entity: 'test', after: '123', before: null },
  ]);
});
afterAll(() => database.close());

/** The handle with its statements counted: what a round trip costs is a statement. */
function counted(db: Db): { db: Db; statements: () => number } {
  let n = 0;
  const handle = new Proxy(db, {
    get(target, key, receiver) {
      if (key === 'execute') {
        return (query: Parameters<Db['execute']>[0]) => {
          n += 1;
          return target.execute(query);
        };
      }
      if (key === '_') {
        // named prepared statements (lib/prepared.ts) go through the session, not execute
        const inner = target._;
        const session = new Proxy(inner.session, {
          get(s, k, r) {
            if (k !== 'prepareQuery') return Reflect.get(s, k, r) as unknown;
            return (...args: Parameters<typeof s.prepareQuery>) => {
              const prepared = s.prepareQuery(...args);
              return { execute: (...values: Parameters<typeof prepared.execute>) => ((n += 1), prepared.execute(...values)) };
            };
          },
        });
        return { ...inner, session };
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { db: handle, statements: () => n };
}

describe('readAtOnce', () => {
  it('answers many independent reads from one statement, each in its own order', async () => {
    const { db, statements } = counted(database.db);
    const out = await readAtOnce(db, {
      newestFirst: read(sql`select name from academic_sessions where school_id = ${schoolId} order by start_date desc`, (r) => String(r.name)),
      oldestFirst: read(sql`select name from academic_sessions where school_id = ${schoolId} order by start_date`, (r) => String(r.name)),
      none: read(sql`select name from academic_sessions where school_id = ${schoolId} and false`),
      count: read(sql`select count(*) as n from academic_sessions where school_id = ${schoolId}`, (r) => Number(r.n)),
    });
    expect(statements()).toBe(1);
    expect(out).toEqual({ newestFirst: ['2025-2026', '2024-2025'], oldestFirst: ['2024-2025', '2025-2026'], none: [], count: [2] });
  });

  it('gives rows as Drizzle does: camelCase, Dates, bigint paise as numbers, dates as strings, jsonb as stored', async () => {
    const db = database.db;
    const out = await readAtOnce(db, {
      sessions: tableRead(academicSessions, sql`select * from academic_sessions where school_id = ${schoolId} order by start_date`),
      structures: tableRead(classFeeStructures, sql`select * from class_fee_structures where school_id = ${schoolId}`),
      audit: tableRead(auditLog, sql`select * from audit_log where school_id = ${schoolId} order by id`),
    });
    expect(out.sessions).toEqual(await db.select().from(academicSessions).where(eq(academicSessions.schoolId, schoolId)).orderBy(asc(academicSessions.startDate)));
    expect(out.structures).toEqual(await db.select().from(classFeeStructures).where(eq(classFeeStructures.schoolId, schoolId)));
    const audit = await db.select().from(auditLog).where(eq(auditLog.schoolId, schoolId)).orderBy(asc(auditLog.id));
    expect(out.audit[0]).toEqual(audit[0]);
    // the one place it differs on purpose: Drizzle JSON.parses a jsonb string value again and reads
    // the stored string "123" as the number 123; here it stays what was stored
    expect({ ...out.audit[1], after: null }).toEqual({ ...audit[1], after: null });
    expect(out.sessions[0]!.createdAt).toBeInstanceOf(Date);
    expect(out.sessions[0]!.startDate).toBe('2024-04-01');
    expect(out.structures[0]!.yearlyFeePaise).toBe(Number.MAX_SAFE_INTEGER);
    expect(out.audit.map((a) => a.after)).toEqual([{ total: 150_000, lines: [{ head: 'tuition' }] }, '123']);
  });

  it('keeps a sum cast to text a string and an aggregate of bigints a number', async () => {
    const out = await readAtOnce(database.db, {
      sums: read(sql`
        select sum(monthly_tuition_fee_paise)::text as as_text, sum(monthly_tuition_fee_paise) as as_number, null::text as nothing
        from class_fee_structures where school_id = ${schoolId}`),
    });
    expect(out.sums).toEqual([{ as_text: '150000', as_number: 150000, nothing: null }]);
  });

  it('takes a row a subquery names, even one with a column named like the row', async () => {
    const out = await readAtOnce(database.db, { odd: read(sql`select 1 as read_row, 'x' as t`) });
    expect(out.odd).toEqual([{ read_row: 1, t: 'x' }]);
  });

  it('lets the reads share named common tables', async () => {
    const { db, statements } = counted(database.db);
    const out = await readAtOnce(
      db,
      {
        active: tableRead(academicSessions, sql`select * from chosen`),
        structures: read(
          sql`select s.class_name from class_fee_structures s where s.school_id = ${schoolId} and s.academic_year = (select name from chosen)`,
          (r) => String(r.class_name),
        ),
      },
      { with: { chosen: sql`select * from academic_sessions where school_id = ${schoolId} and is_active` } },
    );
    expect(statements()).toBe(1);
    expect(out.active.map((s) => s.name)).toEqual(['2025-2026']);
    expect(out.structures).toEqual(['Class 5']);
  });

  it('reads inside a transaction, seeing its own uncommitted rows', async () => {
    const names = await database.db.transaction(async (tx) => {
      await tx.insert(academicSessions).values({ schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31', isActive: false });
      return (await readAtOnce(tx, { names: read(sql`select name from academic_sessions where school_id = ${schoolId} order by start_date`, (r) => String(r.name)) })).names;
    });
    expect(names).toEqual(['2024-2025', '2025-2026', '2026-2027']);
  });
});
