import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { authApi, ME_KEY, meQuery, type Me, type SessionAnswer } from '@/web/features/auth/api';
import {
  AUTH_TOKEN_KEY,
  clearBrowserState,
  clearTokens,
  decodeToken,
  getRememberToken,
  getToken,
  REMEMBER_TOKEN_KEY,
  setTokens,
} from '@/web/lib/auth-storage';
import { setUnauthorizedHandler } from '@/web/lib/request';

type Status = 'loading' | 'signed-in' | 'signed-out';

interface SessionValue {
  status: Status;
  me: Me | null;
  /** stores the new session and reloads into the app, so nothing of a previous user survives */
  completeSignIn(answer: SessionAnswer, to: string): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

/** How long after sign-in the page hard-reloads (platform §9). */
const RELOAD_DELAY_MS = 300;

/**
 * Session start-up (platform §4): read the stored token; without one, try the remember-me token;
 * drop an old token that names no school; ask the server who we are; if the server's school
 * differs from the token's, clear everything and reload.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [bootstrapped, setBootstrapped] = useState(false);
  const [hasToken, setHasToken] = useState(() => Boolean(getToken()));

  useEffect(() => {
    setUnauthorizedHandler(() => {
      clearTokens();
      queryClient.clear();
      setHasToken(false);
    });
  }, [queryClient]);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      let token = getToken();
      if (token) {
        const claims = decodeToken(token);
        if (!claims || (claims.role === 'school_admin' && !claims.schoolId)) {
          localStorage.removeItem(AUTH_TOKEN_KEY);
          token = null;
        }
      }
      if (!token) {
        const remember = getRememberToken();
        if (remember) {
          try {
            const answer = await authApi.rememberLogin(remember);
            setTokens(answer.token, answer.rememberToken);
            queryClient.setQueryData(ME_KEY, { user: answer.user, school: answer.school });
            token = answer.token;
          } catch {
            localStorage.removeItem(REMEMBER_TOKEN_KEY);
          }
        }
      }
      if (!cancelled) {
        setHasToken(Boolean(token));
        setBootstrapped(true);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [queryClient]);

  const me = useQuery({ ...meQuery(), enabled: bootstrapped && hasToken });

  useEffect(() => {
    if (me.isError) {
      clearTokens();
      setHasToken(false);
    }
  }, [me.isError]);

  useEffect(() => {
    const token = getToken();
    if (!me.data || !token) return;
    const claims = decodeToken(token);
    if (claims && claims.schoolId !== me.data.user.schoolId) {
      clearBrowserState();
      queryClient.clear();
      window.location.reload();
    }
  }, [me.data, queryClient]);

  const status: Status = !bootstrapped || (hasToken && me.isPending) ? 'loading' : hasToken && me.data ? 'signed-in' : 'signed-out';

  const completeSignIn = useCallback(
    (answer: SessionAnswer, to: string) => {
      clearBrowserState();
      setTokens(answer.token, answer.rememberToken);
      queryClient.clear();
      setTimeout(() => {
        const url = new URL(to, window.location.origin);
        url.searchParams.set('_', String(Date.now()));
        window.location.replace(url.toString());
      }, RELOAD_DELAY_MS);
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    try {
      await authApi.logout(getRememberToken());
    } finally {
      clearBrowserState();
      queryClient.clear();
      setHasToken(false);
    }
  }, [queryClient]);

  return (
    <SessionContext.Provider value={{ status, me: status === 'signed-in' ? (me.data ?? null) : null, completeSignIn, signOut }}>
      {children}
    </SessionContext.Provider>
  );
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The signed-in school administrator's data; only for pages behind the school guard. */
export function useSchoolSession(): Me & { school: NonNullable<Me['school']> } {
  const { me } = useSession();
  if (!me?.school) throw new Error('useSchoolSession outside a school page');
  return me as Me & { school: NonNullable<Me['school']> };
}
