import { describe, expect, it } from 'vitest';
import { DASHBOARD_TABS, findTab } from './tabs';
import { refusalFor } from './use-tab-guard';

const tab = (id: string) => findTab(id)!;

describe('dashboard tab guards (operations §2)', () => {
  it('keeps the tabs in the order of the documents (Online Payments, issue 13, sits with the fee screens)', () => {
    expect(DASHBOARD_TABS.map((t) => t.id)).toEqual([
      'students', 'academic-sessions', 'fee-structure', 'monthly-fees', 'yearly-fees', 'student-fee-status',
      'online-payments', 'results', 'reports', 'expenses', 'passouts', 'close-day', 'registers', 'settings',
    ]);
  });

  it('refuses the fee screens and reports without students, pointing to the Students tab', () => {
    for (const id of ['student-fee-status', 'monthly-fees', 'yearly-fees', 'reports']) {
      const refusal = refusalFor(tab(id), { hasStudents: false, hasStructures: true });
      expect(refusal?.title).toBe('No Students Found');
      expect(refusal?.tab).toBe('students');
    }
  });

  it('also needs a class fee structure for monthly, yearly and reports, not for fee status', () => {
    for (const id of ['monthly-fees', 'yearly-fees', 'reports']) {
      expect(refusalFor(tab(id), { hasStudents: true, hasStructures: false })).toMatchObject({ title: 'No Fee Structure Found', tab: 'fee-structure' });
    }
    expect(refusalFor(tab('student-fee-status'), { hasStudents: true, hasStructures: false })).toBeNull();
  });

  it('never blocks the other tabs', () => {
    for (const id of ['students', 'academic-sessions', 'fee-structure', 'expenses', 'passouts']) {
      expect(refusalFor(tab(id), { hasStudents: false, hasStructures: false })).toBeNull();
    }
  });
});
