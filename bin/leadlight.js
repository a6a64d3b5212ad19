#!/usr/bin/env node
// `npx leadlight`: runs the bundled CLI (npm install builds it; npm run build
// rebuilds it; scripts/cli-bundle.js says why it is bundled).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/bundle/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('leadlight: not built yet; run `npm run build` first\n');
  process.exit(1);
}
await import(entry.href);
