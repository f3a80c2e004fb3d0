import { describe, expect, it } from 'vitest';
import { filterSchools, planLabel, schoolCounts, schoolStatus } from './school-stats';

type S = Parameters<typeof schoolStatus>[0];
const school = (over: Partial<S> = {}): S => ({
  name: 'Green Valley School',
  email: 'office@greenvalley.in',
  subscriptionStatus: 'trial',
  isExpired: false,
  daysRemaining: 3,
  trialStatus: { isExpired: false, daysRemaining: 3 },
  ...over,
});

describe('schoolCounts', () => {
  it('counts total, active, running trials and expired trials', () => {
    const list = [
      school(),
      school({ trialStatus: { isExpired: false, daysRemaining: null }, daysRemaining: null }),
      school({ trialStatus: { isExpired: true, daysRemaining: 0 }, isExpired: true, daysRemaining: 0 }),
      school({ subscriptionStatus: 'active', daysRemaining: 200 }),
      school({ subscriptionStatus: 'active', isExpired: true, daysRemaining: 0 }),
      school({ subscriptionStatus: 'cancelled' }),
      school({ subscriptionStatus: 'expired', isExpired: true }),
    ];
    expect(schoolCounts(list)).toEqual({ total: 7, active: 1, trial: 2, expiredTrials: 1 });
    expect(schoolCounts([])).toEqual({ total: 0, active: 0, trial: 0, expiredTrials: 0 });
  });
});

describe('filterSchools', () => {
  const list = [school({ name: 'Green Valley School', email: 'office@greenvalley.in' }), school({ name: 'Dal Lake Academy', email: 'ADMIN@DLA.EDU.IN' })];
  it('matches name or email whatever the case', () => {
    expect(filterSchools(list, 'VALLEY').map((s) => s.name)).toEqual(['Green Valley School']);
    expect(filterSchools(list, 'dla.edu').map((s) => s.name)).toEqual(['Dal Lake Academy']);
    expect(filterSchools(list, '  ').length).toBe(2);
    expect(filterSchools(list, 'nothing')).toEqual([]);
  });
});

describe('schoolStatus', () => {
  it('names each state the way the portal shows it', () => {
    expect(schoolStatus(school())).toEqual({ label: 'Trial (3 days left)', tone: 'warning' });
    expect(schoolStatus(school({ trialStatus: { isExpired: false, daysRemaining: 1 } })).label).toBe('Trial (1 day left)');
    expect(schoolStatus(school({ trialStatus: { isExpired: true, daysRemaining: 0 } })).label).toBe('Trial Expired');
    expect(schoolStatus(school({ trialStatus: { isExpired: false, daysRemaining: null } })).label).toBe('Trial (awaiting email confirmation)');
    expect(schoolStatus(school({ subscriptionStatus: 'active' })).label).toBe('Active');
    expect(schoolStatus(school({ subscriptionStatus: 'active', isExpired: true })).label).toBe('Expired');
    expect(schoolStatus(school({ subscriptionStatus: 'cancelled' })).label).toBe('Cancelled');
    expect(schoolStatus(school({ subscriptionStatus: 'expired' })).label).toBe('Expired');
  });
});

describe('planLabel', () => {
  it('capitalises plan ids and names monthly variants', () => {
    expect(planLabel('standard')).toBe('Standard');
    expect(planLabel('basic-monthly')).toBe('Basic (Monthly)');
  });
});
