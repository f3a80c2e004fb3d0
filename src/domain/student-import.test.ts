import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { bulkAdjustSchema, feeStructureSchema } from './fee-structures';
import { describeMatch, fileDuplicates, normaliseHeader, parseStudentCsv, rejectedRowsCsv, rowToStudentInput, templateCsv, TEMPLATE_COLUMNS } from './student-import';
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

describe('rejected rows file', () => {
  it('the rejected rows download has the original columns plus Errors and can be imported again as is', () => {
    const original = [
      'Student Name,Class,Mobile,Aadhaar,Bus Fee',
      'Good Row,Class 1,9876543210,,0',
      '',
      'Bad Row,Class 13,+919876543210,1234 5678,1e3',
      '"=HYPERLINK(""http://x"")",Class 2,,,-5',
    ].join('\n');
    const csv = rejectedRowsCsv(original, [
      { row: 5, reasons: ['Bus fee must be an amount of at least 0 with at most 2 decimals'] },
      { row: 4, reasons: ['Unknown class "Class 13"', 'Aadhar number must be 12 digits'] },
    ]);
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('Student Name,Class,Mobile,Aadhaar,Bus Fee,Errors');
    expect(lines[1]).toBe(`Bad Row,Class 13,'+919876543210,1234 5678,1e3,"Unknown class ""Class 13""; Aadhar number must be 12 digits"`);
    // a formula is never handed to the spreadsheet as a formula
    expect(lines[2]).toBe(`"'=HYPERLINK(""http://x"")",Class 2,,,'-5,Bus fee must be an amount of at least 0 with at most 2 decimals`);

    const again = parseStudentCsv(csv);
    expect(again.ok && again.rows.map((r) => r.values)).toEqual([
      { name: 'Bad Row', class: 'Class 13', mobile_number: '+919876543210', aadhar_number: '1234 5678', monthly_bus_fee: '1e3', errors: 'Unknown class "Class 13"; Aadhar number must be 12 digits' },
      { name: '=HYPERLINK("http://x")', class: 'Class 2', mobile_number: '', aadhar_number: '', monthly_bus_fee: '-5', errors: 'Bus fee must be an amount of at least 0 with at most 2 decimals' },
    ]);
  });

  it('flags a student twice in one file by name, father and class (any case and spacing) or by Aadhaar', () => {
    const dups = fileDuplicates([
      { row: 2, name: 'Aarav Sharma', fatherName: 'Rakesh', class: 'Class 5', section: 'A', aadhaar: '111122223333' },
      { row: 3, name: ' aarav  SHARMA', fatherName: 'rakesh ', class: 'Class 5', section: 'B', aadhaar: null },
      { row: 4, name: 'Zoya', fatherName: 'Imran', class: 'Class 5', section: 'A', aadhaar: '111122223333' },
      { row: 5, name: 'Aarav Sharma', fatherName: 'Rakesh', class: 'Class 6', section: 'A', aadhaar: null },
    ]);
    expect([...dups.keys()]).toEqual([3, 4]);
    expect(describeMatch(dups.get(4)![0]!)).toBe('Same Aadhaar number as row 2 of this file (Aarav Sharma, Class 5-A)');
  });
});
