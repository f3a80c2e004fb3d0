import { MONTH_NAMES } from '../../domain/sessions';

/** "22 November 2026" for `2026-11-22`, without relying on the server's locale data. */
export function formatLongDateIndia(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${Number(d)} ${MONTH_NAMES[Number(m) - 1] ?? m} ${y}`;
}
