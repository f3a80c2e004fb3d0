import { describe, expect, it } from 'vitest';
import { sessionMonths } from '@/domain/sessions';
import type { MonthlyEntry } from './api';
import { bulkEntries, draftProblems, emptyDraft, mergeBackup, pendingHeads, withAmount, type MonthlyDraft } from './monthly-draft';

const months = sessionMonths('2026-04-01', '2027-03-31');

const saved = (monthKey: string, locked: { tuition: boolean; bus: boolean }, submittedAt = '2026-11-20T10:00:00.000Z'): MonthlyEntry => ({
  id: `line-${monthKey}`,
  studentId: 's1',
  month: 'April',
  year: 2026,
  monthKey,
  tuitionFee: locked.tuition ? '1500.00' : '0.00',
  tuitionDate: locked.tuition ? '2026-11-20' : null,
  busFee: locked.bus ? '450.00' : '0.00',
  busDate: locked.bus ? '2026-11-20' : null,
  status: 'paid',
  submittedAt,
  clientId: null,
  receiptNumbers: ['MON/2026-27/000001'],
  locked,
});

const draft = (months: MonthlyDraft['months'], previous = { amount: '', date: '' }): MonthlyDraft => ({ months, previous });

describe('the monthly grid draft', () => {
  it('fills in today when an amount is typed, and clears the date with the amount', () => {
    expect(withAmount(undefined, '1500', '2026-11-22')).toEqual({ amount: '1500', date: '2026-11-22' });
    expect(withAmount({ amount: '1', date: '2026-10-01' }, '1500', '2026-11-22')).toEqual({ amount: '1500', date: '2026-10-01' });
    expect(withAmount({ amount: '1500', date: '2026-10-01' }, '', '2026-11-22')).toEqual({ amount: '', date: '' });
  });

  it('sends only open heads with an amount, as the bulk endpoint wants them (nulls for empty, status pending)', () => {
    const map = new Map([['2026-04', saved('2026-04', { tuition: true, bus: false })]]);
    const d = draft({
      '2026-04': { tuition: { amount: '1500', date: '2026-11-22' }, bus: { amount: '450', date: '2026-11-22' } },
      '2026-05': { tuition: { amount: '1500.50', date: '' }, bus: { amount: '0', date: '2026-11-22' } },
      '2026-06': { bus: { amount: '', date: '' } },
    });
    expect(pendingHeads(d, months, map).map((h) => `${h.month.key}:${h.head}`)).toEqual(['2026-04:bus', '2026-05:tuition']);
    expect(bulkEntries('s1', d, months, map, 'now')).toEqual([
      { studentId: 's1', month: 'April', year: 2026, tuitionFee: null, tuitionDate: null, busFee: '450', busDate: '2026-11-22', status: 'pending', submittedAt: 'now' },
      { studentId: 's1', month: 'May', year: 2026, tuitionFee: '1500.50', tuitionDate: null, busFee: null, busDate: null, status: 'pending', submittedAt: 'now' },
    ]);
  });

  it('names every amount it cannot take, per month and head', () => {
    const d = draft(
      { '2026-07': { tuition: { amount: '1500.555', date: '' }, bus: { amount: '-5', date: '' } } },
      { amount: '200000000', date: '' },
    );
    expect(draftProblems(d, months, new Map())).toEqual({
      '2026-07:tuition': 'July 2026: Tuition fee can have at most two decimals (whole paise)',
      '2026-07:bus': 'July 2026: Bus fee cannot be negative',
      previous: 'Previous balance payment cannot be more than ₹1,00,00,000.00 on one fee line',
    });
  });

  it('restores a backup newer than the last save, without the heads saved since', () => {
    const backup = {
      lastUpdated: '2026-11-21T09:00:00.000Z',
      draft: draft({
        '2026-04': { tuition: { amount: '1500', date: '2026-11-21' }, bus: { amount: '450', date: '2026-11-21' } },
        '2026-05': { tuition: { amount: '1500', date: '2026-11-21' } },
      }),
    };
    const entries = [saved('2026-04', { tuition: true, bus: false }, '2026-11-20T10:00:00.000Z')];
    expect(mergeBackup(backup, entries)).toEqual({
      restoredAt: '2026-11-21T09:00:00.000Z',
      draft: draft({ '2026-04': { bus: { amount: '450', date: '2026-11-21' } }, '2026-05': { tuition: { amount: '1500', date: '2026-11-21' } } }),
    });
    // a save after the backup supersedes it
    expect(mergeBackup(backup, [saved('2026-06', { tuition: true, bus: true }, '2026-11-21T10:00:00.000Z')])).toEqual({ draft: emptyDraft(), restoredAt: null });
    expect(mergeBackup(null, entries)).toEqual({ draft: emptyDraft(), restoredAt: null });
  });
});
