import { z } from 'zod';
import { MAX_PAISE, parseRupees, type Paise } from './money';

/**
 * A rupee amount typed in a form or sent by a client ("1500", "1500.5", 1500.5, "" for none) as
 * whole paise. Blank means zero: the documents default every fee amount to 0. Negative amounts,
 * more than two decimals and anything above ten crore are refused with `message`.
 */
export function rupeeInput(message: string) {
  return z
    .union([z.string(), z.number()])
    .nullish()
    .transform((value, ctx): Paise => {
      if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) return 0 as Paise;
      const amount = parseRupees(value);
      if (amount === null || amount < 0 || amount > MAX_PAISE) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return amount;
    });
}
