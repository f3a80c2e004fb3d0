import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { financialYear, gstinCheckChar, gstinProblem, gstOn, invoiceNumber, isIntraState, splitInclusive, taxLines, totalInWords } from './invoices';
import { paise } from './money';

describe('invoice numbers (ruling 33)', () => {
  it('run per Indian financial year, which turns on 1 April in India time', () => {
    expect(financialYear(new Date('2026-11-22T10:00:00Z'))).toBe('2026-27');
    expect(financialYear(new Date('2027-03-31T18:29:59Z'))).toBe('2026-27');
    expect(financialYear(new Date('2027-03-31T18:30:00Z'))).toBe('2027-28'); // midnight of 1 April in India
    expect(financialYear(new Date('2099-05-01T00:00:00Z'))).toBe('2099-00');
    expect(invoiceNumber('SL', '2026-27', 123)).toBe('SL/2026-27/000123');
  });
});

describe('GST by place of supply', () => {
  it('is CGST 9% + SGST 9% within the supplier state and IGST 18% across, the same total either way', () => {
    const gst = gstOn(paise(300_000));
    expect(gst).toBe(54_000);
    expect(taxLines(gst, isIntraState('Jammu and Kashmir', 'Jammu and Kashmir'))).toEqual({ cgst: 27_000, sgst: 27_000, igst: 0 });
    expect(taxLines(gst, isIntraState('Jammu and Kashmir', 'Maharashtra'))).toEqual({ cgst: 0, sgst: 0, igst: 54_000 });
    expect(isIntraState('Jammu and Kashmir', null)).toBe(false);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.boolean(), (taxable, intra) => {
        const g = gstOn(paise(taxable));
        const t = taxLines(g, intra);
        return t.cgst + t.sgst + t.igst === g && Math.abs(t.cgst - t.sgst) <= 1 && Number.isInteger(t.cgst);
      }),
    );
  });

  it('splits an amount received with GST into taxable + tax that add up to it exactly', () => {
    expect(splitInclusive(paise(354_000))).toEqual({ taxable: 300_000, gst: 54_000 });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000_000 }), (total) => {
        const { taxable, gst } = splitInclusive(paise(total));
        return taxable + gst === total && Math.abs(gst - gstOn(taxable)) <= 1 && taxable > 0;
      }),
    );
  });

  it('writes the total in Indian words', () => {
    expect(totalInWords(paise(12_345_600))).toBe('Rupees One Lakh Twenty-Three Thousand Four Hundred Fifty-Six Only');
  });
});

describe('GSTIN', () => {
  it('checks shape, check character and state code', () => {
    expect(gstinProblem('27AAPFU0939F1ZV', 'Maharashtra')).toBeNull();
    expect(gstinProblem('27AAPFU0939F1ZW', 'Maharashtra')).toMatch(/typing mistake/);
    expect(gstinProblem('27AAPFU0939F1ZV', 'Karnataka')).toMatch(/state/);
    expect(gstinProblem('27AAPFU0939F1Z', 'Maharashtra')).toMatch(/15 characters/);
    expect(gstinCheckChar('01AAACL1234C1Z')).toBe('J');
  });
});
