import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the build compresses the web app ahead (decision 0067)', () => {
  it('writes a brotli and a gzip copy beside each text file that shrinks, and reads back the same bytes', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'precompress-'));
    mkdirSync(path.join(dir, 'assets'));
    // real code to compress: the app's own money rules
    const script = readFileSync(path.join(import.meta.dirname, '../../domain/money.ts'), 'utf8');
    // an icon's chunk as the build writes it (380 bytes)
    const icon =
      'import{t as e}from"./createLucideIcon-BAweSdEI.js";var t={name:`alarm-clock`,size:24,node:[[`circle`,{cx:`12`,cy:`13`,r:`8`,key:`3y4lt7`}],' +
      '[`path`,{d:`M12 9v4l2 2`,key:`1c63tq`}],[`path`,{d:`M5 3 2 6`,key:`18tl5t`}],[`path`,{d:`m22 6-3-3`,key:`1opdir`}],[`path`,{d:`M6.38 18.7 4 21`,key:`17xu3x`}],' +
      '[`path`,{d:`M17.64 18.67 20 21`,key:`kv2oe2`}]]};t.node;var n=e(t);export{n as t};';
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html lang="en-IN"><div id="root"></div></html>'.repeat(3));
    writeFileSync(path.join(dir, 'assets', 'index-AbCd1234.js'), script);
    writeFileSync(path.join(dir, 'assets', 'check-AbCd1234.js'), icon);
    writeFileSync(path.join(dir, 'assets', 'index-AbCd1234.css'), '.p-2{padding:.5rem}\n'.repeat(300));
    writeFileSync(path.join(dir, 'assets', 'tiny-AbCd1234.js'), 'x');
    writeFileSync(path.join(dir, 'assets', 'index-AbCd1234.js.map'), JSON.stringify({ version: 3, sources: ['src/web/secret.ts'] }).repeat(50));
    writeFileSync(path.join(dir, 'assets', 'logo.png'), Buffer.alloc(4096, 7));

    const result = await precompressDir(dir);

    // five text files looked at (the page, three scripts, the stylesheet); the map and the image are not
    expect(result.files).toBe(5);
    for (const file of ['index.html', 'assets/index-AbCd1234.js', 'assets/check-AbCd1234.js', 'assets/index-AbCd1234.css']) {
      const original = readFileSync(path.join(dir, file));
      const br = readFileSync(path.join(dir, `${file}.br`));
      const gz = readFileSync(path.join(dir, `${file}.gz`));
      expect(br.length, file).toBeLessThan(original.length);
      expect(gz.length, file).toBeLessThan(original.length);
      expect(brotliDecompressSync(br).equals(original), file).toBe(true);
      expect(gunzipSync(gz).equals(original), file).toBe(true);
    }
    // a small chunk gets its copies too: the server would otherwise open a compression stream for it
    expect(readFileSync(path.join(dir, 'assets/check-AbCd1234.js')).length).toBeLessThan(1024);
    // nothing that would not be smaller, nothing for what is never served or already compressed
    for (const file of ['assets/tiny-AbCd1234.js', 'assets/index-AbCd1234.js.map', 'assets/logo.png']) {
      expect(existsSync(path.join(dir, `${file}.br`)), file).toBe(false);
      expect(existsSync(path.join(dir, `${file}.gz`)), file).toBe(false);
    }
    // brotli at its highest quality: smaller than @fastify/compress's quality 4 at request time
    const script4 = brotliCompressSync(readFileSync(path.join(dir, 'assets/index-AbCd1234.js')), { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
    expect(readFileSync(path.join(dir, 'assets/index-AbCd1234.js.br')).length).toBeLessThan(script4.length);
    expect(result.brotliBytes).toBeLessThan(result.bytes);
  });
});
