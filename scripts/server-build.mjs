// The server as one JavaScript file for `npm start` (decision 0051): esbuild bundles
// src/server/main.ts and the project's own modules into dist/server/main.mjs; packages stay in
// node_modules. Plain JavaScript on purpose: it runs before anything can compile TypeScript.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** SERVER_DIST lets a test build into its own folder, as WEB_DIST does for the web app. */
export const serverDist = () => (process.env.SERVER_DIST ? path.resolve(process.env.SERVER_DIST) : path.join(ROOT, 'dist/server'));
export const serverBundle = () => path.join(serverDist(), 'main.mjs');
const inputsFile = () => path.join(serverDist(), 'inputs.json');

/** What a build depends on beyond its own sources: the packages' versions and this file. */
const ALWAYS = ['package-lock.json', 'scripts/server-build.mjs'];

/** Stale when there is no bundle, or a source it was built from (listed at build time) changed or went. */
export function serverBuildIsStale() {
  if (!existsSync(serverBundle()) || !existsSync(inputsFile())) return true;
  const builtAt = statSync(serverBundle()).mtimeMs;
  const inputs = [...JSON.parse(readFileSync(inputsFile(), 'utf8')), ...ALWAYS];
  return inputs.some((input) => {
    const file = path.join(ROOT, input);
    return !existsSync(file) || statSync(file).mtimeMs > builtAt;
  });
}

export async function buildServer(log = console.log) {
  log('Building the server (first start or sources changed)…');
  const startedAt = new Date();
  const { build, stop } = await import('esbuild');
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/server/main.ts'],
    outfile: serverBundle(),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // function and class names stay in stack traces and in `error.name`
    keepNames: true,
    // no source map: nothing of the source is written beside the bundle or held in memory
    sourcemap: false,
    legalComments: 'none',
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  // the build's esbuild process ends here, not with the server
  await stop();
  mkdirSync(serverDist(), { recursive: true });
  // written beside and renamed into place: two starts building at once never import half a file
  const swap = (file, contents) => {
    const staging = `${file}.${process.pid}.tmp`;
    writeFileSync(staging, contents);
    renameSync(staging, file);
  };
  swap(inputsFile(), JSON.stringify(Object.keys(result.metafile.inputs).filter((input) => !input.startsWith('node_modules/'))));
  swap(serverBundle(), result.outputFiles[0].contents);
  // dated from the start of the build: a source saved while it ran is newer, and the next start builds again
  utimesSync(serverBundle(), startedAt, startedAt);
  log('Server built.');
}

export async function buildServerIfStale(log = console.log) {
  if (serverBuildIsStale()) await buildServer(log);
}
