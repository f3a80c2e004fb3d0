import { and, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { nameFatherClassKey, type DuplicateMatch } from '../../domain/student-import';
import type { Db } from '../db/client';
import { students } from '../db/schema';
import { duplicateKeySql } from './duplicate-key';
import type { FieldCipher } from '../lib/crypto';
import { rowsOf } from '../lib/sql-rows';

/**
 * Students stored before the blind index existed get it here, once: one read of the rows still
 * without it (none, after the first time) and one update for all of them.
 */
export async function backfillAadhaarHashes(db: Db, cipher: FieldCipher, schoolId: string): Promise<number> {
  const missing = await db
    .select({ id: students.id, encrypted: students.aadhaarEncrypted })
    .from(students)
    .where(and(eq(students.schoolId, schoolId), isNotNull(students.aadhaarEncrypted), isNull(students.aadhaarHash)));
  if (missing.length === 0) return 0;
  const values = sql.join(
    missing.map((m) => sql`(${m.id}::uuid, ${cipher.blindIndex('aadhaar', cipher.decrypt(m.encrypted!))}::text)`),
    sql`, `,
  );
  await db.execute(sql`
    update ${students} set aadhaar_hash = v.hash
    from (values ${values}) as v(id, hash)
    where students.id = v.id and students.school_id = ${schoolId}`);
  return missing.length;
}

export interface CandidateRow {
  row: number;
  name: string;
  fatherName: string;
  class: string;
  aadhaarHash: string | null;
}

/** A school's student a row may duplicate, as `schoolDuplicatesSql` answers it (either driver, or JSON). */
export interface FoundStudent {
  id: string;
  name: string;
  father_name: string;
  class_name: string;
  section: string;
  aadhaar_hash: string | null;
  key: string;
}

/**
 * The school's students that any of the rows may duplicate, in one query for all of them: the keys
 * travel as JSON parameters, matched on the normalised name, father's name and class
 * (`duplicateKeySql`), or on the Aadhaar blind index. Only this school's students are read.
 * `matchesByRow` says whom each row matches.
 *
 * Both arms are found through indexes that start with the school, as one bitmap: the key
 * (`students_school_duplicate_key_idx`) and the Aadhaar hashes (`students_school_aadhaar_hash_idx`).
 * An import's batch runs this under the student-adds lock (`runImport`), so it reads the batch's own
 * matches, not every student of the classes its rows name (decision 0110).
 */
export function schoolDuplicatesSql(schoolId: string, rows: readonly CandidateRow[]): SQL {
  const keys = [...new Set(rows.map((r) => nameFatherClassKey(r.name, r.fatherName, r.class)))];
  const hashes = rows.map((r) => r.aadhaarHash).filter((h): h is string => Boolean(h));
  const key = duplicateKeySql(sql`s.name`, sql`s.father_name`, sql`s.class_name`);
  return sql`
      select s.id, s.name, s.father_name, s.class_name, s.section, s.aadhaar_hash, ${key} as key
      from ${students} s
      where s.school_id = ${schoolId}
        and (
          ${key} = any(array(select jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb)))
          or s.aadhaar_hash = any(array(select jsonb_array_elements_text(${JSON.stringify(hashes)}::jsonb)))
        )
      order by s.class_name, s.section, s.roll_number`;
}

/** Whom each row may duplicate among `found` (what `schoolDuplicatesSql` answered for these rows); rows matching no one are left out. */
export function matchesByRow(rows: readonly CandidateRow[], found: readonly FoundStudent[]): Map<number, DuplicateMatch[]> {
  const out = new Map<number, DuplicateMatch[]>();
  const byKey = new Map<string, FoundStudent[]>();
  const byHash = new Map<string, FoundStudent[]>();
  for (const f of found) {
    byKey.set(f.key, [...(byKey.get(f.key) ?? []), f]);
    if (f.aadhaar_hash) byHash.set(f.aadhaar_hash, [...(byHash.get(f.aadhaar_hash) ?? []), f]);
  }
  const match = (rule: DuplicateMatch['rule'], f: FoundStudent): DuplicateMatch => ({
    rule,
    studentId: f.id,
    name: f.name,
    class: f.class_name,
    section: f.section,
    fatherName: f.father_name,
  });
  for (const r of rows) {
    const matches = [
      ...(byKey.get(nameFatherClassKey(r.name, r.fatherName, r.class)) ?? []).map((f) => match('name-father-class', f)),
      ...(r.aadhaarHash ? (byHash.get(r.aadhaarHash) ?? []) : []).map((f) => match('aadhaar', f)),
    ];
    if (matches.length > 0) out.set(r.row, matches);
  }
  return out;
}

/** The school's students that each row may duplicate (`schoolDuplicatesSql`), by row. */
export async function schoolDuplicates(db: Db, { schoolId, rows }: { schoolId: string; rows: CandidateRow[] }): Promise<Map<number, DuplicateMatch[]>> {
  if (rows.length === 0) return new Map();
  return matchesByRow(rows, rowsOf<FoundStudent>(await db.execute(schoolDuplicatesSql(schoolId, rows))));
}
