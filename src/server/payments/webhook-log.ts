import type { Db } from '../db/client';
import { paymentWebhookEvents } from '../db/schema';

/**
 * Notes each webhook call, valid or not, for the System tab's "last webhook" (decision 0035).
 * A failure to note it never fails the webhook: the payment matters more than the record.
 */
export async function noteWebhook(db: Db, values: { provider: string; event: string | null; outcome: string; now: Date }): Promise<void> {
  try {
    await db.insert(paymentWebhookEvents).values({ provider: values.provider, event: values.event?.slice(0, 100) ?? null, outcome: values.outcome, receivedAt: values.now });
  } catch {
    // best effort
  }
}
