import { describe, expect, it } from 'vitest';
import { actualTexts } from '../test/pdf-text';
import { addPage, cellText, createPdf, renderPdf, textRuns, writeText } from './pdf';

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
    const registered = (doc: ReturnType<typeof createPdf>) => (doc as unknown as { _registeredFonts: Record<string, { src: unknown }> })._registeredFonts;
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
});
