import { describe, expect, it } from 'vitest';
import { amountProblemMessage, readAmount, rupeeInput } from './amount-input';
import { checkLineAmount } from './ledger';

const value = (input: unknown) => {
  const r = readAmount(input);
  return r.ok ? r.value : r.problem;
};

describe('the one amount input rule', () => {
  it('number inputs refuse 1e3 instead of reading it as 1000', () => {
    expect(value('1e3')).toBe('exponent');
    expect(value('1E3')).toBe('exponent');
    expect(value('2.5e2')).toBe('exponent');
    expect(value(1e21)).toBe('exponent');
    expect(checkLineAmount('1e3', 'Tuition fee')).toEqual({ ok: false, message: 'Tuition fee must be written out in digits, e.g. 1000 (not 1e3)' });
  });

  it('letters in an amount are a visible error, never silently dropped', () => {
    expect(value('12abc')).toBe('letters');
    expect(value('15OO')).toBe('letters');
    expect(value('Rs 500')).toBe('letters');
    expect(checkLineAmount('15OO', 'Bus fee')).toEqual({ ok: false, message: 'Bus fee has letters in it; type the amount in digits, e.g. 1500 or 1,500.50' });
    expect(rupeeInput('Bus fee must be an amount').safeParse('5oo').error?.issues[0]?.message).toBe('Bus fee must be an amount (digits only, no letters)');
  });

  it('accepts Indian and international grouping commas and reads them as the same amount', () => {
    expect(value('1,00,000')).toBe(10_000_000);
    expect(value('100,000')).toBe(10_000_000);
    expect(value('12,34,567.50')).toBe(123_456_750);
    expect(value('1,500')).toBe(150_000);
    expect(value('₹ 1,500.5')).toBe(150_050);
  });

  it('refuses commas in places no grouping puts them', () => {
    expect(value('1,0,0')).toBe('commas');
    expect(value('10,00')).toBe('commas');
    expect(value(',500')).toBe('commas');
    expect(amountProblemMessage('Amount', 'commas')).toBe('Amount has commas in the wrong places; write 1,00,000 or 100000');
  });

  it('keeps the paise exact and the other refusals named', () => {
    expect(value('1500')).toBe(150_000);
    expect(value('1.005')).toBe('decimals');
    expect(value('0.1')).toBe(10);
    expect(value(1500.5)).toBe(150_050);
    expect(value('-5')).toBe('negative');
    expect(value('1.2.3')).toBe('format');
    expect(value('.')).toBe('format');
    expect(value('')).toBeNull();
    expect(value('   ')).toBeNull();
    expect(value(null)).toBeNull();
    expect(value({})).toBe('format');
  });
});
