import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's folder: the nearest one above this module that holds package.json. Found, not
 * counted in `..`s, because this module runs from two places: src/server/lib under tsx (tests,
 * scripts) and the server's bundle in dist/server under `npm start` (decision 0051).
 */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
  }
}

export const ROOT = projectRoot(path.dirname(fileURLToPath(import.meta.url)));
