import { describe, expect, it } from 'vitest';
import { sessionDurationMonths } from '@/domain/sessions';
import { suggestedSession } from './suggest-session';

const session = (startDate: string, endDate: string) => ({
  id: 's1',
  sessionName: 'x',
  academicYear: 'x',
  startDate,
  endDate,
  isActive: true,
  isPromotionCompleted: false,
  createdAt: '2026-04-01T00:00:00.000Z',
});

describe('the suggested new session', () => {
  it('follows the active one for a full year', () => {
    const next = suggestedSession(session('2026-04-01', '2027-03-31'), '2026-11-22');
    expect(next).toEqual({ sessionName: '2027-2028', startDate: '2027-04-01', endDate: '2028-03-31', isActive: false });
    expect(sessionDurationMonths(next.startDate, next.endDate)).toBe(12);
  });

  it('is the April–March year of today without an active session', () => {
    expect(suggestedSession(null, '2026-11-22')).toMatchObject({ sessionName: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31' });
  });
});
