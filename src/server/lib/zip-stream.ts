import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { crc32, createDeflateRaw, type DeflateRaw, type ZlibOptions } from 'node:zlib';

/**
 * A zip written as a stream, one part after another, each part's text deflated as it is given
 * (decision 0074). The streamed Excel downloads wrote through archiver, whose checksum is computed in
 * JavaScript and whose parts pass through four layers of streams: for a year of a 60,000-student
 * school's monthly fees (218 MB of XML) that was about a third more CPU than deflating the same text
 * with Node's zlib and checksumming it with `zlib.crc32`, which is all this does.
 *
 * Each part's sizes and checksum follow its data (a data descriptor, general purpose bit 3), so
 * nothing is held back; names are UTF-8 (bit 11). There is no Zip64: a part or the whole zip past
 * 4 GiB is refused, which a workbook whose sheets Excel can open (1,048,576 rows) never reaches.
 */

const LIMIT = 0xffff_ffff;
const FLAGS = 0x0008 | 0x0800;
const DEFLATE = 8;
const VERSION = 20;
/**
 * Text zlib holds before a part's writer waits: a chunk of a sheet is 64 KB, and with zlib's 16 KB
 * the writer waited for every chunk to be compressed before building the next, so the two never
 * ran at once. A year of monthly fees (634,000 rows) took 3.3 s and more with zlib's own buffer,
 * 2.8 s with this one, 2.4 s with a turn of the event loop after each chunk as well (`ZipPart.write`).
 */
const ZLIB_WRITE_BUFFER = 1024 * 1024;

interface Written {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** The MS-DOS time and date of a zip entry, in the server's local time as zip tools read it. */
function dosTime(at: Date): { time: number; date: number } {
  const year = Math.max(1980, at.getFullYear());
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | Math.floor(at.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  };
}

export class ZipStream {
  /** The zip's bytes; its back-pressure holds every part's writer. */
  readonly output = new PassThrough({ highWaterMark: 256 * 1024 });
  private offset = 0;
  private readonly written: Written[] = [];
  private open: ZipPart | null = null;
  private readonly stamp: { time: number; date: number };

  constructor(private readonly options: { level: number; now: Date; signal: AbortSignal }) {
    this.stamp = dosTime(options.now);
  }

  /** Starts a part; write its text, then `end()` it before the next part starts. */
  async part(name: string): Promise<ZipPart> {
    if (this.open) throw new Error('end the previous part first');
    const nameBytes = Buffer.from(name, 'utf8');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    this.describe(header, 4);
    // the checksum and sizes (bytes 14-25) are in the data descriptor after the data
    header.writeUInt16LE(nameBytes.length, 26);
    const offset = this.offset;
    await this.put(Buffer.concat([header, nameBytes]));
    // zlib passes its options on to its Transform, whose buffer sizes @types/node does not list
    const deflate = createDeflateRaw({ level: this.options.level, writableHighWaterMark: ZLIB_WRITE_BUFFER } as ZlibOptions);
    const part = new ZipPart(this, deflate, this.options.signal, async (crc, compressed, size) => {
      if (size > LIMIT || compressed > LIMIT) throw new Error(`the zip part ${name} is larger than a zip without Zip64 holds`);
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc, 4);
      descriptor.writeUInt32LE(compressed, 8);
      descriptor.writeUInt32LE(size, 12);
      await this.put(descriptor);
      this.written.push({ name: nameBytes, crc, compressed, size, offset });
      this.open = null;
    });
    this.open = part;
    return part;
  }

  /** A whole part from its text, given in pieces. */
  async text(name: string, pieces: Iterable<string>): Promise<void> {
    const part = await this.part(name);
    for (const piece of pieces) await part.write(piece);
    await part.end();
  }

  /** Writes the central directory and ends the output. */
  async finish(): Promise<void> {
    if (this.open) throw new Error('end the last part first');
    const start = this.offset;
    if (start > LIMIT || this.written.length > 0xffff) throw new Error('the zip is larger than a zip without Zip64 holds');
    const entries = this.written.map((w) => {
      const entry = Buffer.alloc(46);
      entry.writeUInt32LE(0x02014b50, 0);
      entry.writeUInt16LE(VERSION, 4);
      this.describe(entry, 6);
      entry.writeUInt32LE(w.crc, 16);
      entry.writeUInt32LE(w.compressed, 20);
      entry.writeUInt32LE(w.size, 24);
      entry.writeUInt16LE(w.name.length, 28);
      // extra field, comment, disk, attributes: none
      entry.writeUInt32LE(w.offset, 42);
      return Buffer.concat([entry, w.name]);
    });
    const directory = Buffer.concat(entries);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.written.length, 8);
    end.writeUInt16LE(this.written.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(start, 16);
    await this.put(Buffer.concat([directory, end]));
    this.output.end();
  }

  /** The fields a part's local header and its central directory entry share: version needed, flags, method, time, date. */
  private describe(header: Buffer, at: number): void {
    header.writeUInt16LE(VERSION, at);
    header.writeUInt16LE(FLAGS, at + 2);
    header.writeUInt16LE(DEFLATE, at + 4);
    header.writeUInt16LE(this.stamp.time, at + 6);
    header.writeUInt16LE(this.stamp.date, at + 8);
  }

  /** Stops the part being written; the zip will not be finished. */
  abandon(): void {
    this.open?.destroy();
    this.open = null;
  }

  /** Appends bytes to the zip, waiting while its reader is behind. */
  async put(bytes: Buffer): Promise<void> {
    this.offset += bytes.length;
    if (!this.output.write(bytes)) await once(this.output, 'drain', { signal: this.options.signal });
  }

  /** Appends a part's compressed bytes as zlib gives them; false when the reader is behind. */
  putCompressed(bytes: Buffer): boolean {
    this.offset += bytes.length;
    return this.output.write(bytes);
  }
}

/** One part of a `ZipStream`: its text deflated and checksummed as it is written. */
export class ZipPart {
  private crc = 0;
  private size = 0;
  private compressed = 0;
  private readonly done: Promise<unknown>;

  constructor(
    private readonly zip: ZipStream,
    private readonly deflate: DeflateRaw,
    private readonly signal: AbortSignal,
    private readonly close: (crc: number, compressed: number, size: number) => Promise<void>,
  ) {
    this.done = once(deflate, 'end', { signal });
    // a failure is thrown where the part ends
    this.done.catch(() => undefined);
    deflate.on('data', (bytes: Buffer) => {
      this.compressed += bytes.length;
      if (!zip.putCompressed(bytes)) {
        deflate.pause();
        zip.output.once('drain', () => deflate.resume());
      }
    });
  }

  /**
   * Adds text, or bytes of UTF-8 text, to the part, waiting while zlib is behind. Bytes are held by
   * zlib until compressed: the caller must not write into them again (`ByteText.take`).
   */
  async write(text: string | Buffer): Promise<void> {
    if (text.length === 0) return;
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    this.crc = crc32(bytes, this.crc);
    this.size += bytes.length;
    if (!this.deflate.write(bytes)) await once(this.deflate, 'drain', { signal: this.signal });
    // zlib compresses on a worker thread but hands each piece back on this one, which a writer that
    // never waits would hold until zlib's buffer is full: let it take the piece and start the next
    else await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /** Ends the part: the rest of its compressed bytes, then its checksum and sizes. */
  async end(): Promise<void> {
    this.deflate.end();
    await this.done;
    await this.close(this.crc >>> 0, this.compressed, this.size);
  }

  /** Stops compressing; the zip is being abandoned. */
  destroy(): void {
    this.deflate.destroy();
  }
}
