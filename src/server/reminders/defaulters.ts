import { sql } from 'drizzle-orm';
import { paise, type Paise } from '../../domain/money';
import type { Db } from '../db/client';
import { rowsOf } from '../lib/sql-rows';
import { ensurePositions, storedPositionsCte } from '../stats/student-positions';

export interface Defaulter {
  id: string;
  name: string;
  className: string;
  section: string;
  rollNumber: number;
  owedPaise: Paise;
}

/**
 * Active students who owe something till this month (ruling 6, the same set-based figure as the
 * Pending Fees report), optionally of one class and section, in class order; read from the
 * whole-school rows (decision 0058).
 */
export async function listDefaulters(db: Db, { schoolId, asOfMonth, className, section }: { schoolId: string; asOfMonth: string; className?: string | undefined; section?: string | undefined }): Promise<Defaulter[]> {
  await ensurePositions(db, { schoolId, month: asOfMonth });
  const rows = rowsOf<{ id: string; name: string; class_name: string; section: string; roll_number: number; owed: string }>(
    await db.execute(sql`
      with ${storedPositionsCte(schoolId)}
      select p.id, p.name, p.class_name, p.section, p.roll_number, p.owed::text as owed
      from pos p
      where p.owed > 0
        ${className ? sql`and lower(p.class_name) = lower(${className})` : sql``}
        ${section ? sql`and upper(p.section) = upper(${section})` : sql``}
      order by p.class_rank, p.section, p.roll_number, p.name`),
  );
  return rows.map((r) => ({ id: r.id, name: r.name, className: r.class_name, section: r.section, rollNumber: Number(r.roll_number), owedPaise: paise(Number(r.owed)) }));
}
