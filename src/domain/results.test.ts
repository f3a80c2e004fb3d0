import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  averageHalves,
  bulkResultsSchema,
  computeMarks,
  emptyMarkTexts,
  formatHalves,
  formatPercent,
  gradeFor,
  grandTotal,
  isEntryChanged,
  MARK_FIELDS,
  MARK_MAX,
  parseHalves,
  parseMark,
  subjectPercent,
  type MarkHalves,
} from './results';

const h = (marks: number) => marks * 2; // whole marks → half-marks, for readable tables

describe('grade bands (operations §9) at every edge', () => {
  const cases: Array<[number, string]> = [
    [100, 'A+'], [90, 'A+'], [89.5, 'A'],
    [80, 'A'], [79.5, 'B+'],
    [70, 'B+'], [69.5, 'B'],
    [60, 'B'], [59.5, 'C+'],
    [50, 'C+'], [49.5, 'C'],
    [40, 'C'], [39.5, 'D'],
    [33, 'D'], [32.5, 'F'],
    [0.5, 'F'], [0, 'F'],
  ];
  it.each(cases)('a total of %s out of 100 is %s', (total, grade) => {
    expect(gradeFor(h(total), 100)).toBe(grade);
  });

  it('grades a grand total on its percent, not its marks', () => {
    // 720 of 800 is exactly 90%
    expect(gradeFor(h(720), 800)).toBe('A+');
    expect(gradeFor(h(719.5), 800)).toBe('A');
    // 264 of 800 is exactly 33%
    expect(gradeFor(h(264), 800)).toBe('D');
    expect(gradeFor(h(263.5), 800)).toBe('F');
  });
});

describe('parseMark', () => {
  it.each([
    ['f1', '4', 8], ['f1', '4.5', 9], ['f1', '4.50', 9], ['f1', ' 5 ', 10], ['f1', '0', 0], ['f1', '0.5', 1],
    ['ca', '20', 40], ['ca', '19.5', 39], ['sa', '50', 100], ['sa', '050', 100], ['sa', 37.5, 75], ['f6', 0, 0],
  ] as const)('%s %j is %i half-marks', (field, input, halves) => {
    expect(parseMark(field, input)).toEqual({ ok: true, value: halves });
  });

  it.each([['f1', ''], ['f1', '   '], ['ca', null], ['sa', undefined]] as const)('%s %j is not entered', (field, input) => {
    expect(parseMark(field, input)).toEqual({ ok: true, value: null });
  });

  it.each([
    ['f1', '5.5', 'F1 must be between 0 and 5'],
    ['f3', '6', 'F3 must be between 0 and 5'],
    ['ca', '20.5', 'CA must be between 0 and 20'],
    ['ca', '-1', 'CA must be between 0 and 20'],
    ['sa', '51', 'SA must be between 0 and 50'],
    ['sa', '100000000', 'SA must be between 0 and 50'],
    ['sa', 1e21, 'SA must be between 0 and 50'],
    ['sa', 'abc', 'SA must be a number'],
    ['f2', '4,5', 'F2 must be a number'],
    ['f2', '1e1', 'F2 must be a number'],
    ['f2', Number.NaN, 'F2 must be a number'],
    ['f4', '4.25', 'F4 must be a whole or half mark (like 4 or 4.5)'],
    ['ca', 12.3, 'CA must be a whole or half mark (like 4 or 4.5)'],
  ] as const)('%s %j: %s', (field, input, message) => {
    expect(parseMark(field, input)).toEqual({ ok: false, message });
  });

  it('accepts negative zero as zero', () => {
    expect(parseMark('ca', '-0')).toEqual({ ok: true, value: 0 });
  });

  it('round-trips every valid mark through formatHalves', () => {
    for (const f of MARK_FIELDS) {
      for (let halves = 0; halves <= MARK_MAX[f] * 2; halves++) {
        expect(parseMark(f, formatHalves(halves))).toEqual({ ok: true, value: halves });
      }
    }
    expect(formatHalves(null)).toBe('');
  });
});

