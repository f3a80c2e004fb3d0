import { createHash, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

export type TokenKind = 'session' | 'remember';

export interface TokenPayload {
  sid: string;
  uid: string;
  schoolId: string | null;
  role: 'school_admin' | 'master_admin';
  kind: TokenKind;
}

/** Signed bearer tokens (HS256). Each names a row in auth_sessions that must still be live. */
export class TokenSigner {
  private readonly key: Uint8Array;
  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(payload: TokenPayload, expiresAt: Date, issuedAt: Date): Promise<string> {
    return new SignJWT({ ...payload })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /** Returns the payload and the token's own expiry, or null when the signature or expiry fails. */
  async verify(token: string, now: Date): Promise<(TokenPayload & { expiresAt: Date | null }) | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: now,
      });
      if (typeof payload.sid !== 'string' || typeof payload.uid !== 'string') return null;
      // only the two kinds this server issues: a token of a retired kind (the old payment-only
      // 'quick' token) must never be read as a full session
      if (payload.kind !== 'session' && payload.kind !== 'remember') return null;
      return {
        sid: payload.sid,
        uid: payload.uid,
        schoolId: typeof payload.schoolId === 'string' ? payload.schoolId : null,
        role: payload.role === 'master_admin' ? 'master_admin' : 'school_admin',
        kind: payload.kind,
        expiresAt: typeof payload.exp === 'number' ? new Date(payload.exp * 1000) : null,
      };
    } catch {
      return null;
    }
  }
}

/** Random single-use token for links in mail; only its SHA-256 is stored. */
export function newMailToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashMailToken(token) };
}

export function hashMailToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
