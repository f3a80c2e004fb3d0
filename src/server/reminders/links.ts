import type { Paise } from '../../domain/money';
import type { Db } from '../db/client';
import { createPaymentLink, findReusableLink } from '../payment-links/create';

export interface ReminderLink {
  id: string;
  url: string;
  amountPaise: Paise;
}

/**
 * The student's whole-outstanding payment link for a reminder: the active one whose amount still
 * equals what is owed, else a new one (pay contract). Throws the link module's 4xx errors (409
 * when nothing is due). Reminders never make links themselves.
 */
export async function outstandingLink(tx: Db, { schoolId, studentId, createdBy }: { schoolId: string; studentId: string; createdBy: string | null }, now: Date): Promise<ReminderLink> {
  const reusable = await findReusableLink(tx, { schoolId, studentId, feeType: 'outstanding' }, now);
  const link = reusable ?? (await createPaymentLink(tx, { schoolId, studentId, feeType: 'outstanding', createdBy }, now));
  return { id: link.id, url: link.url, amountPaise: link.amountPaise as Paise };
}
