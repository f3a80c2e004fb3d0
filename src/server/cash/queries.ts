import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import { CLOSING_MODES, type Closing, type ClosingMode, type DayCollections } from '../../domain/cash-closing';
import { paise, paiseFromRupees, toRupeeString } from '../../domain/money';
import type { Db } from '../db/client';
import { cashClosings } from '../db/schema';
import { rowsOf } from '../lib/sql-rows';
import { userNames } from '../staff/queries';

const rupees = (n: number) => toRupeeString(paise(n));

/** Receipts of one India day, as the day book reads them: a range on received_at the index serves. */
export const indiaDay = (column: ReturnType<typeof sql.raw>, date: string) =>
  sql`${column} >= ((${date}::date)::timestamp - interval '330 minutes') at time zone 'UTC' and ${column} < ((${date}::date + 1)::timestamp - interval '330 minutes') at time zone 'UTC'`;

/** A collector's live receipts of a day by mode; opening entries and credit moved no money that day. */
export async function dayCollections(db: Db, { schoolId, userId, date }: { schoolId: string; userId: string; date: string }) {
  const result = await db.execute(sql`
    select r.payment_mode as mode, count(*)::int as n, sum(r.total_paise)::bigint::text as total
    from receipts r
    where r.school_id = ${schoolId} and r.received_by_user_id = ${userId} and r.status = 'live'
      and r.source <> 'opening' and r.payment_mode <> 'credit' and ${indiaDay(sql.raw('r.received_at'), date)}
    group by r.payment_mode`);
  const rows = rowsOf<{ mode: string; n: number; total: string }>(result);
  const byMode = CLOSING_MODES.map((mode) => {
    const row = rows.find((r) => r.mode === mode);
    return { mode, count: row ? Number(row.n) : 0, total: Number(row?.total ?? 0) };
  });
  return { byMode, total: byMode.reduce((s, m) => s + m.total, 0), expectedCash: byMode.find((m) => m.mode === 'cash')!.total };
}

export function collectionsDto(
  date: string,
  user: { id: string; name: string },
  c: Awaited<ReturnType<typeof dayCollections>>,
  closing: Closing | null,
): DayCollections {
  return {
    date,
    userId: user.id,
    userName: user.name,
    byMode: c.byMode.map((m) => ({ mode: m.mode as ClosingMode, count: m.count, total: rupees(m.total) })),
    total: rupees(c.total),
    expectedCash: rupees(c.expectedCash),
    closing,
  };
}

type ClosingRow = typeof cashClosings.$inferSelect;

export async function listClosings(db: Db, { schoolId, from, to, userId, id }: { schoolId: string; from?: string; to?: string; userId?: string; id?: string }): Promise<Closing[]> {
  const rows = await db
    .select()
    .from(cashClosings)
    .where(
      and(
        eq(cashClosings.schoolId, schoolId),
        from ? gte(cashClosings.day, from) : undefined,
        to ? lte(cashClosings.day, to) : undefined,
        userId ? eq(cashClosings.userId, userId) : undefined,
        id ? eq(cashClosings.id, id) : undefined,
      ),
    )
    .orderBy(asc(cashClosings.day), asc(cashClosings.closedAt));
  const names = await userNames(db, { schoolId, userIds: [...new Set(rows.flatMap((r) => [r.userId, r.acknowledgedBy].filter((v): v is string => Boolean(v))))] });
  return rows.map((r) => toClosing(r, names));
}

export function toClosing(r: ClosingRow, names: Map<string, string>): Closing {
  return {
    id: r.id,
    date: r.day,
    userId: r.userId,
    userName: names.get(r.userId) ?? '',
    counts: r.counts,
    countedCash: rupees(r.countedPaise),
    expectedCash: rupees(r.expectedPaise),
    difference: rupees(r.countedPaise - r.expectedPaise),
    note: r.note,
    closedAt: r.closedAt.toISOString(),
    acknowledgedAt: r.acknowledgedAt?.toISOString() ?? null,
    acknowledgedBy: r.acknowledgedBy,
    acknowledgedByName: r.acknowledgedBy ? (names.get(r.acknowledgedBy) ?? null) : null,
  };
}

/** Whether the collector of a receipt has closed the India day it was written on. */
export async function isDayClosed(db: Db, { schoolId, userId, at }: { schoolId: string; userId: string | null; at: Date }): Promise<boolean> {
  if (!userId) return false;
  const [row] = await db
    .select({ id: cashClosings.id })
    .from(cashClosings)
    .where(and(eq(cashClosings.schoolId, schoolId), eq(cashClosings.userId, userId), sql`${cashClosings.day} = (${at.toISOString()}::timestamptz at time zone 'Asia/Kolkata')::date`))
    .limit(1);
  return Boolean(row);
}

/** Sums of closings per day and per user, differences included, for the closings report. */
export function closingSums(closings: Closing[]) {
  // the answer's own decimal strings, read back without floats
  const group = <K extends string>(key: (c: Closing) => K) => {
    const map = new Map<K, { counted: number; expected: number; closings: number; sample: Closing }>();
    for (const c of closings) {
      const g = map.get(key(c)) ?? { counted: 0, expected: 0, closings: 0, sample: c };
      g.counted += paiseFromRupees(c.countedCash);
      g.expected += paiseFromRupees(c.expectedCash);
      g.closings += 1;
      map.set(key(c), g);
    }
    return [...map.values()];
  };
  return {
    byDay: group((c) => c.date).map((g) => ({ date: g.sample.date, counted: rupees(g.counted), expected: rupees(g.expected), difference: rupees(g.counted - g.expected), closings: g.closings })),
    byUser: group((c) => c.userId).map((g) => ({
      userId: g.sample.userId,
      userName: g.sample.userName,
      counted: rupees(g.counted),
      expected: rupees(g.expected),
      difference: rupees(g.counted - g.expected),
      closings: g.closings,
    })),
  };
}