describe('computeMarks: FA, total and grade', () => {
  const marks = (m: Partial<Record<keyof MarkHalves, number>>): MarkHalves => ({
    f1: null, f2: null, f3: null, f4: null, f5: null, f6: null, ca: null, sa: null,
    ...Object.fromEntries(Object.entries(m).map(([k, v]) => [k, h(v)])),
  });

  it('FA is F1 to F6, total is FA + CA + SA', () => {
    const out = computeMarks(marks({ f1: 5, f2: 4.5, f3: 4, f4: 3.5, f5: 5, f6: 5, ca: 18.5, sa: 44 }));
    expect(formatHalves(out.faHalves)).toBe('27');
    expect(formatHalves(out.totalHalves)).toBe('89.5');
    expect(out.grade).toBe('A');
  });

  it('full marks are 30 + 20 + 50 = 100, A+', () => {
    const out = computeMarks(marks({ f1: 5, f2: 5, f3: 5, f4: 5, f5: 5, f6: 5, ca: 20, sa: 50 }));
    expect([out.faHalves, out.totalHalves, out.grade]).toEqual([60, 200, 'A+']);
  });

  it('blank fields count as nothing', () => {
    const out = computeMarks(marks({ sa: 16.5 }));
    expect([formatHalves(out.faHalves), formatHalves(out.totalHalves), out.grade]).toEqual(['0', '16.5', 'F']);
  });

  it('the total is always the sum of its parts and never above 100 (property)', () => {
    const field = (max: number) => fc.option(fc.integer({ min: 0, max: max * 2 }), { nil: null });
    fc.assert(
      fc.property(
        fc.record({ f1: field(5), f2: field(5), f3: field(5), f4: field(5), f5: field(5), f6: field(5), ca: field(20), sa: field(50) }),
        (m) => {
          const out = computeMarks(m);
          const parts = MARK_FIELDS.reduce((s, f) => s + (m[f] ?? 0), 0);
          expect(out.totalHalves).toBe(parts);
          expect(out.faHalves).toBeLessThanOrEqual(60);
          expect(out.totalHalves).toBeLessThanOrEqual(200);
        },
      ),
    );
  });
});

describe('percentages (operations §9)', () => {
  it.each([[h(87.5), '87.5'], [h(100), '100.0'], [h(0), '0.0'], [h(33), '33.0'], [h(0.5), '0.5']])(
    'subject total %i half-marks shows %s',
    (total, percent) => expect(subjectPercent(total)).toBe(percent),
  );

  it('the grand percent counts only subjects with a total above zero', () => {
    const g = grandTotal([h(80), h(90), 0, null, h(70.5)]);
    expect(g.countedSubjects).toBe(3);
    expect(g.maxMarks).toBe(300);
    expect(formatHalves(g.totalHalves)).toBe('240.5');
    expect(g.percent).toBe('80.17'); // 240.5 / 300 = 80.1666…
    expect(g.grade).toBe('A');
  });

  it('no marks at all: nothing counted, no grade', () => {
    expect(grandTotal([null, 0])).toEqual({ totalHalves: 0, countedSubjects: 0, maxMarks: 0, percent: '0.00', grade: null });
  });

  it('rounds half up without floats', () => {
    expect(formatPercent(1, 8, 2)).toBe('12.50');
    expect(formatPercent(1, 3, 2)).toBe('33.33');
    expect(formatPercent(2, 3, 2)).toBe('66.67');
    expect(formatPercent(1, 3, 0)).toBe('33');
    expect(formatPercent(5, 0, 1)).toBe('0.0');
  });

  it('averages half-marks to one decimal', () => {
    expect(averageHalves([h(80), h(91)])).toBe('85.5');
    expect(averageHalves([h(70), h(71), h(71)])).toBe('70.7');
    expect(averageHalves([])).toBe('');
  });
});

describe('change detection (operations §4 Marks)', () => {
  const base = { ...emptyMarkTexts(), f1: '4', ca: '15' };

  it('a typed value that differs from the loaded one is a change', () => {
    expect(isEntryChanged({ ...base, f2: '3' }, base)).toBe(true);
    expect(isEntryChanged({ ...base, f1: '5' }, base)).toBe(true);
  });

  it('the same mark written differently, or an untouched row, is not a change', () => {
    expect(isEntryChanged({ ...base, f1: '4.0' }, base)).toBe(false);
    expect(isEntryChanged(base, base)).toBe(false);
  });

  it('a field cleared to blank is not a change', () => {
    expect(isEntryChanged({ ...base, ca: '' }, base)).toBe(false);
  });
});

describe('bulk input schema', () => {
  it('normalises class and section, and ignores client-computed fields', () => {
    const parsed = bulkResultsSchema.parse({
      class: '5th',
      section: 'b',
      results: [{ studentId: 'x', academicSession: '2025-2026', subject: 'English', f1: '4', fa: '99', totalMarks: 'x', grade: 'Z' }],
    });
    expect(parsed.class).toBe('Class 5');
    expect(parsed.section).toBe('B');
    expect(parsed.results[0]!.f1).toBe('4');
  });

  it('refuses an empty list', () => {
    const out = bulkResultsSchema.safeParse({ results: [] });
    expect(out.success).toBe(false);
    expect(out.error?.issues[0]?.message).toBe('No results to save');
  });
});

describe('parseHalves', () => {
  it.each([['89.5', 179], ['712', 1424], ['0', 0], ['100.0', 200]] as const)('%s is %i half-marks', (text, halves) => {
    expect(parseHalves(text)).toBe(halves);
  });
  it.each(['', null, 'x', '-1', '4.25'])('%j is not a figure', (text) => expect(parseHalves(text)).toBeNull());
});
