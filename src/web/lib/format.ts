import { formatLongDateIN, formatShortDateIN } from '@/domain/dates';
import { formatINR, parseRupees, type Paise } from '@/domain/money';

/** Formats a wire amount ("1500.00") as "₹1,500.00"; en-IN only at the edge. */
export function rupees(amount: string | null | undefined, options: { decimals?: boolean } = {}): string {
  const value = amount == null ? null : parseRupees(amount);
  return value === null ? '—' : formatINR(value, options);
}

export function paiseOf(amount: string | null | undefined): Paise | null {
  return amount == null ? null : parseRupees(amount);
}

/** "05 Nov 2026" (a calendar date as it is, an instant in India time); "—" for none. */
export function formatDate(value: string | Date | null | undefined): string {
  return (value ? formatShortDateIN(value) : null) ?? '—';
}

/** "5 November 2026", as `formatDate`. */
export function formatLongDate(value: string | Date | null | undefined): string {
  return (value ? formatLongDateIN(value) : null) ?? '—';
}

/** "Nov 26" for `2026-11` and "16 Nov" for `2026-11-16`: the axes of the charts. */
export { formatMonthShortYear, formatDayShortMonth } from '@/domain/dates';

/** "22 Nov 2026, 8:15 pm" in India time, whatever the browser's time zone (when a report was made). */
export { formatIndiaDateTime as formatGeneratedAt } from '@/domain/dates';

/** "₹4.5L", "₹1.2Cr", "₹850" from paise: chart axis labels in the Indian way of counting. */
export function compactINR(value: number): string {
  const rupees = Math.round(value / 100);
  const abs = Math.abs(rupees);
  const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
  if (abs >= 10_000_000) return `₹${fmt(Math.round(rupees / 1_000_000) / 10)}Cr`;
  if (abs >= 100_000) return `₹${fmt(Math.round(rupees / 10_000) / 10)}L`;
  if (abs >= 1_000) return `₹${fmt(Math.round(rupees / 100) / 10)}K`;
  return `₹${rupees}`;
}
