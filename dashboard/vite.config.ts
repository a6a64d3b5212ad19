// Builds the dashboard (dashboard/) into dist/dashboard: index.html and
// content-hashed assets under /assets/, served by the API process
// (src/http/plugins/dashboard-app.ts). `npm run build` runs it.
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = import.meta.dirname;

export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  build: {
    outDir: path.resolve(root, '..', 'dist', 'dashboard'),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 700,
  },
  logLevel: 'warn',
});
