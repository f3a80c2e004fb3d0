/**
 * What the session list says about promotion into a session. Only a later session that the school
 * has not started is "pending"; the first session and the earlier ones had no promotion to wait for,
 * so they show nothing (they used to say "Promotion pending" for ever).
 */
export type PromotionState = 'completed' | 'pending' | 'none';

interface SessionLike {
  isActive: boolean;
  isPromotionCompleted: boolean;
  startDate: string;
}

export function promotionState(session: SessionLike, active: SessionLike | null): PromotionState {
  if (session.isPromotionCompleted) return 'completed';
  if (active && !session.isActive && session.startDate > active.startDate) return 'pending';
  return 'none';
}
