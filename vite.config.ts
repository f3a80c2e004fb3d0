import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
  // maps are written for reading a stack trace, but not referenced from the bundle and never served (src/server/web/static.ts)
  build: { outDir: 'dist/web', emptyOutDir: true, sourcemap: 'hidden', chunkSizeWarningLimit: 1500 },
  server: { port: 5173, proxy: { '/api': 'http://localhost:5000' } },
});
