import { describe, expect, it } from 'vitest';
import { can, type StaffRole } from '@/domain/permissions';
import { schoolRoleOf } from '@/web/app/permissions';
import { DASHBOARD_TABS, type DashboardTab } from './tabs';

const menuOf = (role: StaffRole) => (DASHBOARD_TABS as readonly DashboardTab[]).filter((t) => !t.capability || can(role, t.capability)).map((t) => t.label);

describe('the dashboard menu follows the role (ruling 32)', () => {
  it('shows the owner and an Administrator every tab', () => {
    expect(menuOf('owner')).toEqual(DASHBOARD_TABS.map((t) => t.label));
    expect(menuOf('administrator')).toEqual(DASHBOARD_TABS.map((t) => t.label));
  });

  it('shows a Clerk the counter: no expenses, reports, registers or set-up', () => {
    expect(menuOf('clerk')).toEqual(['Students', 'Submit Monthly Fee', 'Submit Yearly Fee', 'Student Fee Status', 'Passouts', 'Close the Day', 'Settings']);
  });

  it('shows an Accountant the money but not the school set-up or results', () => {
    const menu = menuOf('accountant');
    for (const tab of ['Expenses', 'Reports', 'Registers', 'Close the Day', 'Online Payments', 'Fee Structure']) expect(menu).toContain(tab);
    for (const tab of ['Session Management', 'Results']) expect(menu).not.toContain(tab);
  });

  it('shows a Teacher results and their own settings only', () => {
    expect(menuOf('teacher')).toEqual(['Results', 'Settings']);
  });

  it('takes a school user without a role for the owner (a school that never invited anyone)', () => {
    expect(schoolRoleOf({ role: 'school_admin' })).toBe('owner');
    expect(schoolRoleOf({ role: 'school_admin', schoolRole: 'clerk' })).toBe('clerk');
    expect(schoolRoleOf({ role: 'master_admin' })).toBeNull();
  });
});
