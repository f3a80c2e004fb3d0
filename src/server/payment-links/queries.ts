import { and, desc, eq, gt, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { toRupeeString, type Paise } from '../../domain/money';
import { LINK_FEE_TYPES, linkStatus, type LinkStatus } from '../../domain/payment-links';
import type { Db } from '../db/client';
import { paymentLinks, receipts, students } from '../db/schema';
import { linkUrl } from './create';

export type LinkRow = typeof paymentLinks.$inferSelect;

export const paymentLinkRowDto = z.object({
  id: z.string(),
  linkToken: z.string(),
  url: z.string(),
  studentId: z.string(),
  studentName: z.string(),
  className: z.string(),
  section: z.string(),
  rollNumber: z.number().int(),
  feeType: z.enum(LINK_FEE_TYPES),
  feeMonth: z.string().nullable(),
  amount: z.string().describe('rupees, "1500.00"'),
  description: z.string(),
  status: z.enum(['active', 'paid', 'expired', 'cancelled']),
  expiresAt: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  receiptId: z.string().nullable(),
  receiptNumber: z.string().nullable(),
});
export type PaymentLinkRowDto = z.infer<typeof paymentLinkRowDto>;

export interface LinkFilter {
  schoolId: string;
  studentId?: string;
  status?: LinkStatus;
  className?: string;
  ids?: string[];
  limit?: number;
}

function statusCondition(status: LinkStatus, now: Date): SQL {
  if (status === 'active') return and(eq(paymentLinks.status, 'active'), gt(paymentLinks.expiresAt, now))!;
  if (status === 'expired') return and(eq(paymentLinks.status, 'active'), lte(paymentLinks.expiresAt, now))!;
  return eq(paymentLinks.status, status);
}

/** Links of one school as the list shows them, newest first, with the student and the receipt. */
export async function listLinks(db: Db, f: LinkFilter, now: Date): Promise<PaymentLinkRowDto[]> {
  const rows = await db
    .select({
      link: paymentLinks,
      studentName: students.name,
      className: students.className,
      section: students.section,
      rollNumber: students.rollNumber,
      receiptNumber: receipts.receiptNumber,
    })
    .from(paymentLinks)
    .innerJoin(students, and(eq(students.id, paymentLinks.studentId), eq(students.schoolId, paymentLinks.schoolId)))
    .leftJoin(receipts, and(eq(receipts.id, paymentLinks.receiptId), eq(receipts.schoolId, paymentLinks.schoolId)))
    .where(
      and(
        eq(paymentLinks.schoolId, f.schoolId),
        f.studentId ? eq(paymentLinks.studentId, f.studentId) : undefined,
        f.status ? statusCondition(f.status, now) : undefined,
        f.className ? sql`lower(${students.className}) = lower(${f.className})` : undefined,
        f.ids ? inArray(paymentLinks.id, f.ids) : undefined,
      ),
    )
    .orderBy(desc(paymentLinks.createdAt), desc(paymentLinks.id))
    .limit(f.limit ?? 500);
  return rows.map((r) => ({
    id: r.link.id,
    linkToken: r.link.linkToken,
    url: linkUrl(r.link.linkToken),
    studentId: r.link.studentId,
    studentName: r.studentName,
    className: r.className,
    section: r.section,
    rollNumber: r.rollNumber,
    feeType: r.link.feeType as (typeof LINK_FEE_TYPES)[number],
    feeMonth: r.link.feeMonth,
    amount: toRupeeString(r.link.amountPaise as Paise),
    description: r.link.description,
    status: linkStatus(r.link.status, r.link.expiresAt, now),
    expiresAt: r.link.expiresAt.toISOString(),
    createdAt: r.link.createdAt.toISOString(),
    paidAt: r.link.paidAt?.toISOString() ?? null,
    receiptId: r.link.receiptId,
    receiptNumber: r.receiptNumber ?? null,
  }));
}

/** A link by its public token; tokens are unique across schools. */
export async function findLinkByToken(db: Db, token: string): Promise<LinkRow | undefined> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  const [row] = await db.select().from(paymentLinks).where(eq(paymentLinks.linkToken, token)).limit(1);
  return row;
}
