/** Where the browser keeps its sign-in (platform §3): auth_token and remember_token in localStorage. */
export const AUTH_TOKEN_KEY = 'auth_token';
export const REMEMBER_TOKEN_KEY = 'remember_token';
export const THEME_KEY = 'theme';

export const getToken = () => localStorage.getItem(AUTH_TOKEN_KEY);
export const getRememberToken = () => localStorage.getItem(REMEMBER_TOKEN_KEY);

export function setTokens(token: string, rememberToken?: string): void {
  localStorage.setItem(AUTH_TOKEN_KEY, token);
  if (rememberToken) localStorage.setItem(REMEMBER_TOKEN_KEY, rememberToken);
}

export function clearTokens(): void {
  localStorage.removeItem(AUTH_TOKEN_KEY);
  localStorage.removeItem(REMEMBER_TOKEN_KEY);
}

/**
 * Wipes everything a previous user may have left in this browser (drafts, flags), keeping only
 * the theme and the tokens named in `keep`. Used at sign-in and sign-out.
 */
export function clearBrowserState(keep: Record<string, string | null> = {}): void {
  const theme = localStorage.getItem(THEME_KEY);
  localStorage.clear();
  sessionStorage.clear();
  if (theme) localStorage.setItem(THEME_KEY, theme);
  for (const [k, v] of Object.entries(keep)) if (v) localStorage.setItem(k, v);
}

export interface TokenClaims {
  schoolId: string | null;
  role: 'school_admin' | 'master_admin';
  exp?: number;
}

/** Reads the claims of the signed token without verifying it: the server verifies; this only routes. */
export function decodeToken(token: string): TokenClaims | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as Partial<TokenClaims>;
    if (claims.role !== 'school_admin' && claims.role !== 'master_admin') return null;
    return { schoolId: claims.schoolId ?? null, role: claims.role, exp: claims.exp };
  } catch {
    return null;
  }
}
