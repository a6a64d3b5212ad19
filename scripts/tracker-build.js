// Builds the tracker (tracker/src, TypeScript) into dist/tracker/t.js with
// esbuild: one minified script, no dependencies. Measures its size gzipped
// at level 9 (as `gzip -9 < t.js` does) and fails above 3,072 bytes (CONTRACT
// C5.2). `npm run build` runs it after tsc; the test setup runs it too.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { build } from 'esbuild';

export const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TRACKER_FILE = path.join(ROOT, 'dist', 'tracker', 't.js');
/** stands for the events path in the built script; the server puts its configured path there */
export const EVENTS_PATH_PLACEHOLDER = '%%LEADLIGHT_EVENTS_PATH%%';
export const MAX_GZIPPED_BYTES = 3072;

export function gzippedSize(text) {
  return zlib.gzipSync(Buffer.from(text), { level: 9 }).length;
}

/** Builds the tracker; returns its sizes, or throws when it is over the limit. */
export async function buildTracker() {
  const result = await build({
    entryPoints: [path.join(ROOT, 'tracker', 'src', 'main.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2018'],
    platform: 'browser',
    legalComments: 'none',
    write: false,
    define: { EVENTS_PATH: JSON.stringify(EVENTS_PATH_PLACEHOLDER) },
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text;
  const gzipped = gzippedSize(code.replace(EVENTS_PATH_PLACEHOLDER, '/e'));
  if (gzipped > MAX_GZIPPED_BYTES) {
    throw new Error(`the tracker is ${gzipped} bytes gzipped (gzip -9), over the limit of ${MAX_GZIPPED_BYTES}`);
  }
  fs.mkdirSync(path.dirname(TRACKER_FILE), { recursive: true });
  fs.writeFileSync(TRACKER_FILE, code);
  return { bytes: Buffer.byteLength(code), gzipped };
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { bytes, gzipped } = await buildTracker();
    process.stdout.write(`tracker: ${path.relative(ROOT, TRACKER_FILE)}, ${bytes} bytes, ${gzipped} bytes gzipped (limit ${MAX_GZIPPED_BYTES})\n`);
  } catch (error) {
    process.stderr.write(`tracker build failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
