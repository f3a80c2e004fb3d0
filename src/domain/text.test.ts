import { describe, expect, it } from 'vitest';
import { createStudentSchema } from './students';
import { controlCharacterMessage, findControlCharacter } from './text';

describe('control characters in text', () => {
  it('finds the first field holding one, keys included, and lets tabs and line breaks through', () => {
    expect(findControlCharacter({ name: 'Asha', address: 'Lane 4\r\nSrinagar\t190001' })).toBeNull();
    expect(findControlCharacter({ students: [{ name: 'Asha' }, { name: 'Ravi\u0000' }] })).toBe('students.1.name');
    expect(findControlCharacter({ 'bad\u001bkey': 'x' })).toBe('bad\u001bkey');
    expect(findControlCharacter('x\u007f')).toBe('');
    expect(findControlCharacter({ at: new Date(0), n: 4, ok: true, none: null })).toBeNull();
  });

  it('names the field in the message', () => {
    expect(controlCharacterMessage('students.3.fatherName')).toBe('Father name must not contain control characters (such as NUL)');
    expect(controlCharacterMessage('academic_year')).toBe('Academic year must not contain control characters (such as NUL)');
  });

  it('a student name must be one line', () => {
    const base = { class: 'Class 1', section: 'A', fatherName: 'Ravi', mobileNumber: '9876543210' };
    const result = createStudentSchema.safeParse({ ...base, name: 'Asha\nKumari' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Student name must be one line without control characters');
  });
});
