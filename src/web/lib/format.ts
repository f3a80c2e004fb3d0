import { formatINR, parseRupees, type Paise } from '@/domain/money';

/** Formats a wire amount ("1500.00") as "₹1,500.00"; en-IN only at the edge. */
export function rupees(amount: string | null | undefined, options: { decimals?: boolean } = {}): string {
  const value = amount == null ? null : parseRupees(amount);
  return value === null ? '—' : formatINR(value, options);
}

export function paiseOf(amount: string | null | undefined): Paise | null {
  return amount == null ? null : parseRupees(amount);
}

const dateFmt = new Intl.DateTimeFormat('en-IN', { day: '2-digit', month: 'short', year: 'numeric' });
const longFmt = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'long', year: 'numeric' });

export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '—';
  const d = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(d.getTime()) ? '—' : dateFmt.format(d);
}

export function formatLongDate(value: string | Date | null | undefined): string {
  if (!value) return '—';
  const d = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(d.getTime()) ? '—' : longFmt.format(d);
}

/** "22 Nov 2026, 8:15 pm" in India time, whatever the browser's time zone (when a report was made). */
export { formatIndiaDateTime as formatGeneratedAt } from '@/domain/reports';

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
