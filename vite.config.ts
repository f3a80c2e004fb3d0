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
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss(), precompress()],
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
  // maps are written for reading a stack trace, but not referenced from the bundle and never served (src/server/web/static.ts)
  build: { outDir: 'dist/web', emptyOutDir: true, sourcemap: 'hidden', chunkSizeWarningLimit: 1500 },
  server: { port: 5173, proxy: { '/api': 'http://localhost:5000' } },
});
