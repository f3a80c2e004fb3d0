import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { bulkAdjustSchema, feeStructureSchema } from './fee-structures';
import { normaliseHeader, parseStudentCsv, rowToStudentInput, templateCsv, TEMPLATE_COLUMNS } from './student-import';
import { createStudentSchema, updateStudentSchema } from './students';

describe('CSV headers', () => {
  it.each([
    ['Name', 'name'],
    ['Father Name', 'father_name'],
    ['fatherName', 'father_name'],
    ['  Mobile-Number ', 'mobile_number'],
    ['DOB', 'date_of_birth'],
    ['Address', 'residence'],
    ['Bus Fee', 'monthly_bus_fee'],
    ['Email', 'parent_email'],
    ['Aadhaar No.', 'aadhar_number'],
    ['parentWhatsApp', 'parent_whatsapp'],
  ])('%s → %s', (header, key) => {
    expect(normaliseHeader(header)).toBe(key);
  });
});

describe('parseStudentCsv', () => {
  it('reads the template it offers for download', () => {
    const parsed = parseStudentCsv(templateCsv());
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.rows).toHaveLength(1);
    expect(Object.keys(parsed.rows[0]!.values)).toEqual([...TEMPLATE_COLUMNS]);
    expect(createStudentSchema.safeParse(rowToStudentInput(parsed.rows[0]!.values)).success).toBe(true);
  });

  it('keeps commas inside quoted values, strips a byte-order mark and reads semicolon files', () => {
    const parsed = parseStudentCsv('\uFEFFname;class;residence\n"Khan; Ayaan";5;"Lal Chowk, Srinagar"\n');
    expect(parsed).toEqual({ ok: true, rows: [{ row: 2, values: { name: 'Khan; Ayaan', class: '5', residence: 'Lal Chowk, Srinagar' } }] });
  });

  it('survives any cell text that is quoted properly', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 })), { minLength: 1, maxLength: 20 }), (pairs) => {
        const rows = pairs.map(([a, b]) => [`N${a}`, `C${b}`]);
        const parsed = parseStudentCsv(Papa.unparse({ fields: ['name', 'class'], data: rows }, { quotes: true }));
        expect(parsed.ok).toBe(true);
        if (parsed.ok) expect(parsed.rows.map((r) => [r.values.name, r.values.class])).toEqual(rows.map(([a, b]) => [a!.trim(), b!.trim()]));
      }),
    );
  });
});

describe('shared form rules', () => {
  it('defaults a bulk row to section A and bus fee 0', () => {
    const parsed = createStudentSchema.parse(rowToStudentInput({ name: 'Asha', class: 'ukg' }));
    expect(parsed).toMatchObject({ class: 'UKG', section: 'A', monthlyBusFee: 0, aadharNumber: null, dateOfBirth: null });
  });

  it('keeps, replaces or clears Aadhaar on edit', () => {
    const base = { name: 'Asha', class: 'UKG', section: 'A', rollNumber: '3' };
    expect(updateStudentSchema.parse({ ...base, aadharNumber: 'XXXX XXXX 1234' }).aadharNumber).toBeUndefined();
    expect(updateStudentSchema.parse({ ...base }).aadharNumber).toBeUndefined();
    expect(updateStudentSchema.parse({ ...base, aadharNumber: '' }).aadharNumber).toBeNull();
    expect(updateStudentSchema.parse({ ...base, aadharNumber: '1234 5678 9012' }).aadharNumber).toBe('123456789012');
  });

  it('reads fee amounts and percentages without floats', () => {
    const s = feeStructureSchema.parse({ className: '1st', academicYear: '2025-26', monthlyTuitionFee: '1,500.05', yearlyFee: 0.1 });
    expect(s).toMatchObject({ className: 'Class 1', academicYear: '2025-2026', monthlyTuitionFee: 150_005, yearlyFee: 10, examFee: 0 });
    expect(bulkAdjustSchema.parse({ percentage: 7.5, feeTypes: { miscFee: true } }).percentage).toBe('7.5');
    expect(bulkAdjustSchema.parse({ percentage: '10 %', feeTypes: { miscFee: true } }).percentage).toBe('10');
    expect(bulkAdjustSchema.safeParse({ percentage: '0.001', feeTypes: { miscFee: true } }).success).toBe(false);
  });
});
