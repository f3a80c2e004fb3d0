import { describe, expect, it } from 'vitest';
import { compareClasses, nextClass, normaliseClass, normaliseSection } from './classes';

describe('normaliseClass (ruling 7)', () => {
  it.each([
    ['1st', 'Class 1'], ['IST', 'Class 1'], ['I', 'Class 1'], ['Class 1', 'Class 1'], ['grade 1', 'Class 1'],
    ['class-1', 'Class 1'], ['2nd', 'Class 2'], ['3rd', 'Class 3'], ['12th', 'Class 12'], ['XII', 'Class 12'],
    ['10', 'Class 10'], ['nursery', 'Nursery'], ['L.K.G.', 'LKG'], ['ukg', 'UKG'], ['Std 5', 'Class 5'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseClass(input)).toBe(expected);
  });

  it.each(['13th', 'Class 0', 'Grade', 'KG', '', 'First'])('refuses %s', (input) => {
    expect(normaliseClass(input)).toBeNull();
  });
});

describe('sections and order', () => {
  it('defaults the section to A and uppercases it', () => {
    expect(normaliseSection('')).toBe('A');
    expect(normaliseSection(' b ')).toBe('B');
    expect(normaliseSection('G')).toBeNull();
  });

  it('promotes one class up and ends after Class 12', () => {
    expect(nextClass('UKG')).toBe('Class 1');
    expect(nextClass('Class 11')).toBe('Class 12');
    expect(nextClass('Class 12')).toBeNull();
  });

  it('sorts in school order, not alphabetically', () => {
    expect(['Class 10', 'LKG', 'Class 2', 'Nursery', 'Class 1'].sort(compareClasses)).toEqual(['Nursery', 'LKG', 'Class 1', 'Class 2', 'Class 10']);
  });
});
