import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompressDir } from './src/server/web/precompress.ts';

/** Brotli and gzip copies of the built files, written once here and sent as they are (decision 0067). */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'school-ledger:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle(error?: Error) {
      // a failed build keeps its own error, not a missing folder's
      if (error) return;
      await precompressDir(outDir);
    },
  };
}

/**
 * What a lazy route or panel preloads before it runs: its stylesheets only. Vite would otherwise put a
 * `<link rel="modulepreload">` in the page for every chunk the route imports, 40 to 100 of them, each
 * about a millisecond of the main thread, all in the task that starts the route: Lighthouse counted it
 * as blocking time. The browser now fetches a route's chunks as their imports name them, in tasks of
 * their own. index.html keeps its preloads of the first screen's chunks (decision 0068).
 */
export function routePreloads(_file: string, deps: string[], { hostType }: { hostType: 'html' | 'js' }): string[] {
  return hostType === 'html' ? deps : deps.filter((dep) => dep.endsWith('.css'));
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss(), precompress()],
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
  // maps are written for reading a stack trace, but not referenced from the bundle and never served (src/server/web/static.ts)
  build: { outDir: 'dist/web', emptyOutDir: true, sourcemap: 'hidden', chunkSizeWarningLimit: 1500, modulePreload: { resolveDependencies: routePreloads } },
  server: { port: 5173, proxy: { '/api': 'http://localhost:5000' } },
});
