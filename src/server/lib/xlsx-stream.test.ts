import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readZip } from '../test/zip';
import { EXCEL_MAX_ROWS, excelDate, SHARED_STRINGS_MAX_CHARS, XlsxWriter, xmlText } from './xlsx-stream';

async function bytesOf(book: XlsxWriter): Promise<Buffer> {
  const chunks: Buffer[] = [];
  book.output.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    book.output.on('end', resolve);
    book.output.on('error', reject);
  });
  await ended;
  return Buffer.concat(chunks);
}

describe('the streamed xlsx writer', () => {
  it('writes sheets that ExcelJS reads back cell for cell: text, numbers, money from paise, dates, styles', async () => {
    const book = new XlsxWriter({ creator: 'Sunrise & Sons <School>', now: new Date('2026-11-27T10:00:00Z') });
    const read = bytesOf(book);
    const s = book.sheet('Summary', [{ width: 30 }, { width: 20, kind: 'money' }]);
    s.row(['Sunrise: Financial Report'], 'title');
    s.row(['Period', '2026-04-01 to 2026-11-30']);
    s.blank();
    s.row(['Net profit', -15575075], 'bold');
    s.row(['Five paise', 5]);
    await s.end();
    const t = book.sheet('Rows', [{ width: 20 }, { width: 8 }, { width: 12, kind: 'money' }, { width: 12, kind: 'date' }]);
    t.row(['Name', 'Roll No.', 'Amount', 'Paid on'], 'bold');
    t.row(['=HYPERLINK("http://x","y")', 7, 120050, '2026-10-10']);
    t.row(['  A & B <c> "d"\u0007', 0, 0, '2024-02-29']);
    t.row(['Total', '', 120050, ''], 'bold');
    await t.end();
    await book.end();
    const bytes = await read;

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Summary', 'Rows']);
    expect(workbook.creator).toBe('Sunrise & Sons <School>');

    const summary = workbook.getWorksheet('Summary')!;
    expect(summary.getCell('A1').value).toBe('Sunrise: Financial Report');
    expect(summary.getCell('A1').font?.bold).toBe(true);
    expect(summary.getCell('A1').font?.size).toBe(14);
    expect(summary.getCell('B2').value).toBe('2026-04-01 to 2026-11-30');
    expect(summary.getRow(3).cellCount).toBe(0);
    expect(summary.getCell('A4').value).toBe('Net profit');
    expect(summary.getCell('B4').value).toBe(-155750.75);
    expect(summary.getCell('B4').numFmt).toBe('#,##,##0.00');
    expect(summary.getCell('B4').font?.bold).toBe(true);
    expect(summary.getCell('B5').value).toBe(0.05);
    expect(summary.getColumn(1).width).toBe(30);

    const rows = workbook.getWorksheet('Rows')!;
    expect(rows.rowCount).toBe(4);
    expect(rows.getRow(1).values).toEqual([undefined, 'Name', 'Roll No.', 'Amount', 'Paid on']);
    // text is never a formula
    expect(rows.getCell('A2').value).toBe('=HYPERLINK("http://x","y")');
    expect(rows.getCell('B2').value).toBe(7);
    expect(rows.getCell('C2').value).toBe(1200.5);
    expect(rows.getCell('D2').value).toEqual(new Date('2026-10-10T00:00:00.000Z'));
    expect(rows.getCell('D2').numFmt).toBe('dd-mm-yyyy');
    expect(rows.getCell('A3').value).toBe('  A & B <c> "d"');
    expect(rows.getCell('B3').value).toBe(0);
    expect(rows.getCell('C3').value).toBe(0);
    expect(rows.getCell('D3').value).toEqual(new Date('2024-02-29T00:00:00.000Z'));
    expect(rows.getCell('A4').value).toBe('Total');
    expect(rows.getCell('A4').font?.bold).toBe(true);
    expect(rows.getCell('B4').value).toBe(null);
    expect(rows.getCell('C4').value).toBe(1200.5);
  });

  it('writes each text once, in the shared strings, and inline once they hold their most', async () => {
    const book = new XlsxWriter();
    const read = bytesOf(book);
    const s = book.sheet('Rows', [{ width: 20 }, { width: 10 }, { width: 12, kind: 'money' }]);
    for (let i = 0; i < 3; i++) s.row(['Aarav Sharma', 'Apr 2026', 150000]);
    s.row([' Diya & <Co> ', 'Apr 2026', 1]);
    // text past the table's most is written where it stands
    const long = 'x'.repeat(1000);
    const rows = Math.ceil(SHARED_STRINGS_MAX_CHARS / long.length) + 5;
    for (let i = 0; i < rows; i++) if (s.row([`${i} ${long}`])) await s.flush();
    await s.end();
    await book.end();
    const bytes = await read;

    const parts = new Map([...readZip(bytes)].map(([name, data]) => [name, data.toString('utf8')]));
    const sheet = parts.get('xl/worksheets/sheet1.xml')!;
    const strings = parts.get('xl/sharedStrings.xml')!;
    expect(strings.split('<si><t>Aarav Sharma</t></si>')).toHaveLength(2);
    expect(strings).toContain('<si><t xml:space="preserve"> Diya &amp; &lt;Co&gt; </t></si>');
    expect(sheet).not.toContain('Aarav Sharma');
    expect(sheet).toContain('<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>1</v></c><c r="C2" s="3"><v>1500.00</v></c></row>');
    expect(parts.get('[Content_Types].xml')).toContain('PartName="/xl/sharedStrings.xml"');
    expect(parts.get('xl/_rels/workbook.xml.rels')).toContain('Target="sharedStrings.xml"');
    const inline = sheet.split('t="inlineStr"').length - 1;
    expect(inline).toBeGreaterThan(0);
    expect(inline).toBeLessThan(rows);
    expect(strings.length).toBeLessThan(SHARED_STRINGS_MAX_CHARS + 200_000);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const ws = workbook.getWorksheet('Rows')!;
    expect(ws.getRow(3).values).toEqual([undefined, 'Aarav Sharma', 'Apr 2026', 1500]);
    expect(ws.getCell('A4').value).toBe(' Diya & <Co> ');
    expect(ws.getCell('A5').value).toBe(`0 ${long}`);
    expect(ws.getCell(`A${rows + 4}`).value).toBe(`${rows - 1} ${long}`);
  });

  it('goes on to a sheet after it, under the same header, when a table is longer than a sheet holds', async () => {
    expect(EXCEL_MAX_ROWS).toBe(1_048_576);
    const book = new XlsxWriter({ maxRows: 4 });
    const read = bytesOf(book);
    const s = book.sheet('Summary', [{ width: 20 }]);
    s.row(['Income']);
    await s.end();
    const m = book.sheet('A sheet named thirty-one chars', [{ width: 20 }, { width: 12, kind: 'money' }], ['Student Name', 'Total']);
    // ten rows and a total, written without a flush after each, as a short table would be
    for (let i = 1; i <= 10; i++) m.row([`Student ${i}`, i * 100]);
    m.blank();
    m.row(['Total', 5500], 'bold');
    await m.end();
    const e = book.sheet('Expenses', [{ width: 20 }], ['Description']);
    e.row(['Chalk']);
    await e.end();
    await book.end();

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await read) as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual([
      'Summary',
      'A sheet named thirty-one chars',
      'A sheet named thirty-one ch (2)',
      'A sheet named thirty-one ch (3)',
      'A sheet named thirty-one ch (4)',
      'Expenses',
    ]);
    const pages = workbook.worksheets.slice(1, 5).map((w) => w.getSheetValues().slice(1).map((row) => (row ? (row as unknown[]).slice(1) : undefined)));
    expect(pages).toEqual([
      [['Student Name', 'Total'], ['Student 1', 1], ['Student 2', 2], ['Student 3', 3]],
      [['Student Name', 'Total'], ['Student 4', 4], ['Student 5', 5], ['Student 6', 6]],
      [['Student Name', 'Total'], ['Student 7', 7], ['Student 8', 8], ['Student 9', 9]],
      [['Student Name', 'Total'], ['Student 10', 10], undefined, ['Total', 55]],
    ]);
    for (const w of workbook.worksheets.slice(1, 5)) expect(w.getCell('A1').font?.bold).toBe(true);
    expect(workbook.getWorksheet('A sheet named thirty-one ch (4)')!.getCell('B4').font?.bold).toBe(true);
    expect(workbook.getWorksheet('Expenses')!.getSheetValues()[2]).toEqual([undefined, 'Chalk']);
  });

  it('waits for a slow reader instead of gathering the sheet in memory', async () => {
    const book = new XlsxWriter();
    let received = 0;
    let writtenRows = 0;
    const seenAt: number[] = [];
    const slow = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _enc, done) {
        received += chunk.length;
        seenAt.push(writtenRows);
        setTimeout(done, 1);
      },
    });
    book.output.pipe(slow);
    const finished = new Promise((resolve) => slow.on('finish', resolve));
    const sheet = book.sheet('Big', [{ width: 10 }, { width: 10, kind: 'money' }]);
    for (let i = 0; i < 60_000; i++) {
      sheet.row([`Student number ${i} of a very large school`, i * 101]);
      writtenRows += 1;
      await sheet.flush();
    }
    await sheet.end();
    await book.end();
    await finished;
    expect(received).toBeGreaterThan(0);
    // the reader saw bytes long before the last row was written: the writer waited for it along the way
    expect(seenAt.filter((n) => n < 30_000).length).toBeGreaterThan(1);
  });

  it('stops writing when the reader goes away', async () => {
    const book = new XlsxWriter();
    const sheet = book.sheet('Big', [{ width: 10 }]);
    book.output.destroy();
    await expect(
      (async () => {
        for (let i = 0; i < 1_000_000; i++) {
          sheet.row([`row ${i} with enough text to fill the chunks quickly`]);
          await sheet.flush();
        }
      })(),
    ).rejects.toThrow();
    expect(book.gone).toBe(true);
  });

  it('escapes text for XML and turns ISO dates into Excel serials', () => {
    expect(xmlText('a & b < c > d "e"')).toBe('a &amp; b &lt; c &gt; d &quot;e&quot;');
    expect(xmlText('bell\u0007tab\tline\n')).toBe('belltab\tline\n');
    expect(xmlText('plain')).toBe('plain');
    expect(excelDate('1900-03-01')).toBe(61);
    expect(excelDate('2026-10-10')).toBe(46305);
    expect(excelDate('not a date')).toBeNull();
  });

  it('refuses sheet names Excel refuses', () => {
    const book = new XlsxWriter();
    expect(() => book.sheet('a/b', [])).toThrow();
    expect(() => book.sheet('x'.repeat(32), [])).toThrow();
    book.output.destroy();
  });
});
