import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { nameFatherClassKey, type DuplicateMatch } from '../../domain/student-import';
import type { Db } from '../db/client';
import { students } from '../db/schema';
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

/**
 * The school's students that each row may duplicate, in one query for the whole file: the keys
 * travel as one JSON parameter, matched on the normalised name, father's name and class, or on the
 * Aadhaar blind index. Only this school's students are read.
 */
export async function schoolDuplicates(db: Db, { schoolId, rows }: { schoolId: string; rows: CandidateRow[] }): Promise<Map<number, DuplicateMatch[]>> {
  const out = new Map<number, DuplicateMatch[]>();
  if (rows.length === 0) return out;
  const keys = rows.map((r) => ({ k: nameFatherClassKey(r.name, r.fatherName, r.class) }));
  const hashes = rows.map((r) => r.aadhaarHash).filter((h): h is string => Boolean(h));
  const found = rowsOf<{ id: string; name: string; father_name: string; class_name: string; section: string; aadhaar_hash: string | null; key: string }>(
    await db.execute(sql`
      select s.id, s.name, s.father_name, s.class_name, s.section, s.aadhaar_hash,
             lower(regexp_replace(btrim(s.name), '\\s+', ' ', 'g')) || '|' ||
             lower(regexp_replace(btrim(s.father_name), '\\s+', ' ', 'g')) || '|' || s.class_name as key
      from ${students} s
      where s.school_id = ${schoolId}
        and (
          lower(regexp_replace(btrim(s.name), '\\s+', ' ', 'g')) || '|' ||
          lower(regexp_replace(btrim(s.father_name), '\\s+', ' ', 'g')) || '|' || s.class_name
            in (select k.k from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(k text))
          or s.aadhaar_hash in (select jsonb_array_elements_text(${JSON.stringify(hashes)}::jsonb))
        )
      order by s.class_name, s.section, s.roll_number`),
  );
  const byKey = new Map<string, typeof found>();
  const byHash = new Map<string, typeof found>();
  for (const f of found) {
    byKey.set(f.key, [...(byKey.get(f.key) ?? []), f]);
    if (f.aadhaar_hash) byHash.set(f.aadhaar_hash, [...(byHash.get(f.aadhaar_hash) ?? []), f]);
  }
  const match = (rule: DuplicateMatch['rule'], f: (typeof found)[number]): DuplicateMatch => ({
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
