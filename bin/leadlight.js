#!/usr/bin/env node
// `npx leadlight`: runs the bundled CLI (npm install builds it; npm run build
// rebuilds it; scripts/cli-bundle.js says why it is bundled). When the bundle
// is missing or older than the last compile (tsc run alone), the compiled
// modules run instead, so the CLI never runs stale code.
import { existsSync, statSync } from 'node:fs';
import module from 'node:module';

// Node >= 22.1 keeps V8's compiled code of the modules between runs (in the
// system's temporary directory); Node 20 has no such cache and skips this.
module.enableCompileCache?.();

const bundle = new URL('../dist/bundle/cli/main.js', import.meta.url);
const compiled = new URL('../dist/cli/main.js', import.meta.url);
const compiledAt = new URL('../dist/.tsbuildinfo', import.meta.url);

const modifiedAt = (file) => (existsSync(file) ? statSync(file).mtimeMs : undefined);
const bundledAt = modifiedAt(bundle);
const entry = bundledAt !== undefined && bundledAt >= (modifiedAt(compiledAt) ?? 0) ? bundle : compiled;
if (!existsSync(entry)) {
  process.stderr.write('leadlight: not built yet; run `npm run build` first\n');
  process.exit(1);
}
await import(entry.href);
