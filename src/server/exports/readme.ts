import { ENTITIES, type ColumnKind } from './entities';

const KIND_NOTE: Record<ColumnKind, string> = {
  text: 'text',
  number: 'whole number',
  money: 'rupees, e.g. 1500.50',
  date: 'date, YYYY-MM-DD',
  datetime: 'India time, YYYY-MM-DD HH:MM:SS',
  boolean: 'yes or no',
  marks: 'marks, halves allowed (4.5)',
};

/** The README.txt at the top of the zip: what each file holds and what each column means. */
export function readmeText(input: { schoolName: string; generatedAt: string; counts: Record<string, number> }): string {
  const lines: string[] = [
    `School Ledger data export: ${input.schoolName}`,
    `Made ${input.generatedAt} (India time).`,
    '',
    'Your school owns this data. The zip holds the same records twice:',
    '  csv/<name>.csv     one file per kind of record (UTF-8 with a byte order mark, comma separated)',
    '  school-data.xlsx   one Excel sheet per kind of record, same columns, amounts formatted in rupees',
    '                     (a kind longer than the 1,048,576 rows a sheet holds goes on in "Receipt Lines (2)", ...)',
    '',
    'In the CSV files amounts are rupees with two decimals ("1500.50"), exactly as stored; dates are',
    'YYYY-MM-DD and times are India time. Ids ("Student ID", "Receipt ID") join the files together.',
    'Aadhaar numbers are masked (XXXX XXXX 1234): the full numbers never leave the application.',
    '',
  ];
  for (const entity of ENTITIES) {
    const rows = input.counts[entity.file] ?? 0;
    lines.push(`== csv/${entity.file}.csv  (sheet "${entity.sheet}", ${rows} ${rows === 1 ? 'row' : 'rows'})`);
    lines.push(entity.about, '');
    for (const column of entity.columns) {
      const about = column.about ? ` ${column.about}.` : '';
      lines.push(`  ${column.header}: ${KIND_NOTE[column.kind]}.${about}`.replace(/\.\./g, '.'));
    }
    lines.push('');
  }
  return lines.join('\r\n');
}
