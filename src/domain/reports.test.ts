import { describe, expect, it } from 'vitest';
import { collectionProgress, dateRangeSchema, monthBounds, monthKeyLabel, previousMonthKey, withinYears } from './reports';

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
