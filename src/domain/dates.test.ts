import { describe, expect, it } from 'vitest';
import { formatDateIN, formatDayShortMonth, formatIndiaDateTime, formatLongDateIN, formatMonthShortYear, formatShortDateIN } from './dates';

/**
 * The dates are spelled out by hand (decision 0066) and must read exactly as en-IN's Intl writes
 * them, which is what the screens showed before: the same texts for every day of four years and for
 * instants around the clock.
 */
const intl = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-IN', options);
const DAY = 86_400_000;

describe('dates as India reads them', () => {
  it('every calendar day of 2025–2028 reads as Intl en-IN writes it, short and long', () => {
    const short = intl({ day: '2-digit', month: 'short', year: 'numeric', timeZone: 'UTC' });
    const long = intl({ day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    let days = 0;
    for (let t = Date.UTC(2025, 0, 1); t <= Date.UTC(2028, 11, 31); t += DAY) {
      const d = new Date(t);
      const iso = d.toISOString().slice(0, 10);
      expect(formatShortDateIN(iso), iso).toBe(short.format(d));
      expect(formatLongDateIN(iso), iso).toBe(long.format(d));
      expect(formatDayShortMonth(iso), iso).toBe(intl({ day: 'numeric', month: 'short', timeZone: 'UTC' }).format(d));
      days += 1;
    }
    expect(days).toBe(1461);
    expect(formatShortDateIN('2026-09-05')).toBe('05 Sept 2026');
    expect(formatDateIN('2027-03-01')).toBe('1 March 2027');
  });

  it('an instant reads in India time whatever the zone it came in, as Intl with Asia/Kolkata writes it', () => {
    const dateTime = intl({ timeZone: 'Asia/Kolkata', day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', hour12: true });
    const shortIndia = intl({ timeZone: 'Asia/Kolkata', day: '2-digit', month: 'short', year: 'numeric' });
    // every 7 minutes for 9 days across a month's and a year's end: every hour of the clock, both halves of the day
    for (let t = Date.UTC(2026, 11, 27); t < Date.UTC(2027, 0, 5); t += 7 * 60_000) {
      const d = new Date(t);
      expect(formatIndiaDateTime(d), d.toISOString()).toBe(dateTime.format(d));
      expect(formatIndiaDateTime(d.toISOString()), d.toISOString()).toBe(dateTime.format(d));
      expect(formatShortDateIN(d), d.toISOString()).toBe(shortIndia.format(d));
    }
    expect(formatIndiaDateTime('2026-11-22T14:45:00.000Z')).toBe('22 Nov 2026, 8:15 pm');
    expect(formatIndiaDateTime('2026-11-22T18:35:00.000Z')).toBe('23 Nov 2026, 12:05 am');
    expect(formatIndiaDateTime('2026-11-22T06:30:00.000Z')).toBe('22 Nov 2026, 12:00 pm');
  });

  it('a month key reads as the charts label it', () => {
    for (let m = 1; m <= 12; m++) {
      const key = `2026-${String(m).padStart(2, '0')}`;
      expect(formatMonthShortYear(key), key).toBe(intl({ month: 'short', year: '2-digit', timeZone: 'UTC' }).format(new Date(`${key}-01T00:00:00Z`)));
    }
  });

  it('what is not a date is not written as one', () => {
    expect(formatShortDateIN('2026-02-30')).toBeNull();
    expect(formatLongDateIN('not a date')).toBeNull();
    expect(formatShortDateIN(new Date(Number.NaN))).toBeNull();
    expect(formatDateIN('2026-13-01')).toBe('2026-13-01');
    expect(formatIndiaDateTime('yesterday')).toBe('yesterday');
  });
});
