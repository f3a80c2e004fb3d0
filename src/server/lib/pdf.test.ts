import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it, vi } from 'vitest';
import { actualTexts } from '../test/pdf-text';
import { addPage, boundedWords, cellText, createPdf, renderPdf, textRuns, writeText, type Pdf } from './pdf';

const registered = (doc: Pdf) => (doc as unknown as { _registeredFonts: Record<string, { src: unknown }> })._registeredFonts;

async function pdfText(buffer: Buffer): Promise<string> {
  return (await extractText(await getDocumentProxy(new Uint8Array(buffer)), { mergePages: true })).text;
}

describe('PDF text in the scripts Indian schools write', () => {
  it('splits text into runs of one script, spaces staying inside a name', () => {
    expect(textRuns('Student: राहुल शर्मा (5)')).toEqual([
      { text: 'Student: ', script: 'latin' },
      { text: 'राहुल शर्मा', script: 'devanagari' },
      { text: ' (5)', script: 'latin' },
    ]);
    expect(textRuns('محمد علی خان')).toEqual([{ text: 'محمد علی خان', script: 'arabic' }]);
    expect(textRuns('₹4,500.00')).toEqual([{ text: '₹4,500.00', script: 'latin' }]);
  });

  it('every PDF embeds Noto Sans, Devanagari and Naskh for what it prints, and keeps the names readable', async () => {
    const pdf = await renderPdf({ size: 'A5' }, (doc) => {
      addPage(doc);
      cellText(doc, 'राहुल शर्मा', { x: 30, y: 30, width: 200, height: 16 });
      writeText(doc, 'Father: محمد علی خان — ₹1,500.00', 30, 60, { width: 300 });
    });
    const raw = pdf.toString('latin1');
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSans-Regular/);
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansDevanagari-Regular/);
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoNaskhArabic-Regular/);
    expect(raw).not.toMatch(/Helvetica/);
    expect(actualTexts(pdf)).toEqual(['राहुल शर्मा', 'محمد علی خان']);
  });

  it('documents share one opened font each, and each still embeds only the glyphs it prints', async () => {
    // pdfkit keeps what was registered; the same fontkit object on every document is what spares
    // each PDF the decoding of the font's shaping tables (decision 0042)
    const [a, b] = [registered(createPdf()), registered(createPdf())];
    expect(a.Sans!.src).toBe(b.Sans!.src);
    expect(typeof (a['devanagari-regular']!.src as { layout?: unknown }).layout).toBe('function');

    const hindi = await renderPdf({ size: 'A5' }, (doc) => {
      addPage(doc);
      writeText(doc, 'राहुल शर्मा', 30, 30, { width: 200 });
    });
    const latin = await renderPdf({ size: 'A5' }, (doc) => {
      addPage(doc);
      writeText(doc, 'Receipt 17', 30, 30, { width: 200 });
    });
    expect(hindi.toString('latin1')).toMatch(/NotoSansDevanagari-Regular/);
    expect(latin.toString('latin1')).not.toMatch(/NotoSansDevanagari/);
    expect(actualTexts(latin)).toEqual([]);
    expect(latin.length).toBeLessThan(hindi.length);
  });

  it('shapes a word once for all documents: a second receipt lays out none of the words the first did', async () => {
    const draw = (doc: Pdf) => {
      addPage(doc);
      writeText(doc, 'Receipt No: MON/2025-26/000017  Tuition Fee  Apr–Jun 2025  ₹4,500.00', 30, 30, { width: 380 });
      cellText(doc, 'Received by: Accounts Office', { x: 30, y: 60, width: 300, height: 14 }, { bold: true });
    };
    const first = await renderPdf({ size: 'A5' }, draw);
    const sans = registered(createPdf()).Sans!.src as { layout: (...args: unknown[]) => unknown };
    const layout = vi.spyOn(sans, 'layout');
    try {
      const second = await renderPdf({ size: 'A5' }, draw);
      expect(layout).not.toHaveBeenCalled();
      // the same page: every word there, in its own document's subset of the font
      const text = await pdfText(second);
      expect(text).toContain('Receipt No: MON/2025-26/000017');
      expect(text).toContain('₹4,500.00');
      expect(text).toBe(await pdfText(first));
      expect(second.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSans-Regular/);
    } finally {
      layout.mockRestore();
    }
  });

  it('makes no font a document does not print in: no Helvetica metrics read for every document', () => {
    const families = (createPdf() as unknown as { _fontFamilies: Record<string, unknown> })._fontFamilies;
    expect(Object.keys(families)).not.toContain('Helvetica');
    expect(Object.keys(families)).toContain('Sans');
  });

  it('keeps at most so many shaped words: names and amounts keep coming', () => {
    const words = boundedWords(3);
    words['Fee '] = 1;
    words['Tuition '] = 2;
    words['Fee '] = 3;
    words['₹4,500.00'] = 4;
    expect([words['Fee '], words['Tuition '], words['₹4,500.00']]).toEqual([3, 2, 4]);
    // a fourth word starts the store afresh
    words['Zoya '] = 5;
    expect([words['Fee '], words['Tuition '], words['₹4,500.00'], words['Zoya ']]).toEqual([undefined, undefined, undefined, 5]);
  });
});
