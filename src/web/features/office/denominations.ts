import { addPaise, paise, subtractPaise, ZERO, type Paise } from '@/domain/money';

/** The notes and coins a counter counts, largest first (issue 15 item 4): ₹2000…₹1. */
export const DENOMINATIONS = [2000, 500, 200, 100, 50, 20, 10, 5, 2, 1] as const;
export type Denomination = (typeof DENOMINATIONS)[number];

export type Counts = Partial<Record<Denomination, number>>;

/** A count typed in a box: whole, not negative; anything else counts as nothing. */
export function parseCount(text: string): number {
  const trimmed = text.trim();
  if (!/^\d{1,6}$/.test(trimmed)) return 0;
  return Number(trimmed);
}

/** The counted cash in paise: whole rupees times 100, so no float ever touches it. */
export function countedTotal(counts: Counts): Paise {
  return DENOMINATIONS.reduce<Paise>((sum, d) => addPaise(sum, paise((counts[d] ?? 0) * d * 100)), ZERO);
}

/** Counted minus expected: negative is a shortfall, positive an excess. */
export function cashDifference(counted: Paise, expected: Paise): Paise {
  return subtractPaise(counted, expected);
}
