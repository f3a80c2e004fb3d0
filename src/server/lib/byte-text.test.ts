import { describe, expect, it } from 'vitest';
import { paise, toRupeeString } from '../../domain/money';
import { asciiBytes, ByteText, NUMBER_BYTES, putBytes, putDigits, putRupees } from './byte-text';

/** Each value written by `put` into one chunk with a comma after it, as text. */
function written(values: number[], put: (buf: Uint8Array, pos: number, n: number) => number): string {
  const out = new ByteText(16);
  const comma = asciiBytes(',');
  for (const v of values) {
    out.reserve(NUMBER_BYTES + 1);
    out.pos = putBytes(out.buf, put(out.buf, out.pos, v), comma);
  }
  return out.take().toString('utf8');
}

describe('ByteText', () => {
  it('writes numbers as String() does: integers by hand, the safe range and beyond', () => {
    const values = [0, 7, 10, 99, 100, 1234567, -1, -10, -9876543210, 2 ** 31, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 60, 1.5, -0.25];
    expect(written(values, putDigits)).toBe(values.map((v) => `${String(v)},`).join(''));
  });

  it('writes paise as toRupeeString does', () => {
    const values = [0, 1, 5, 9, 10, 99, 100, 101, 150, 120050, 100000000, -1, -5, -99, -100, -15575075, 123456789012];
    for (let k = 0; k < 500; k++) values.push(Math.floor((k * 7919) ** 1.3) * (k % 3 === 0 ? -1 : 1));
    expect(written(values, putRupees)).toBe(values.map((v) => `${toRupeeString(paise(v))},`).join(''));
    expect(() => putRupees(new Uint8Array(NUMBER_BYTES), 0, 1.5)).toThrow('not a whole number of paise: 1.5');
  });

  it('writes any text as UTF-8, Devanagari and emoji included, growing the chunk as it needs', () => {
    const values = ['Aarav Sharma', 'आरव शर्मा', 'Zoë & <Co>', '😀 smile', '', 'x'.repeat(5000)];
    const out = new ByteText(8);
    for (const v of values) out.utf8(v);
    expect(out.take().toString('utf8')).toBe(values.join(''));
  });

  it('hands each chunk over for good: later writes go to a new one', () => {
    const out = new ByteText(4);
    out.utf8('first');
    expect(out.pos).toBe(5);
    const first = out.take();
    expect(out.pos).toBe(0);
    out.utf8('SECOND');
    const second = out.take();
    expect(first.toString('utf8')).toBe('first');
    expect(second.toString('utf8')).toBe('SECOND');
  });
});
