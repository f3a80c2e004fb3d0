import { describe, expect, it } from 'vitest';
import { createSessionSchema, normaliseAcademicYear, sessionDurationMonths, sessionMonths, sessionNameOf, shortAcademicYear } from './sessions';

describe('session months', () => {
  it('lists April to March for a standard session', () => {
    const months = sessionMonths('2025-04-01', '2026-03-31');
    expect(months).toHaveLength(12);
    expect(months[0]).toEqual({ month: 'April', year: 2025, monthNumber: 4, key: '2025-04' });
    expect(months[11]).toEqual({ month: 'March', year: 2026, monthNumber: 3, key: '2026-03' });
  });

  it('counts the duration inclusive of the end date', () => {
    expect(sessionDurationMonths('2025-04-01', '2026-03-31')).toBe(12);
    expect(sessionDurationMonths('2025-04-01', '2026-03-30')).toBe(11);
    expect(sessionDurationMonths('2025-04-15', '2026-04-14')).toBe(12);
    expect(sessionDurationMonths('2024-03-01', '2025-02-28')).toBe(12);
  });
});

describe('createSessionSchema (operations §5)', () => {
  const parse = (v: Record<string, unknown>) => createSessionSchema.safeParse(v);
  it('needs every field', () => {
    expect(parse({ sessionName: '', startDate: '2025-04-01', endDate: '2026-03-31' }).error?.issues[0]?.message).toBe('Please fill in all required fields');
  });
  it('needs the end after the start', () => {
    expect(parse({ sessionName: '2025-2026', startDate: '2026-04-01', endDate: '2025-03-31' }).error?.issues[0]?.message).toBe('End date must be after start date.');
  });
  it('needs at least 12 months and says how many there are', () => {
    expect(parse({ sessionName: '2025-2026', startDate: '2025-04-01', endDate: '2026-02-28' }).error?.issues[0]?.message).toBe(
      'Academic session must be at least 12 months long. Current duration: 11 months. Please adjust the dates.',
    );
    expect(parse({ sessionName: '2025-2026', startDate: '2025-04-01', endDate: '2026-03-31' }).success).toBe(true);
  });
});

describe('academic years', () => {
  it.each([
    ['2025-2026', '2025-2026'], ['2025-26', '2025-2026'], ['2025/26', '2025-2026'], ['2025–2026', '2025-2026'],
    ['2025', '2025-2026'], ['2099-00', '2099-2100'], ['2025-2027', null], ['2025-27', null], ['twenty', null],
  ])('%s → %s', (input, expected) => {
    expect(normaliseAcademicYear(input)).toBe(expected);
  });
  it('shortens for receipt numbers', () => {
    expect(shortAcademicYear('2025-2026')).toBe('2025-26');
  });
});

describe('session names (ruling 8)', () => {
  it('are academic years, typed in the spellings the documents show', () => {
    expect(['2025-2026', '2025-26', '2025/26', '2025–2026', ' 2025 - 2026 '].map(sessionNameOf)).toEqual(Array(5).fill('2025-2026'));
    expect(['2025', '2025-2027', '2025-25', 'Session 2025-2026', '2025-2026 A', ''].map(sessionNameOf)).toEqual(Array(6).fill(null));
  });
});
