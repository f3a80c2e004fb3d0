import { describe, expect, it } from 'vitest';
import { collectionProgress, dateRangeSchema, formatIndiaDateTime, monthBounds, monthKeyLabel, monthOrdinal, monthOrdinalsText, monthRangesText, previousMonthKey, withinYears } from './reports';

describe('the financial report period', () => {
  const message = (q: Record<string, string | undefined>) => dateRangeSchema.safeParse(q).error?.issues[0]?.message;
  it('needs both dates, real, in order and at most ten years apart', () => {
    expect(message({ fromDate: '2026-04-01' })).toBe('Please select both from and to dates');
    expect(message({ fromDate: '  ', toDate: '2026-04-01' })).toBe('Please select both from and to dates');
    expect(message({ fromDate: '2026-02-30', toDate: '2026-04-01' })).toBe('Dates must be real dates written as YYYY-MM-DD');
    expect(message({ fromDate: '01-04-2026', toDate: '2026-04-01' })).toBe('Dates must be real dates written as YYYY-MM-DD');
    expect(message({ fromDate: '2026-04-02', toDate: '2026-04-01' })).toBe('From date must be on or before to date');
    expect(message({ fromDate: '2016-04-01', toDate: '2026-04-02' })).toBe('The report period cannot be longer than 10 years');
    expect(dateRangeSchema.parse({ fromDate: '2016-04-01', toDate: '2026-04-01' })).toEqual({ fromDate: '2016-04-01', toDate: '2026-04-01' });
    expect(dateRangeSchema.parse({ fromDate: '2026-04-01', toDate: '2026-04-01' }).toDate).toBe('2026-04-01');
  });
  it('counts ten years from the day', () => {
    expect(withinYears('2016-02-29', '2026-02-28', 10)).toBe(true);
    expect(withinYears('2016-02-29', '2026-03-01', 10)).toBe(false);
  });
});

describe('months (ruling 17)', () => {
  it('names last month, across the new year', () => {
    expect(previousMonthKey('2026-11-22')).toBe('2026-10');
    expect(previousMonthKey('2027-01-05')).toBe('2026-12');
    expect(monthKeyLabel('2026-10')).toBe('October 2026');
  });
  it('knows the last day of each month', () => {
    expect(monthBounds('2028-02')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthBounds('2026-11')).toEqual({ from: '2026-11-01', to: '2026-11-30' });
  });
});

describe('collection progress', () => {
  it('is a whole percent with the bar capped at 100, and 0 when nothing is expected', () => {
    expect(collectionProgress(150000, 600000)).toEqual({ percent: 25, bar: 25 });
    expect(collectionProgress(900000, 600000)).toEqual({ percent: 150, bar: 100 });
    expect(collectionProgress(100, 0)).toEqual({ percent: 0, bar: 0 });
    expect(collectionProgress(599999, 600000)).toEqual({ percent: 99, bar: 99 });
  });
});

describe('months due written as ranges (the pending-fees list on paper)', () => {
  const months = (from: number, to: number, year = 2026) => Array.from({ length: to - from + 1 }, (_, k) => `${year}-${String(from + k).padStart(2, '0')}`);
  it('writes a run of months as one range with its count', () => {
    expect(monthRangesText(months(4, 11))).toBe('Apr–Nov 2026 (8)');
    expect(monthRangesText(['2026-11'])).toBe('Nov 2026 (1)');
    expect(monthRangesText([])).toBe('');
  });
  it('writes months with gaps as ranges and single months, the year once', () => {
    expect(monthRangesText([...months(4, 6), '2026-09'])).toBe('Apr–Jun, Sept 2026 (4)');
    expect(monthRangesText(['2026-09', '2026-04', '2026-05', '2026-05'])).toBe('Apr–May, Sept 2026 (3)');
  });
  it('names both years when the months cross into the next year', () => {
    expect(monthRangesText([...months(11, 12), ...months(1, 2, 2027)])).toBe('Nov 2026–Feb 2027 (4)');
    expect(monthRangesText([...months(4, 5), ...months(1, 1, 2027), '2027-03'])).toBe('Apr–May 2026, Jan, Mar 2027 (4)');
    expect(monthRangesText(['2026-12', '2027-02'])).toBe('Dec 2026, Feb 2027 (2)');
  });
  it('writes the same text from month ordinals (year × 12 + month − 1), as the defaulters list gives them', () => {
    const keys = [...months(4, 6), '2026-09', ...months(12, 12), ...months(1, 3, 2027)];
    // the year is written where the next run starts in another year: Sept and Dec 2026 share theirs
    expect(monthOrdinalsText(keys.map(monthOrdinal))).toBe('Apr–Jun, Sept, Dec 2026–Mar 2027 (8)');
    expect(monthOrdinalsText([monthOrdinal('2026-11')])).toBe('Nov 2026 (1)');
    expect(monthOrdinalsText([])).toBe('');
  });
});

describe('when a report was made, in India time', () => {
  it('formats an instant as en-IN in Asia/Kolkata, never UTC', () => {
    expect(formatIndiaDateTime('2026-11-22T14:45:00.000Z')).toBe('22 Nov 2026, 8:15 pm');
    // 8:00 pm UTC is already the next morning in India
    expect(formatIndiaDateTime(new Date('2026-11-22T20:00:00.000Z'))).toBe('23 Nov 2026, 1:30 am');
  });
});
