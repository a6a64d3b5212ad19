// A Vite plugin that writes a Brotli and a gzip copy beside every built asset,
// so the server can send them as they are (@fastify/static preCompressed)
// instead of compressing on every request. A dozen lines of node:zlib; no
// compression plugin is installed.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;

export function precompress(directory: string): Plugin {
  return {
    name: 'leadlight-precompress',
    apply: 'build',
    closeBundle() {
      const assets = path.join(directory, 'assets');
      for (const name of fs.readdirSync(assets)) {
        if (!COMPRESSIBLE.test(name)) continue;
        const file = path.join(assets, name);
        const content = fs.readFileSync(file);
        fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
      }
    },
  };
}
