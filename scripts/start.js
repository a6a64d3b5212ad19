#!/usr/bin/env node
// `npm start`: builds the server, the dashboard and the tracker if their
// sources changed since the last build, then runs `leadlight serve`
// (CONTRACT C1.1: a fresh clone needs only `npm install && npm start`).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const buildInfo = join(root, 'dist', '.tsbuildinfo');
const entry = join(root, 'dist', 'cli', 'program.js');

function newestSource(directory) {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const built = existsSync(entry) && existsSync(buildInfo) ? statSync(buildInfo).mtimeMs : 0;
if (built === 0 || newestSource(join(root, 'src')) > built) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// the bundle `npx leadlight` runs (scripts/cli-bundle.js); serve itself runs from dist/cli
const bundle = join(root, 'dist', 'bundle', 'cli', 'main.js');
const bundleBuilt = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
if (bundleBuilt === 0 || newestSource(join(root, 'src')) > bundleBuilt) {
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'cli-bundle.js')], { stdio: 'inherit' });
  if (result.status !== 0) process.stderr.write('leadlight: the CLI bundle was not rebuilt; `npx leadlight` runs dist/cli until `npm run build`\n');
}

const dashboardIndex = join(root, 'dist', 'dashboard', 'index.html');
const dashboardBuilt = existsSync(dashboardIndex) ? statSync(dashboardIndex).mtimeMs : 0;
if (dashboardBuilt === 0 || newestSource(join(root, 'dashboard')) > dashboardBuilt) {
  let vite;
  try {
    vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  } catch {
    process.stderr.write('leadlight: the dashboard is not built and vite is not installed (npm install builds it)\n');
  }
  if (vite !== undefined) {
    const result = spawnSync(process.execPath, [vite, 'build', '--config', join(root, 'dashboard', 'vite.config.ts')], { stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

const tracker = join(root, 'dist', 'tracker', 't.js');
const trackerBuilt = existsSync(tracker) ? statSync(tracker).mtimeMs : 0;
if (trackerBuilt === 0 || newestSource(join(root, 'tracker', 'src')) > trackerBuilt) {
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'tracker-build.js')], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const { run } = await import(entry);
process.exitCode = await run(['serve', ...process.argv.slice(2)], {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
