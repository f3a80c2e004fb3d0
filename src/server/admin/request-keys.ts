import { and, eq } from 'drizzle-orm';
import { CHANGE_TEXTS } from '../billing/changes';
import type { Db } from '../db/client';
import { subscriptionRequestKeys } from '../db/schema';
import { requestFingerprint } from '../fees/writer';
import { conflict } from '../lib/errors';

/**
 * Ruling 5 for the operator's subscription actions (Extend, Change Plan, Record Payment): the
 * portal's dialog sends a `clientId`, and the action is applied once per key. The key is read and
 * written under the school's row lock, in the action's transaction, so a second press or a retry
 * waits for the first and then finds its key.
 */
export interface RequestKey {
  clientId: string;
  /** the audit action the request makes */
  action: string;
  /** the fingerprint of the request's fields */
  hash: string;
}

export type KeptRequest = typeof subscriptionRequestKeys.$inferSelect;

/** The key of a request, or null when it came without a clientId (applied every time, as before). */
export function requestKey(clientId: string | null | undefined, action: string, fields: unknown): RequestKey | null {
  return clientId ? { clientId, action, hash: requestFingerprint(fields) } : null;
}

/**
 * The request this key already made, when it was this same request; 409 when the key was used for
 * another action or other fields. Call it after `lockSchool`.
 */
export async function earlierRequest(tx: Db, schoolId: string, key: RequestKey | null): Promise<KeptRequest | null> {
  if (!key) return null;
  const [kept] = await tx
    .select()
    .from(subscriptionRequestKeys)
    .where(and(eq(subscriptionRequestKeys.schoolId, schoolId), eq(subscriptionRequestKeys.clientId, key.clientId)))
    .limit(1);
  if (!kept) return null;
  if (kept.action !== key.action || kept.requestHash !== key.hash) throw conflict(CHANGE_TEXTS.requestKeyReused);
  return kept;
}

/**
 * Keeps the key with what the request did, in its transaction. Under the school's row lock no other
 * request can have written it since `earlierRequest` looked; were one ever to, the request is
 * refused as a reused key (409), never a unique violation's 500.
 */
export async function keepRequestKey(tx: Db, schoolId: string, key: RequestKey | null, now: Date, paymentId: string | null = null): Promise<void> {
  if (!key) return;
  const [kept] = await tx
    .insert(subscriptionRequestKeys)
    .values({ schoolId, clientId: key.clientId, action: key.action, requestHash: key.hash, paymentId, createdAt: now })
    .onConflictDoNothing({ target: [subscriptionRequestKeys.schoolId, subscriptionRequestKeys.clientId] })
    .returning({ clientId: subscriptionRequestKeys.clientId });
  if (!kept) throw conflict(CHANGE_TEXTS.requestKeyReused);
}
