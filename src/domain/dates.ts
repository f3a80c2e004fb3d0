/**
 * Dates as people in India read them, for texts the server writes ("1 March 2027"). The browser
 * formats through src/web/lib/format.ts; both are en-IN, so a translation changes one place each.
 */
const longDate = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** `2027-03-01` → "1 March 2027". A calendar date, so no time zone can move it to another day. */
export function formatDateIN(isoDate: string): string {
  const d = new Date(`${isoDate.slice(0, 10)}T00:00:00.000Z`);
  return Number.isNaN(d.getTime()) ? isoDate : longDate.format(d);
}
