import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP) with node:crypto alone: HMAC-SHA1,
 * 30-second steps, 6 digits, the settings every authenticator app reads from an otpauth:// link
 * (decision 0035). Pure apart from the random secret; time comes in as an argument.
 */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** a code of the step before or after is accepted too: phone clocks drift and people type slowly */
export const TOTP_WINDOW = 1;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Reads a base32 secret as apps show it: any case, spaces and padding ignored. Null when not base32. */
export function base32Decode(text: string): Buffer | null {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  if (!clean || /[^A-Z2-7]/.test(clean)) return null;
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    value = (value << 5) | BASE32.indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new shared secret: 160 bits, the length RFC 4226 recommends for HMAC-SHA1, in base32. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** RFC 4226: the `digits`-digit code of one counter value. */
export function hotp(key: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The 30-second step a moment falls in. */
export function totpStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_STEP_SECONDS);
}

export function totpCode(secret: string, now: Date): string {
  const key = base32Decode(secret);
  if (!key) throw new Error('Invalid TOTP secret');
  return hotp(key, totpStep(now));
}

/**
 * Checks a typed code against the steps around `now`. Answers the step it matched, which the caller
 * stores so the same code (or an older one) cannot be used again; null when it matches none or
 * only steps at or before `lastStep`.
 */
export function verifyTotp(secret: string, code: string, now: Date, lastStep: number | null = null): number | null {
  const typed = code.replace(/\s/g, '');
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(typed)) return null;
  const key = base32Decode(secret);
  if (!key) return null;
  const current = totpStep(now);
  let matched: number | null = null;
  // every candidate is compared, so the time taken says nothing about which one matched
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    const expected = Buffer.from(hotp(key, step));
    if (timingSafeEqual(expected, Buffer.from(typed)) && (lastStep === null || step > lastStep) && matched === null) matched = step;
  }
  return matched;
}

/** The link authenticator apps read (Google Authenticator's Key Uri Format), shown as a QR code. */
export function otpauthUrl(secret: string, account: string, issuer = 'School Ledger'): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({ secret, issuer, algorithm: 'SHA1', digits: String(TOTP_DIGITS), period: String(TOTP_STEP_SECONDS) });
  return `otpauth://totp/${label}?${params.toString()}`;
}
