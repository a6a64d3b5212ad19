/**
 * `npm run bench:cli` (issue 14): how long a CLI command takes from its start
 * to its first output, as an operator runs it. Each command runs `--runs`
 * times through the built CLI (`node bin/leadlight.js`, what `npx leadlight`
 * starts) on a migrated SQLite file of its own; prints the median and the
 * range of the wall time to the first byte on stdout, and the process's CPU
 * time (user + system), as markdown rows for BENCHMARKS.md.
 *
 *   npm run bench:cli -- --runs 15 [--root /path/to/other/checkout]
 *
 * --root measures another checkout's build (a "before" figure).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    root: { type: 'string', default: path.resolve(import.meta.dirname, '..') },
  },
});
const RUNS = Number(values.runs);
const cli = path.join(values.root, 'bin', 'leadlight.js');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadlight-cli-bench-'));
const env = { ...process.env, DATABASE_URL: path.join(dir, 'bench.db'), LOG_LEVEL: 'warn' };

function once(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    let firstOutputMs: number | undefined;
    const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', () => {
      firstOutputMs ??= Number(process.hrtime.bigint() - started) / 1e6;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0 || firstOutputMs === undefined) return reject(new Error(`leadlight ${args.join(' ')} exited ${code}`));
      resolve(firstOutputMs);
    });
  });
}

/** CPU time of one run, from /usr/bin/time's user and system seconds. */
function cpuOf(args: string[]): number | undefined {
  const timed = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, cli, ...args], { env, encoding: 'utf8' });
  const [user, system] = (timed.stderr.trim().split('\n').pop() ?? '').split(' ').map(Number);
  return user === undefined || system === undefined || Number.isNaN(user + system) ? undefined : (user + system) * 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

const workspace = JSON.parse(
  spawnSync(process.execPath, [cli, 'workspace', 'create', '--name', 'Bench', '--json'], { env, encoding: 'utf8' }).stdout,
) as { id: string };
const commands: string[][] = [
  ['--help'],
  ['workspace', 'list'],
  ['key', 'list', '--workspace', workspace.id],
];
process.stdout.write(`${`| command | first output, median (min–max) of ${RUNS} | CPU, median |`}\n`);
process.stdout.write(`${'|---|---|---|'}\n`);
for (const args of commands) {
  const times: number[] = [];
  const cpus: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    times.push(await once(args));
    const cpu = cpuOf(args);
    if (cpu !== undefined) cpus.push(cpu);
  }
  const shown = (value: number) => `${Math.round(value)} ms`;
  process.stdout.write(
    `| \`leadlight ${args.join(' ').replace(workspace.id, 'ID')}\` | ${shown(median(times))} (${shown(Math.min(...times))}–${shown(Math.max(...times))}) | ${cpus.length > 0 ? shown(median(cpus)) : 'n/a'} |\n`,
  );
}
fs.rmSync(dir, { recursive: true, force: true });
