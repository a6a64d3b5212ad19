// `npm run check`: the type checks, lint, the OpenAPI document's lint and the
// generators' checks. Each step is single-threaded, so they run in two lanes
// at once (CI has two cores); a lane stops at its first failing step, as `&&`
// did. A step's output is printed when it ends, under its name and time; the
// check fails when any step failed, once both lanes have ended.
import { spawn } from 'node:child_process';

/**
 * Steps in a lane run in order (the root type check reads the client's build).
 * The lanes are about even: the type checks in one, lint (eslint, dpdm) and
 * the OpenAPI document in the other.
 */
const LANES = [
  ['npm run build:client', 'tsc -p tsconfig.json --noEmit', 'tsc -p dashboard/tsconfig.json', 'tsc -p tracker/tsconfig.json'],
  ['npm run lint', 'npm run openapi:lint', 'tsx scripts/client-generate.ts --check', 'tsx scripts/dashboard-types-generate.ts --check'],
];

function step(command) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n> ${command} (${seconds} s${code === 0 ? '' : `, exit ${code}`})\n${output}`);
      resolve(code === 0);
    });
  });
}

async function lane(commands) {
  for (const command of commands) if (!(await step(command))) return false;
  return true;
}

const results = await Promise.all(LANES.map(lane));
process.exitCode = results.every(Boolean) ? 0 : 1;
