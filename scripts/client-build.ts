/**
 * Builds @leadlight/client (packages/client/dist) when its sources are newer
 * than its build, for the test run: the client's tests import the package as
 * a user does, that is its built JavaScript and declarations.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const client = path.join(root, 'packages', 'client');

function newest(directory: string): number {
  let latest = 0;
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const file = path.join(directory, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(file) : fs.statSync(file).mtimeMs);
  }
  return latest;
}

export function buildClient(): void {
  const built = path.join(client, 'dist', 'index.js');
  const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
  const sourcesAt = Math.max(newest(path.join(client, 'src')), fs.statSync(path.join(client, 'tsconfig.json')).mtimeMs);
  if (builtAt >= sourcesAt) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(client, 'tsconfig.json')], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('packages/client does not build (tsc failed)');
}
