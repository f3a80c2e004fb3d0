import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { DEFAULT_BOARD, defaultSubjects, type Board } from '../../domain/boards';
import type { Db } from '../db/client';
import { results, schools, subjectListSeeds, subjects } from '../db/schema';
import { badRequest, conflict, notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import { isForeignKeyViolation, isUniqueViolation } from '../lib/pg-errors';

/**
 * Subject lists per school and class (issue 6): seeded once with the defaults of the school's board
 * for the class's band (issue 13, decision 0032), then the school's own.
 */

export interface SubjectRow {
  id: string;
  className: string;
  name: string;
  sortOrder: number;
  hasMarks: boolean;
}

export async function schoolBoard(db: Db, { schoolId }: { schoolId: string }): Promise<Board> {
  const [row] = await db.select({ board: schools.board }).from(schools).where(eq(schools.id, schoolId)).limit(1);
  return row?.board ?? DEFAULT_BOARD;
}

/**
 * Gives each class that has never had a list its board's defaults, in one statement: the seed
 * marker is claimed first, so two first readers cannot both seed, and a class whose subjects were
 * all removed is not seeded again. A list once seeded stays the school's own: changing the board
 * later seeds only the classes that never had one. The markers are claimed in class name order,
 * whatever order the classes were asked in: two first readers of the same classes in different
 * orders would otherwise each hold one marker and wait for the other's (a deadlock).
 */
export async function ensureSubjectLists(db: Db, { schoolId, classNames }: { schoolId: string; classNames: readonly string[] }): Promise<void> {
  if (classNames.length === 0) return;
  const unique = [...new Set(classNames)];
  const board = await schoolBoard(db, { schoolId });
  const classRows = sql.join(
    unique.map((c) => sql`(${schoolId}::uuid, ${c}::text)`),
    sql`, `,
  );
  const defaults = sql.join(
    unique.flatMap((c) => defaultSubjects(board, c).map((name, i) => sql`(${c}::text, ${name}::text, ${i + 1}::int)`)),
    sql`, `,
  );
  await db.execute(sql`
    with seeded as (
      insert into ${subjectListSeeds} (school_id, class_name)
      select v.school_id, v.class_name from (values ${classRows}) as v(school_id, class_name)
      order by v.class_name
      on conflict do nothing
      returning school_id, class_name
    )
    insert into ${subjects} (school_id, class_name, name, sort_order)
    select seeded.school_id, seeded.class_name, d.name, d.ord
    from seeded join (values ${defaults}) as d(class_name, name, ord) on d.class_name = seeded.class_name
    on conflict do nothing`);
}

// written with plain names: Drizzle leaves columns of a one-table select unqualified, which inside
// this subquery would bind to the results row instead
const hasMarks = sql<boolean>`exists (select 1 from results r where r.school_id = subjects.school_id and r.subject_id = subjects.id)`;

/** The subjects of some classes in their order, each with whether marks use it. */
export async function listSubjects(db: Db, { schoolId, classNames }: { schoolId: string; classNames: readonly string[] }): Promise<SubjectRow[]> {
  if (classNames.length === 0) return [];
  await ensureSubjectLists(db, { schoolId, classNames });
  return db
    .select({ id: subjects.id, className: subjects.className, name: subjects.name, sortOrder: subjects.sortOrder, hasMarks })
    .from(subjects)
    .where(and(eq(subjects.schoolId, schoolId), inArray(subjects.className, [...classNames])))
    .orderBy(asc(subjects.className), asc(subjects.sortOrder), asc(subjects.name));
}

/** Every subject name the school uses in any class, in their order, for callers that ask without a class. */
export async function listAllSubjectNames(db: Db, { schoolId }: { schoolId: string }): Promise<string[]> {
  const rows = await db
    .select({ name: subjects.name, order: sql<number>`min(${subjects.sortOrder})`.mapWith(Number) })
    .from(subjects)
    .where(eq(subjects.schoolId, schoolId))
    .groupBy(subjects.name)
    .orderBy(sql`min(${subjects.sortOrder})`, asc(subjects.name));
  // nothing seeded yet: the board's list for the middle school, the widest of the early bands
  const names: string[] = rows.length > 0 ? [] : [...defaultSubjects(await schoolBoard(db, { schoolId }), 'Class 6')];
  const seen = new Set(names.map((n) => n.toLowerCase()));
  for (const r of rows) {
    if (!seen.has(r.name.toLowerCase())) {
      seen.add(r.name.toLowerCase());
      names.push(r.name);
    }
  }
  return names;
}

const duplicate = (name: string, className: string) => conflict(`${name} is already a subject of ${className}`);

export async function addSubject(db: Db, { schoolId, className, name }: { schoolId: string; className: string; name: string }): Promise<SubjectRow> {
  await ensureSubjectLists(db, { schoolId, classNames: [className] });
  try {
    const [row] = await db
      .insert(subjects)
      .values({
        schoolId,
        className,
        name,
        sortOrder: sql`(select coalesce(max(s.sort_order), 0) + 1 from ${subjects} s where s.school_id = ${schoolId} and s.class_name = ${className})`,
      })
      .returning({ id: subjects.id, className: subjects.className, name: subjects.name, sortOrder: subjects.sortOrder });
    return { ...row!, hasMarks: false };
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(name, className);
    throw error;
  }
}

async function findSubject(db: Db, { schoolId, id }: { schoolId: string; id: string }) {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select({ id: subjects.id, className: subjects.className, name: subjects.name, sortOrder: subjects.sortOrder, hasMarks })
    .from(subjects)
    .where(and(eq(subjects.schoolId, schoolId), eq(subjects.id, id)))
    .limit(1);
  return row;
}

export async function renameSubject(
  db: Db,
  { schoolId, id, name, now }: { schoolId: string; id: string; name: string; now: Date },
): Promise<{ before: SubjectRow; after: SubjectRow }> {
  const before = await findSubject(db, { schoolId, id });
  if (!before) throw notFound('Subject not found');
  try {
    await db.update(subjects).set({ name, updatedAt: now }).where(and(eq(subjects.schoolId, schoolId), eq(subjects.id, id)));
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(name, before.className);
    throw error;
  }
  return { before, after: { ...before, name } };
}

/** Sets a class's order from the full list of its subject ids, first to last. */
export async function reorderSubjects(
  db: Db,
  { schoolId, className, subjectIds, now }: { schoolId: string; className: string; subjectIds: string[]; now: Date },
): Promise<SubjectRow[]> {
  const current = await listSubjects(db, { schoolId, classNames: [className] });
  const known = new Set(current.map((s) => s.id));
  const given = new Set(subjectIds);
  if (given.size !== subjectIds.length || given.size !== known.size || subjectIds.some((id) => !known.has(id))) {
    throw badRequest(`The new order must list every subject of ${className} exactly once`);
  }
  const order = sql.join(
    subjectIds.map((id, i) => sql`(${id}::uuid, ${i + 1}::int)`),
    sql`, `,
  );
  await db.execute(sql`
    update ${subjects} set sort_order = v.ord, updated_at = ${now.toISOString()}::timestamptz
    from (values ${order}) as v(id, ord)
    where subjects.id = v.id and subjects.school_id = ${schoolId}`);
  return listSubjects(db, { schoolId, classNames: [className] });
}

/** Removes a subject no marks use; a subject with marks is refused so no marks are orphaned. */
export async function removeSubject(db: Db, { schoolId, id }: { schoolId: string; id: string }): Promise<SubjectRow> {
  const row = await findSubject(db, { schoolId, id });
  if (!row) throw notFound('Subject not found');
  const [{ count } = { count: 0 }] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(results)
    .where(and(eq(results.schoolId, schoolId), eq(results.subjectId, id)));
  const inUse = (n: number) =>
    conflict(`${row.name} cannot be removed from ${row.className}: marks are already entered for it (${n} ${n === 1 ? 'entry' : 'entries'}).`);
  if (count > 0) throw inUse(count);
  try {
    await db.delete(subjects).where(and(eq(subjects.schoolId, schoolId), eq(subjects.id, id)));
  } catch (error) {
    // marks saved between the count and the delete: the foreign key keeps them from being orphaned
    if (isForeignKeyViolation(error)) throw inUse(1);
    throw error;
  }
  return row;
}
