#!/usr/bin/env node
// `npx leadlight`: runs the compiled CLI (npm install builds it; npm run build rebuilds it).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('leadlight: not built yet; run `npm run build` first\n');
  process.exit(1);
}
await import(entry.href);
