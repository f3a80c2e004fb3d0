/**
 * Who the receipt says took the money ("Received by"): the signed-in person's name unless they last
 * typed another one on this browser (a clerk writing the cashier's name all day). What is remembered
 * belongs to the person who typed it: on a shared office computer it never puts one person's choice
 * on another person's receipts.
 */

export interface CounterUser {
  id: string;
  /** the person's name: what the server prints when the box is empty */
  username: string;
}

export interface RememberedReceiver {
  userId: string;
  name: string;
}

/** The stored value, or null for nothing, a bad value or one kept before it named its user. */
export function parseRememberedReceiver(raw: string | null): RememberedReceiver | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object' && 'userId' in value && 'name' in value) {
      const { userId, name } = value as Record<string, unknown>;
      if (typeof userId === 'string' && typeof name === 'string' && name.trim()) return { userId, name: name.trim() };
    }
  } catch {
    // a plain name from before the value named its user: nobody's
  }
  return null;
}

/** What to store after a receipt is saved; null when the box was empty (nothing to remember). */
export function receiverToRemember(user: CounterUser | null, typed: string): RememberedReceiver | null {
  const name = typed.trim();
  return user && name ? { userId: user.id, name } : null;
}

/** The box's first value: the signed-in person's own last choice, else their name. */
export function initialReceiver(user: CounterUser | null, remembered: RememberedReceiver | null): string {
  if (!user) return '';
  if (remembered && remembered.userId === user.id) return remembered.name;
  return user.username;
}
