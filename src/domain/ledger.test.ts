import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkLineAmount,
  feePaymentSchema,
  formatReceiptNumber,
  monthlyBulkSchema,
  parseMonthInput,
  parseReceiptNumber,
  passoutsFromClassSchema,
  promoteSchema,
  yearlyEntrySchema,
  yearlyLockedMessage,
} from './ledger';
import { paise, toRupeeString } from './money';

describe('fee line amounts', () => {
  it('accepts rupees as text or numbers with up to two decimals, as whole paise', () => {
    expect(checkLineAmount('1500', 'Fee')).toEqual({ ok: true, value: 150_000 });
    expect(checkLineAmount('1,500.5', 'Fee')).toEqual({ ok: true, value: 150_050 });
    expect(checkLineAmount(1500.05, 'Fee')).toEqual({ ok: true, value: 150_005 });
    expect(checkLineAmount('', 'Fee')).toEqual({ ok: true, value: null });
    expect(checkLineAmount(null, 'Fee')).toEqual({ ok: true, value: null });
    expect(checkLineAmount('10000000', 'Fee')).toEqual({ ok: true, value: 1_000_000_000 });
  });

  it('refuses negative, fractional paisa, absurd and non-numeric amounts with their reason', () => {
    expect(checkLineAmount('-1', 'Exam fee')).toEqual({ ok: false, message: 'Exam fee cannot be negative' });
    expect(checkLineAmount(0.001, 'Exam fee')).toEqual({ ok: false, message: 'Exam fee can have at most two decimals (whole paise)' });
    expect(checkLineAmount('10000000.01', 'Exam fee')).toEqual({ ok: false, message: 'Exam fee cannot be more than ₹1,00,00,000.00 on one fee line' });
    expect(checkLineAmount('12abc', 'Exam fee')).toEqual({ ok: false, message: 'Exam fee has letters in it; type the amount in digits, e.g. 1500 or 1,500.50' });
    expect(checkLineAmount(Number.NaN, 'Exam fee').ok).toBe(false);
    expect(checkLineAmount(1e21, 'Exam fee').ok).toBe(false);
    expect(checkLineAmount(true, 'Exam fee').ok).toBe(false);
  });

  it('reads back every whole-paise amount exactly as written on the wire', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), (p) => {
        expect(checkLineAmount(toRupeeString(paise(p)), 'Fee')).toEqual({ ok: true, value: p });
      }),
    );
  });
});

describe('receipt numbers', () => {
  it('are prefix, short academic year and a six-digit sequence', () => {
    expect(formatReceiptNumber('MON', '2025-2026', 42)).toBe('MON/2025-26/000042');
    expect(formatReceiptNumber('YRL', '2025-2026', 7)).toBe('YRL/2025-26/000007');
    expect(parseReceiptNumber('FEE/2025-26/000123')).toEqual({ prefix: 'FEE', shortYear: '2025-26', sequence: 123 });
    expect(parseReceiptNumber('XYZ/2025-26/1')).toBeNull();
  });
});

describe('input schemas', () => {
  it('monthly save: a student first, months by name, payment references by mode', () => {
    expect(monthlyBulkSchema.safeParse({ academicYear: '2025-2026', entries: [] }).error?.issues[0]?.message).toBe('Please select a student first');
    const ok = monthlyBulkSchema.parse({ studentId: 'x', academicYear: 2025, entries: [{ month: 'apr', year: '2025', tuitionFee: '1500' }] });
    expect(ok.entries[0]).toMatchObject({ month: 'April', year: 2025, tuitionFee: 150_000, busFee: null });
    expect(ok.paymentMode).toBe('cash');
    expect(monthlyBulkSchema.safeParse({ studentId: 'x', academicYear: '2025-2026', paymentMode: 'upi' }).error?.issues[0]?.message).toBe(
      'Enter the UPI reference for a UPI payment',
    );
  });

  it('yearly save and its lock message per card', () => {
    const entry = yearlyEntrySchema.parse({ studentId: 's', academicYear: '2025-2026', examFee: 800, examDate: '2025-06-01T00:00:00.000Z' });
    expect(entry.examFee).toBe(80_000);
    expect(entry.examDate).toBe('2025-06-01');
    expect(yearlyLockedMessage('admission')).toBe('This yearly fee cannot be modified once entered for the current academic year.');
    expect(yearlyLockedMessage('exam')).toBe('This exam fee cannot be modified once entered for the current academic year.');
  });

  it('Record Fee Payment, promotion and passouts messages', () => {
    expect(feePaymentSchema.safeParse({ fees: [] }).error?.issues[0]?.message).toBe('Please select a student and at least one fee type');
    expect(promoteSchema.safeParse({ toClass: 'Class 6', fromSession: '2025-2026' }).error?.issues[0]?.message).toBe(
      'Please fill in all required fields before promoting the student',
    );
    expect(passoutsFromClassSchema.safeParse({ className: 'Class 12', graduationYear: '25' }).error?.issues[0]?.message).toBe(
      'Please enter a graduation year (e.g. 2025)',
    );
    expect(parseMonthInput('April 2025')).toBe('2025-04');
    expect(parseMonthInput('2026-01')).toBe('2026-01');
    expect(parseMonthInput('Foo 2025')).toBeNull();
  });
});
