import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';

/**
 * AES-256-GCM for personal numbers at rest (Aadhaar, ruling 24). The key is derived from
 * ENCRYPTION_KEY (or the generated one kept in DATA_DIR); the stored text is v1.iv.tag.ciphertext.
 */
export class FieldCipher {
  private readonly key: Buffer;
  private readonly indexKey: Buffer;
  constructor(secret: string) {
    this.key = createHash('sha256').update(`field-cipher:${secret}`).digest();
    // a separate key for the blind index, so the index never helps with the ciphertext
    this.indexKey = createHash('sha256').update(`blind-index:${secret}`).digest();
  }
  /**
   * A keyed hash (HMAC-SHA-256) of a normalised personal number, stored beside its ciphertext so
   * equal numbers can be found with an index instead of decrypting every row (decision 0032).
   * Without ENCRYPTION_KEY the hash cannot be recomputed, so a stolen table does not give the
   * numbers away by hashing all 10^12 candidates.
   */
  blindIndex(kind: 'aadhaar', normalised: string): string {
    return createHmac('sha256', this.indexKey).update(`${kind}:${normalised}`).digest('base64url');
  }
  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }
  decrypt(stored: string): string {
    const [version, iv, tag, data] = stored.split('.');
    if (version !== 'v1' || !iv || !tag || !data) throw new Error('Unknown cipher text');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** `XXXX XXXX 1234` */
export function maskAadhaar(last4: string | null): string | null {
  return last4 ? `XXXX XXXX ${last4}` : null;
}

/**
 * `maskAadhaar` in SQL, for answers and files PostgreSQL writes itself: `column` holds the last four
 * digits. The trigger of migration 0046 writes the same mask into each student's `list_tail`.
 */
export const maskAadhaarSql = (column: SQL): SQL => sql`case when ${column} <> '' then 'XXXX XXXX ' || ${column} end`;
