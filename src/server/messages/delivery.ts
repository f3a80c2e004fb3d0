import { and, eq, inArray, ne } from 'drizzle-orm';
import type { MessageChannel } from '../../domain/reminders';
import type { Db } from '../db/client';
import { messageOutbox } from '../db/schema';
import type { DeliveryReport } from './whatsapp-cloud';

/**
 * Applies a provider's delivery reports to the message log: `delivered` (with its time) or
 * `failed` (with the provider's reason). A report never steps a delivered message back (reports
 * arrive out of order: "sent" after "delivered"), and a report for an unknown id changes nothing.
 */
export async function applyDeliveryReports(db: Db, channel: MessageChannel, reports: DeliveryReport[], now: Date): Promise<number> {
  let changed = 0;
  for (const report of reports) {
    const match = and(eq(messageOutbox.channel, channel), eq(messageOutbox.providerMessageId, report.providerMessageId));
    if (report.status === 'delivered') {
      const rows = await db
        .update(messageOutbox)
        .set({ status: 'delivered', deliveredAt: now, nextAttemptAt: null })
        .where(and(match, ne(messageOutbox.status, 'delivered')))
        .returning({ id: messageOutbox.id });
      changed += rows.length;
    } else if (report.status === 'failed') {
      const rows = await db
        .update(messageOutbox)
        .set({ status: 'failed', lastError: report.error, lastFailedAt: now, nextAttemptAt: null })
        .where(and(match, inArray(messageOutbox.status, ['sending', 'sent'])))
        .returning({ id: messageOutbox.id });
      changed += rows.length;
    }
  }
  return changed;
}
