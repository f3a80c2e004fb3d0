import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt } from 'drizzle-orm';
import { formatINR, toRupeeString, type Paise } from '../../domain/money';
import {
  linkDescription,
  linkDue,
  linkFeeProblem,
  type LinkFeeType,
  type LinkStatus,
  DEFAULT_LINK_DAYS,
  MAX_LINK_DAYS,
} from '../../domain/payment-links';
import { HEAD_LABELS, monthLabel } from '../../domain/ledger';
import { sessionMonths } from '../../domain/sessions';
import type { Db } from '../db/client';
import { paymentLinks } from '../db/schema';
import { badRequest, conflict } from '../lib/errors';
import { lockFor } from '../lib/locks';
import { loadStudentDues } from './dues';

/** Where a parent opens a link: the web app's public page (payweb). */
let appUrl = 'http://localhost:5000';
/** Set once at start-up from the configuration (APP_URL), so callers outside a request build the same URL. */
export function setLinkBaseUrl(url: string): void {
  appUrl = url.replace(/\/$/, '');
}
export const linkUrl = (token: string) => `${appUrl}/pay/${token}`;

/** 32 random bytes: 256 bits, unguessable (ruling 34 asks at least 128). */
export const newLinkToken = () => randomBytes(32).toString('base64url');

export interface CreatedLink {
  id: string;
  linkToken: string;
  url: string;
  amountPaise: Paise;
  feeType: LinkFeeType;
  feeMonth: string | null;
  expiresAt: Date;
  status: LinkStatus;
}

export interface CreateLinkArgs {
  schoolId: string;
  studentId: string;
  feeType: LinkFeeType;
  feeMonth?: string | null;
  amountPaise?: Paise | null;
  description?: string | null;
  expiresInDays?: number | null;
  createdBy: string | null;
}

const DAY_MS = 86_400_000;

function noDuesMessage(name: string, feeType: LinkFeeType, feeMonth: string | null): string {
  if (feeType === 'outstanding') return `${name} has no outstanding fees: there is nothing to ask for.`;
  const what = feeMonth ? `${HEAD_LABELS[feeType]} for ${monthLabel(feeMonth)}` : HEAD_LABELS[feeType];
  return `Nothing is due for ${name}'s ${what}: there is nothing to ask for.`;
}

/**
 * Makes a payment link for one student and one fee (ruling 34). The amount defaults to what is
 * due for that fee now and may not exceed it (ruling 26). Throws 400/404/409 with a message.
 */
export async function createPaymentLink(tx: Db, args: CreateLinkArgs, now: Date): Promise<CreatedLink> {
  const feeMonth = args.feeMonth ?? null;
  const days = args.expiresInDays ?? DEFAULT_LINK_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_LINK_DAYS) throw badRequest(`A payment link can be valid for 1 to ${MAX_LINK_DAYS} days`);
  const dues = await loadStudentDues(tx, { schoolId: args.schoolId, studentId: args.studentId, now });
  const months = dues.open ? sessionMonths(dues.session.startDate, dues.session.endDate).map((m) => m.key) : null;
  const problem = linkFeeProblem(args.feeType, feeMonth, months);
  if (problem) throw badRequest(problem);
  const due = linkDue({ feeType: args.feeType, feeMonth }, dues.account, dues.carried, dues.fine);
  if (due <= 0) throw conflict(noDuesMessage(dues.student.name, args.feeType, feeMonth));
  const amount = args.amountPaise ?? due;
  if (amount <= 0) throw badRequest('Amount must be more than zero');
  if (amount > due) {
    throw conflict(`Amount ${formatINR(amount)} is more than what is due for this fee (${formatINR(due)}). A fee cannot be paid twice.`, {
      due: toRupeeString(due),
    });
  }
  const token = newLinkToken();
  const [row] = await tx
    .insert(paymentLinks)
    .values({
      schoolId: args.schoolId,
      studentId: dues.student.id,
      linkToken: token,
      feeType: args.feeType,
      feeMonth,
      amountPaise: amount,
      description: args.description?.trim() || linkDescription(args.feeType, feeMonth),
      status: 'active',
      expiresAt: new Date(now.getTime() + days * DAY_MS),
      createdAt: now,
      createdBy: args.createdBy,
    })
    .returning();
  return toCreated(row!);
}

function toCreated(row: typeof paymentLinks.$inferSelect): CreatedLink {
  return {
    id: row.id,
    linkToken: row.linkToken,
    url: linkUrl(row.linkToken),
    amountPaise: row.amountPaise as Paise,
    feeType: row.feeType as LinkFeeType,
    feeMonth: row.feeMonth,
    expiresAt: row.expiresAt,
    status: row.status,
  };
}

/**
 * An active, unexpired `outstanding` link of the student whose amount still equals what they owe,
 * so reminders resend it instead of minting a new link each time; null otherwise.
 */
export async function findReusableLink(
  tx: Db,
  { schoolId, studentId, feeType }: { schoolId: string; studentId: string; feeType: 'outstanding' },
  now: Date,
): Promise<CreatedLink | null> {
  // until the caller's transaction ends: a link it then makes is found by the next look, so a
  // double click on the bulk action, or a reminder sent beside it, reuses one link instead of
  // each making its own for the same amount
  await lockFor(tx, `payment-link-outstanding:${studentId}`);
  const rows = await tx
    .select()
    .from(paymentLinks)
    .where(
      and(
        eq(paymentLinks.schoolId, schoolId),
        eq(paymentLinks.studentId, studentId),
        eq(paymentLinks.feeType, feeType),
        eq(paymentLinks.status, 'active'),
        gt(paymentLinks.expiresAt, now),
      ),
    )
    .orderBy(desc(paymentLinks.createdAt))
    .limit(5);
  if (rows.length === 0) return null;
  const dues = await loadStudentDues(tx, { schoolId, studentId, now });
  const due = linkDue({ feeType, feeMonth: null }, dues.account, dues.carried, dues.fine);
  const same = rows.find((r) => r.amountPaise === due);
  return same ? toCreated(same) : null;
}
