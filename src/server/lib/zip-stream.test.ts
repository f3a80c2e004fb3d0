import { Writable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readZip } from '../test/zip';
import { ZipStream } from './zip-stream';

async function written(zip: ZipStream, write: () => Promise<void>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const ended = new Promise<void>((resolve, reject) => {
    zip.output.on('data', (c: Buffer) => chunks.push(c));
    zip.output.on('end', resolve);
    zip.output.on('error', reject);
  });
  await write();
  await ended;
  return Buffer.concat(chunks);
}

describe('the streamed zip', () => {
  it('writes parts an unzip reads back byte for byte, each with its checksum and sizes after its data', async () => {
    const zip = new ZipStream({ level: 1, now: new Date(2026, 11, 3, 10, 30, 14), signal: new AbortController().signal });
    const big = Array.from({ length: 40_000 }, (_, i) => `<row r="${i}"><c t="s"><v>${i % 97}</v></c></row>`);
    const bytes = await written(zip, async () => {
      const sheet = await zip.part('xl/worksheets/sheet1.xml');
      for (let i = 0; i < big.length; i += 1000) await sheet.write(big.slice(i, i + 1000).join(''));
      await sheet.end();
      await zip.text('empty.xml', []);
      await zip.text('नाम/फ़ाइल.txt', ['रसीद ', '₹1,500']);
      await zip.finish();
    });

    const parts = readZip(bytes);
    expect([...parts.keys()]).toEqual(['xl/worksheets/sheet1.xml', 'empty.xml', 'नाम/फ़ाइल.txt']);
    expect(parts.get('xl/worksheets/sheet1.xml')!.toString('utf8')).toBe(big.join(''));
    expect(parts.get('empty.xml')!.length).toBe(0);
    expect(parts.get('नाम/फ़ाइल.txt')!.toString('utf8')).toBe('रसीद ₹1,500');

    // each entry's checksum, sizes and time in the central directory, and the same checksum and
    // sizes in the descriptor after its data
    const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    let at = bytes.readUInt32LE(end + 16);
    for (const [name, data] of parts) {
      expect(bytes.readUInt16LE(at + 8) & 0x0808).toBe(0x0808);
      const crc = bytes.readUInt32LE(at + 16);
      const compressed = bytes.readUInt32LE(at + 20);
      expect(crc).toBe(crc32(data) >>> 0);
      expect(bytes.readUInt32LE(at + 24)).toBe(data.length);
      expect(bytes.readUInt16LE(at + 12)).toBe((10 << 11) | (30 << 5) | 7);
      expect(bytes.readUInt16LE(at + 14)).toBe(((2026 - 1980) << 9) | (12 << 5) | 3);
      const local = bytes.readUInt32LE(at + 42);
      const descriptor = local + 30 + Buffer.byteLength(name) + compressed;
      expect(bytes.readUInt32LE(descriptor)).toBe(0x08074b50);
      expect([bytes.readUInt32LE(descriptor + 4), bytes.readUInt32LE(descriptor + 8), bytes.readUInt32LE(descriptor + 12)]).toEqual([crc, compressed, data.length]);
      at += 46 + Buffer.byteLength(name);
    }
    // the big part was compressed
    expect(bytes.length).toBeLessThan(big.join('').length / 4);
  });

  it('holds its writer while the reader is behind, and never holds more than its buffers', async () => {
    const zip = new ZipStream({ level: 1, now: new Date(), signal: new AbortController().signal });
    let received = 0;
    const reader = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _enc, done) {
        received += chunk.length;
        setTimeout(done, 2);
      },
    });
    zip.output.pipe(reader);
    const finished = new Promise((resolve) => reader.on('finish', resolve));
    const part = await zip.part('noise.bin');
    // text that does not compress: random digits
    let seed = 7;
    const piece = () => Array.from({ length: 64 * 1024 }, () => String((seed = (seed * 48_271) % 2_147_483_647) % 10)).join('');
    const readWhenGiven: number[] = [];
    for (let i = 0; i < 60; i++) {
      await part.write(piece());
      readWhenGiven.push(received);
    }
    await part.end();
    await zip.finish();
    await finished;
    // what was given and not yet read, in text, at each write: zlib's buffer, the output's and a
    // piece in flight, never the 3.75 MB written
    const ratio = received / (60 * 64 * 1024);
    const heldMax = Math.max(...readWhenGiven.map((read, i) => (i + 1) * 64 * 1024 - read / ratio));
    expect(heldMax).toBeLessThan(2.5 * 1024 * 1024);
    expect(readWhenGiven[30]).toBeGreaterThan(0);
  });
});
