import { describe, expect, it } from 'vitest';
import { countedCash, cashDifference } from './cash-closing';
import { canMoveCheque } from './cheques';
import { paise } from './money';
import { can, forbiddenMessage, PERMISSIONS, permissionsOf, ROLE_PERMISSIONS, STAFF_ROLES } from './permissions';
import { assignmentCovers } from './staff';

describe('the permission table (ruling 32)', () => {
  it('gives the owner and an administrator everything', () => {
    for (const p of PERMISSIONS) expect(can('owner', p) && can('administrator', p)).toBe(true);
  });
  it('lets an accountant handle money but not settings or staff', () => {
    expect(['receipts.cancel', 'expenses.manage', 'reports.view', 'cash.acknowledge'].every((p) => can('accountant', p as never))).toBe(true);
    expect(can('accountant', 'settings.manage')).toBe(false);
    expect(can('accountant', 'staff.manage')).toBe(false);
  });
  it('lets a clerk collect and edit students, not cancel, spend or report', () => {
    expect(can('clerk', 'fees.collect') && can('clerk', 'students.edit') && can('clerk', 'cash.close')).toBe(true);
    for (const p of ['receipts.cancel', 'expenses.manage', 'reports.view', 'settings.manage'] as const) expect(can('clerk', p)).toBe(false);
  });
  it('keeps a teacher away from money', () => {
    expect(ROLE_PERMISSIONS.teacher).toEqual(['school.view', 'results.view', 'results.marks']);
    expect(can(null, 'school.view')).toBe(false);
  });
  it('says which role is refused what', () => {
    expect(forbiddenMessage('clerk', 'receipts.cancel')).toBe(
      "Your role (Clerk) does not allow you to cancel receipts. Ask the school's owner or an administrator.",
    );
  });
});

/** Every role's permissions, written out: a change to how the table is written must keep each role's rights. */
const EVERY_PERMISSION = [
  'school.view',
  'dashboard.view',
  'students.view',
  'students.edit',
  'fees.view',
  'fees.collect',
  'fees.setup',
  'receipts.cancel',
  'payments.reconcile',
  'cheques.manage',
  'cash.close',
  'cash.acknowledge',
  'expenses.manage',
  'reports.view',
  'concessions.request',
  'concessions.approve',
  'fines.waive',
  'fee-policy.manage',
  'tally.export',
  'results.manage',
  'results.view',
  'results.marks',
  'settings.manage',
  'billing.manage',
  'data.export',
  'staff.manage',
  'audit.view',
];
const ROLE_TABLE = {
  owner: EVERY_PERMISSION,
  administrator: EVERY_PERMISSION,
  accountant: [
    'school.view',
    'dashboard.view',
    'students.view',
    'students.edit',
    'fees.view',
    'fees.collect',
    'fees.setup',
    'receipts.cancel',
    'payments.reconcile',
    'cheques.manage',
    'cash.close',
    'cash.acknowledge',
    'expenses.manage',
    'reports.view',
    'concessions.request',
    'concessions.approve',
    'fines.waive',
    'tally.export',
  ],
  clerk: ['school.view', 'dashboard.view', 'students.view', 'students.edit', 'fees.view', 'fees.collect', 'cash.close', 'concessions.request'],
  teacher: ['school.view', 'results.view', 'results.marks'],
};

describe('the whole role → permissions table', () => {
  it('lists every permission once, in the order the session and the staff screen show them', () => {
    expect([...PERMISSIONS]).toEqual(EVERY_PERMISSION);
  });
  it('gives each role exactly the permissions it had when the table was written out by hand', () => {
    expect(Object.fromEntries(STAFF_ROLES.map((role) => [role, permissionsOf(role)]))).toEqual(ROLE_TABLE);
  });
  it('answers can() for every role and permission as the table says', () => {
    for (const role of STAFF_ROLES) {
      for (const p of PERMISSIONS) expect(can(role, p), `${role} ${p}`).toBe((ROLE_TABLE[role] as string[]).includes(p));
    }
  });
});

describe('cash closing and cheques', () => {
  it('counts notes and coins in paise', () => {
    expect(countedCash({ '2000': 1, '500': 3, '10': 4, '1': 7 })).toBe(paise(354_700));
    expect(cashDifference(paise(354_700), paise(355_000))).toBe(-300);
  });
  it('moves a cheque forward only', () => {
    expect(canMoveCheque('in_hand', 'deposited')).toBe(true);
    expect(canMoveCheque('cleared', 'bounced')).toBe(false);
  });
  it('limits a teacher to assigned classes, sections and subjects', () => {
    const a = [{ className: 'Class 5', section: 'A', subjects: ['Maths'] }];
    expect(assignmentCovers(a, { className: 'Class 5', section: 'A', subject: 'Maths' })).toBe(true);
    expect(assignmentCovers(a, { className: 'Class 5', section: 'B', subject: 'Maths' })).toBe(false);
    expect(assignmentCovers(a, { className: 'Class 5', section: 'A', subject: 'English' })).toBe(false);
  });
});
