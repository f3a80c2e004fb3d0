import { describe, expect, it } from 'vitest';
import type { ReportDocument } from '../../domain/report-document';
import { documentText, latin1Json, withRowsText } from './document-text';

const doc: ReportDocument = {
  kind: 'pending-fees',
  title: 'Pending Fees',
  schoolName: 'सरस्वती विद्या मंदिर',
  subtitle: 'Students with fees outstanding till Nov 2026',
  generatedAt: '2026-11-29T10:00:00.000Z',
  summary: [{ label: 'Students with dues', value: 2, kind: 'number' }],
  tables: [{ title: 'Defaulters', columns: [{ key: 'name', label: 'Student', kind: 'text' }], rows: [], totals: null, empty: 'None' }],
};

describe('a report document with its rows as text', () => {
  it('latin1Json writes every character above U+00FF escaped, and reads back as the same text', () => {
    const text = 'Oct–Nov 2026 (2) "Mira" \\ मीरा ñ';
    const json = latin1Json(text);
    expect(json).toBe('"Oct\\u2013Nov 2026 (2) \\"Mira\\" \\\\ \\u092e\\u0940\\u0930\\u093e ñ"');
    expect([...json].filter((c) => c.charCodeAt(0) > 0xff)).toEqual([]);
    expect(JSON.parse(json)).toBe(text);
  });

  it('the document reads and writes as if its rows were objects', () => {
    const rows = [{ name: 'Kabir "K" Singh' }, { name: 'मीरा' }];
    const withRows = withRowsText(doc, 0, JSON.stringify(rows));
    expect(JSON.parse(documentText(withRows))).toEqual({ ...doc, tables: [{ ...doc.tables[0], rows }] });
    expect(withRows.tables[0]!.rows).toEqual(rows);
    expect(withRows.tables[0]!.title).toBe('Defaulters');
  });
});
