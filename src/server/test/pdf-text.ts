import { inflateSync } from 'node:zlib';

/**
 * The text of the PDF's shaped runs (Hindi, Urdu) as readers get it: from their ActualText, the
 * reading order that survives glyph reordering (pdf.js extracts glyphs in visual order).
 */
export function actualTexts(buffer: Buffer): string[] {
  const raw = buffer.toString('latin1');
  const out: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(buffer.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const m of content.matchAll(/\/ActualText \(((?:\\.|[^\\)])*)\)/g)) {
      const bytes = m[1]!.replace(/\\([0-7]{1,3}|.)/g, (_, e: string) =>
        /^[0-7]+$/.test(e) ? String.fromCharCode(parseInt(e, 8)) : ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' } as Record<string, string>)[e] ?? e,
      );
      const units = Buffer.from(bytes, 'latin1');
      out.push(units[0] === 0xfe && units[1] === 0xff ? units.subarray(2).swap16().toString('utf16le') : bytes);
    }
  }
  return out;
}

