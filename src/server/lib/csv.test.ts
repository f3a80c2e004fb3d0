import { describe, expect, it } from 'vitest';
import { csvCell, csvDocument } from './csv';

describe('the CSV writer', () => {
  it('neutralises a cell a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+91 98765')).toBe("'+91 98765");
    expect(csvCell('-1+cmd|A1')).toBe("'-1+cmd|A1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
  });

  it('keeps numbers as numbers, negative ones included', () => {
    expect(csvCell(-150)).toBe('-150');
    expect(csvCell('-150.00')).toBe('-150.00');
    expect(csvCell('1500.00')).toBe('1500.00');
    expect(csvCell(0)).toBe('0');
  });

  it('quotes commas, quotes, line breaks and edge spaces, and writes nothing for a missing value', () => {
    expect(csvCell('Lane 4, Srinagar')).toBe('"Lane 4, Srinagar"');
    expect(csvCell('Said "hi"')).toBe('"Said ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded')).toBe('" padded"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvDocument([['Name', 'Amount'], [], ['Asha', '10.00']])).toBe('\uFEFFName,Amount\r\n\r\nAsha,10.00\r\n');
  });
});
