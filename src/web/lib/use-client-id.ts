import { useCallback, useRef } from 'react';
import { newClientId } from '@/web/lib/ledger-api';

/**
 * The idempotency key of one save (ruling 5). The same request sent again (the helper's own
 * retries, or the person pressing Save again after a lost answer) carries the same key, so the
 * server applies it once; a changed request, or the next save after a success, gets a new key.
 */
export function useClientId() {
  const current = useRef<{ fingerprint: string; id: string } | null>(null);
  const keyFor = useCallback((request: unknown) => {
    const fingerprint = JSON.stringify(request);
    if (!current.current || current.current.fingerprint !== fingerprint) current.current = { fingerprint, id: newClientId() };
    return current.current.id;
  }, []);
  const done = useCallback(() => {
    current.current = null;
  }, []);
  /** Runs the save of `request` with its key added; once it has gone through, the next save gets a new key. */
  const send = useCallback(
    async <B extends object, R>(request: B, save: (keyed: B & { clientId: string }) => Promise<R>): Promise<R> => {
      const answer = await save({ ...request, clientId: keyFor(request) });
      done();
      return answer;
    },
    [keyFor, done],
  );
  return { keyFor, done, send };
}
