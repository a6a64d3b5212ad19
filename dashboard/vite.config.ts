// Builds the dashboard (dashboard/) into dist/dashboard: index.html and
// content-hashed assets under /assets/ (with .br and .gz copies), served by the API process
// (src/http/plugins/dashboard-app.ts). `npm run build` runs it.
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.js';

const root = import.meta.dirname;
const outDir = path.resolve(root, '..', 'dist', 'dashboard');

export default defineConfig({
  root,
  base: '/',
  plugins: [react(), precompress(outDir)],
  build: {
    outDir,
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 700,
    // .vite/manifest.json: which chunks each page needs (test/browser/dashboard-performance.test.ts reads it); not served
    manifest: true,
  },
  logLevel: 'warn',
});
