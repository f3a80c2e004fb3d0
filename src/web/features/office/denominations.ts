import { addPaise, paise, subtractPaise, type Paise } from '@/domain/money';

/**
 * TEMPORARY MIRROR of src/domain/cash-closing.ts (branch `staff`): the same names, so the merge
 * only changes the import path to '@/domain/cash-closing' and deletes this file.
 */
export const DENOMINATIONS = [2000, 500, 200, 100, 50, 20, 10, 5, 2, 1] as const;
export type Denomination = (typeof DENOMINATIONS)[number];
/** Keys on the wire are the rupee values as strings: { "500": 3, "10": 4 } */
export type DenominationCounts = Partial<Record<`${Denomination}`, number>>;

export function countedCash(counts: DenominationCounts): Paise {
  return addPaise(...DENOMINATIONS.map((d) => paise((counts[`${d}`] ?? 0) * d * 100)));
}

export function cashDifference(counted: Paise, expected: Paise): Paise {
  return subtractPaise(counted, expected);
}
