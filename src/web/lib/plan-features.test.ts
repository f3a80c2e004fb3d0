import { describe, expect, it } from 'vitest';
import { planHighlights } from './plan-features';
import type { Plan } from './plans-api';

const plan = (id: Plan['id'], features: string[]): Plan => ({
  id,
  name: id[0]!.toUpperCase() + id.slice(1),
  monthlyPrice: '250.00',
  yearlyPrice: '3000.00',
  studentLimit: 100,
  features,
  recommended: false,
});

describe('planHighlights', () => {
  it('shows each plan as the previous one plus what it adds', () => {
    const basic = plan('basic', ['Fee collection', 'Monthly reports']);
    const standard = plan('standard', ['Fee collection', 'Monthly reports', 'Expense tracking']);
    const premium = plan('premium', ['Fee collection', 'Monthly reports', 'Expense tracking', 'API integration', 'Get new features first']);
    const [b, s, p] = planHighlights([basic, standard, premium]);
    expect(b).toEqual({ plan: basic, includes: null, extras: ['Fee collection', 'Monthly reports'] });
    expect(s!.includes?.id).toBe('basic');
    expect(s!.extras).toEqual(['Expense tracking']);
    expect(p!.includes?.id).toBe('standard');
    expect(p!.extras).toEqual(['API integration', 'Get new features first']);
  });

  it('lists every feature of a plan that lacks some of the previous plan', () => {
    const basic = plan('basic', ['Fee collection', 'Email support']);
    const standard = plan('standard', ['Fee collection', 'Expense tracking']);
    const [, s] = planHighlights([basic, standard]);
    expect(s).toEqual({ plan: standard, includes: null, extras: ['Fee collection', 'Expense tracking'] });
  });

  it('handles an empty catalogue', () => {
    expect(planHighlights([])).toEqual([]);
  });
});
