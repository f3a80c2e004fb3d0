import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';

export interface AuditEntry {
  action: string;
  entity: string;
  entityId?: string | null;
  before?: unknown;
  after?: unknown;
}

/**
 * Who acted: a signed-in request, the system on a school's behalf (a payment webhook), or a person
 * proven by a mailed link rather than a session (a password reset).
 */
export type AuditActor = FastifyRequest | { schoolId: string | null; userId?: string | null; ip?: string | null };

function isRequest(actor: AuditActor): actor is FastifyRequest {
  return 'headers' in actor;
}

/** The school, user and address an audit row names for an actor. */
export function auditWho(actor: AuditActor): { schoolId: string | null; userId: string | null; ip: string | null } {
  return isRequest(actor)
    ? { schoolId: actor.auth?.schoolId ?? null, userId: actor.auth?.userId ?? null, ip: actor.ip }
    : { schoolId: actor.schoolId, userId: actor.userId ?? null, ip: actor.ip ?? null };
}

/** Records who did what and from where; call inside the same transaction as the write. */
export async function audit(db: Db, actor: AuditActor, entry: AuditEntry): Promise<void> {
  const who = auditWho(actor);
  await db.insert(auditLog).values({
    ...who,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
