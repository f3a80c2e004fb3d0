import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** What the build compresses ahead: text a browser fetches. Source maps are never served (static.ts). */
const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg', '.json', '.txt']);
/**
 * Writes `<file>.br` (brotli at its highest quality) and `<file>.gz` (gzip level 9) beside every
 * built text file, each only when it is smaller than the file: small files too, since
 * @fastify/compress gives any file it streams a compression stream of its own, whatever its size. The
 * server sends them as they are (@fastify/static `preCompressed`), so a first visit costs it no
 * compression (but for the few files of some bytes that no copy makes smaller) and the browser gets
 * the smallest form: the main bundle is 96 kB in brotli 11 against 112 kB at the quality a request
 * can afford (decision 0067).
 */
export async function precompressDir(dir: string): Promise<{ files: number; bytes: number; brotliBytes: number }> {
  const files = await textFiles(dir);
  const sizes = await Promise.all(
    files.map(async (file) => {
      const data = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(data, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        }),
        gzipAsync(data, { level: 9 }),
      ]);
      if (br.length < data.length) await writeFile(`${file}.br`, br);
      if (gz.length < data.length) await writeFile(`${file}.gz`, gz);
      return { bytes: data.length, brotliBytes: Math.min(br.length, data.length) };
    }),
  );
  return { files: files.length, bytes: sizes.reduce((sum, s) => sum + s.bytes, 0), brotliBytes: sizes.reduce((sum, s) => sum + s.brotliBytes, 0) };
}

async function textFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await textFiles(full)));
    else if (COMPRESSIBLE.has(path.extname(entry.name))) found.push(full);
  }
  return found;
}
