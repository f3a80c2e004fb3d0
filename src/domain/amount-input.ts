import { z } from 'zod';
import { MAX_PAISE, parseRupees, type Paise } from './money';

/**
 * The one rule for a rupee amount typed by a person or sent by a client (decision 0033). Every
 * money input of the product reads through `readAmount`, so the fee grid, the payment dialogs, the
 * fee structures, expenses, the bus fee and the bulk import accept and refuse the same things:
 *
 * - digits with at most two decimals: `1500`, `1500.5`, `1500.50`; a leading ₹ is allowed;
 * - grouping commas where people put them, Indian (`1,00,000`) or international (`100,000`); a
 *   comma anywhere else (`1,0,0`) is refused, because it may hide a mistyped amount;
 * - never an exponent (`1e3`): nobody writes a fee that way, and a browser number field would
 *   silently turn it into 1000;
 * - never letters (`15OO`, `12abc`): they are refused with a visible message, not dropped.
 *
 * Blank means "nothing typed" (null); the caller decides whether that is zero.
 */

export type AmountProblem = 'exponent' | 'letters' | 'negative' | 'decimals' | 'commas' | 'format';
export type AmountReading = { ok: true; value: Paise | null } | { ok: false; problem: AmountProblem };

const INDIAN_GROUPS = /^\d{1,2}(?:,\d{2})*,\d{3}$/;
const INTERNATIONAL_GROUPS = /^\d{1,3}(?:,\d{3})+$/;

export function readAmount(input: unknown): AmountReading {
  if (input === null || input === undefined) return { ok: true, value: null };
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, problem: 'format' };
    text = String(input);
    // a JSON number the client wrote as 1e21 or 1e-7: not an amount anyone typed
    if (/e/i.test(text)) return { ok: false, problem: 'exponent' };
  } else if (typeof input === 'string') {
    text = input.trim().replace(/^₹\s*/, '');
  } else {
    return { ok: false, problem: 'format' };
  }
  if (text === '') return { ok: true, value: null };
  if (/^[+-]?[\d.,]*\d[eE][+-]?\d+$/.test(text)) return { ok: false, problem: 'exponent' };
  if (/\p{L}/u.test(text)) return { ok: false, problem: 'letters' };
  if (text.startsWith('-')) return { ok: false, problem: 'negative' };
  const [whole = '', fraction, ...more] = text.split('.');
  if (more.length > 0) return { ok: false, problem: 'format' };
  if (whole.includes(',') && !INDIAN_GROUPS.test(whole) && !INTERNATIONAL_GROUPS.test(whole)) return { ok: false, problem: 'commas' };
  if (fraction !== undefined && /^\d{3,}$/.test(fraction)) return { ok: false, problem: 'decimals' };
  const value = parseRupees(`${whole.replace(/,/g, '')}${fraction === undefined ? '' : `.${fraction}`}`);
  if (value === null || value < 0) return { ok: false, problem: 'format' };
  return { ok: true, value };
}

/** What to tell the person, naming the field: "Tuition fee has letters in it …". */
export function amountProblemMessage(label: string, problem: AmountProblem): string {
  switch (problem) {
    case 'exponent':
      return `${label} must be written out in digits, e.g. 1000 (not 1e3)`;
    case 'letters':
      return `${label} has letters in it; type the amount in digits, e.g. 1500 or 1,500.50`;
    case 'negative':
      return `${label} cannot be negative`;
    case 'decimals':
      return `${label} can have at most two decimals (whole paise)`;
    case 'commas':
      return `${label} has commas in the wrong places; write 1,00,000 or 100000`;
    case 'format':
      return `${label} must be an amount in rupees, e.g. 1500 or 1500.50`;
  }
}

/**
 * A rupee amount typed in a form or sent by a client ("1500", "1,500.50", 1500.5, "" for none) as
 * whole paise. Blank means zero: the documents default every fee amount to 0. Anything else the
 * rule refuses, or above ten crore, is refused with `message` (letters and exponents say why).
 */
export function rupeeInput(message: string) {
  return z
    .union([z.string(), z.number()])
    .nullish()
    .transform((value, ctx): Paise => {
      const reading = readAmount(value);
      if (!reading.ok) {
        const why = reading.problem === 'letters' ? ' (digits only, no letters)' : reading.problem === 'exponent' ? ' (write it out, not 1e3)' : '';
        ctx.addIssue({ code: 'custom', message: `${message}${why}` });
        return z.NEVER;
      }
      const amount = reading.value ?? (0 as Paise);
      if (amount > MAX_PAISE) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return amount;
    });
}
