import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { createEventLineParser, importSummary, templateCsv, TEMPLATE_COLUMNS, type BulkEvent } from './bulk-import';

describe('bulk import in the browser', () => {
  it('the template has the columns of operations §5 and parses as CSV', () => {
    const parsed = Papa.parse<string[]>(templateCsv().trim());
    expect(parsed.errors).toEqual([]);
    expect(parsed.data[0]).toEqual([...TEMPLATE_COLUMNS]);
    expect(parsed.data[1]).toHaveLength(TEMPLATE_COLUMNS.length);
    expect(parsed.data[1]![2]).toBe('A');
    // quoted because of the comma inside
    expect(templateCsv()).toContain('"Lal Chowk, Srinagar"');
  });

  it('reads data: lines split across chunks and ignores everything else', () => {
    const events: BulkEvent[] = [];
    const parser = createEventLineParser((e) => events.push(e));
    parser.push('data: {"type":"progress","processed":1,"total":2,"imp');
    parser.push('orted":1,"errors":0,"currentStudent":"Asha"}\n\n: keep-alive\n');
    parser.push('data: {"type":"complete","result":{"imported":2,"errors":[],"sections":[{"class":"Class 1","section":"A","count":2}]}}');
    expect(events).toHaveLength(1);
    parser.end();
    expect(events.map((e) => e.type)).toEqual(['progress', 'complete']);
    expect(events[0]).toMatchObject({ processed: 1, total: 2, imported: 1, currentStudent: 'Asha' });
  });

  it('the success message says how many, where, and how many errors', () => {
    expect(
      importSummary({
        imported: 25,
        errors: [{ row: 4, name: 'X', reason: 'Unknown class "13th"', reasons: ['Unknown class "13th"'] }],
        skipped: [{ row: 7, name: 'Y', reason: 'Skipped as a possible duplicate' }],
        sections: [
          { class: 'Class 5', section: 'A', count: 20 },
          { class: 'Class 5', section: 'B', count: 5 },
        ],
      }),
    ).toBe('Imported 25 students into Class 5-A (20), Class 5-B (5). 1 error. 1 possible duplicate skipped.');
  });
});
