/**
 * `npm run bench:overload` (issues 9 and 19): how a `serve` process on
 * SQLite behaves under a flood of list reads. Loopback, bounded.
 *
 * --tool node (issue 9): N keep-alive connections loop
 * `GET /api/v1/leads?limit=100` in workspace A for D seconds while a prober
 * times `GET /healthz` every 50 ms and a light writer in workspace B posts
 * leads one at a time. Prints the flood's statuses and latencies,
 * /healthz's latencies and the writer's throughput.
 *
 * --tool wrk (issue 19, the audit's run): `wrk -t2 -cN -dD --timeout 30s` on
 * `GET /api/v1/leads?limit=10` in workspace A (a Lua script counts the
 * statuses; the timeout is long so that wrk reports the tails instead of
 * hiding them as timeouts), while every 500 ms a fresh connection from
 * workspace B times its first byte; the server logs at `info` to a file,
 * whose lines are counted (all, and the overload warnings).
 *
 * Each prints a JSON line and a markdown row for BENCHMARKS.md.
 *
 *   npm run bench:overload -- --connections 256 --duration 10 [--root /path/to/other/checkout] [--env K=V,K=V]
 *   npm run bench:overload -- --tool wrk --connections 512 --duration 20 [--root …]
 *
 * --root runs another checkout's server (a "before" figure) over data
 * seeded by this one; --env passes settings (e.g. admission control off:
 * MAX_IN_FLIGHT_REQUESTS=100000,MAX_QUEUED_REQUESTS=0,MAX_EVENT_LOOP_DELAY_MS=0).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { openDatabase } from '../src/db/database.js';
import { Store } from '../src/repositories/index.js';
import { createServices } from '../src/services/index.js';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '256' },
    duration: { type: 'string', default: '10' },
    leads: { type: 'string', default: '2000' },
    root: { type: 'string', default: path.resolve(import.meta.dirname, '..') },
    env: { type: 'string', default: '' },
    label: { type: 'string', default: '' },
    tool: { type: 'string', default: 'node' },
    pin: { type: 'boolean', default: true },
  },
});
const CONNECTIONS = Number(values.connections);
const DURATION_MS = Number(values.duration) * 1000;

const FLOOD_SOURCE = `
const http = require('node:http');
const { workerData, parentPort } = require('node:worker_threads');
const { port, key, connections, durationMs } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const deadline = performance.now() + durationMs;
const statuses = new Map();
const ms = [];
function get() {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/api/v1/leads?limit=100', agent, headers: { authorization: 'Bearer ' + key } }, (res) => {
      res.resume();
      res.on('end', () => resolve([res.statusCode, performance.now() - started]));
      res.on('error', () => resolve([-1, performance.now() - started]));
    });
    req.on('error', () => resolve([-1, performance.now() - started]));
    req.end();
  });
}
async function loop() {
  while (performance.now() < deadline) {
    const [status, took] = await get();
    statuses.set(status, (statuses.get(status) || 0) + 1);
    ms.push(took);
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
Promise.all(Array.from({ length: connections }, loop)).then(() => {
  agent.destroy();
  parentPort.postMessage({ statuses: [...statuses.entries()], ms });
});
`;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function request(
  agent: http.Agent,
  port: number,
  method: string,
  urlPath: string,
  key?: string,
  body?: string,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const headers: Record<string, string> = {};
    if (key !== undefined) headers.authorization = `Bearer ${key}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      res.on('error', () => resolve({ status: -1, ms: performance.now() - started }));
    });
    req.on('error', () => resolve({ status: -1, ms: performance.now() - started }));
    req.end(body);
  });
}

interface Started {
  dir: string;
  port: number;
  keyA: string;
  keyB: string;
  child: ChildProcess;
  logFile: string;
}

/** Seeds a SQLite file with this checkout's code and starts `serve` over it from `--root`. */
async function start(logLevel: string): Promise<Started> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadlight-overload-'));
  const filename = path.join(dir, 'overload.db');
  const database = openDatabase({ kind: 'sqlite', filename });
  await database.migrate();
  const services = createServices(new Store(database));
  const a = await services.workspaces.create('Flood');
  const b = await services.workspaces.create('Light writer');
  const keyA = (await services.apiKeys.create(a.id, 'production', 'flood')).key;
  const keyB = (await services.apiKeys.create(b.id, 'production', 'writer')).key;
  const lines = Array.from({ length: Number(values.leads) }, (_, index) =>
    JSON.stringify({ id: crypto.randomUUID(), code: `lead-${index}`, source: 'bench', properties: { plan: 'pro', seats: index % 50 } }),
  ).join('\n');
  await services.forWorkspace(a.id).imports.run('leads', Readable.from([lines]));
  const linesB = Array.from({ length: 100 }, (_, index) => JSON.stringify({ id: crypto.randomUUID(), code: `b-${index}`, source: 'bench' })).join('\n');
  await services.forWorkspace(b.id).imports.run('leads', Readable.from([linesB]));
  await database.close();

  const port = await freePort();
  const extra = Object.fromEntries(
    values.env
      .split(',')
      .filter((pair) => pair.includes('='))
      .map((pair) => pair.split('=') as [string, string]),
  );
  const entry = path.join(values.root, 'src', 'cli', 'main.ts');
  const logFile = path.join(dir, 'server.log');
  const log = fs.openSync(logFile, 'w');
  const command = [process.execPath, '--import', 'tsx', entry, 'serve', '--port', String(port)];
  const child = spawn(values.pin ? 'taskset' : command[0] as string, values.pin ? ['-c', '0', ...command] : command.slice(1), {
    cwd: values.root,
    env: {
      ...process.env,
      DATABASE_URL: filename,
      LOG_LEVEL: logLevel,
      LEADLIGHT_DEMO: '0',
      RATE_LIMIT_PRODUCTION: '1000000000',
      INTELLIGENCE_WORKER: '0',
      ...extra,
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const probeAgent = new http.Agent({ keepAlive: false });
  for (let attempt = 0; ; attempt += 1) {
    if ((await request(probeAgent, port, 'GET', '/healthz')).status === 200) break;
    if (attempt > 600) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  probeAgent.destroy();
  return { dir, port, keyA, keyB, child, logFile };
}

async function stop(started: Started): Promise<{ lines: number; bytes: number; overloadLines: number; refused: Record<string, number> }> {
  started.child.kill('SIGTERM');
  await new Promise((resolve) => started.child.once('exit', resolve));
  const text = fs.readFileSync(started.logFile, 'utf8');
  const lines = text.split('\n').filter((line) => line.length > 0);
  const warnings = lines.filter((line) => line.includes('overloaded'));
  // the refusals by reason: one per line before issue 19 (`reason` or `type`), counted per line after (`refused`)
  const refused: Record<string, number> = {};
  for (const line of warnings) {
    const fields = JSON.parse(line) as { refused?: Record<string, number>; reason?: string; type?: string };
    for (const [reason, count] of Object.entries(fields.refused ?? { [fields.reason ?? fields.type ?? 'unknown']: 1 })) {
      refused[reason] = (refused[reason] ?? 0) + count;
    }
  }
  const counted = { lines: lines.length, bytes: Buffer.byteLength(text), overloadLines: warnings.length, refused };
  fs.rmSync(started.dir, { recursive: true, force: true });
  return counted;
}

const WRK_SCRIPT = `
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) statuses = {} end
function response(status, headers, body) statuses[status] = (statuses[status] or 0) + 1 end
function done(summary, latency, requests)
  local all = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do all[status] = (all[status] or 0) + count end
  end
  local parts = {}
  for status, count in pairs(all) do table.insert(parts, string.format('"%d":%d', status, count)) end
  io.write("STATUSES {" .. table.concat(parts, ",") .. "}\\n")
  io.write(string.format("LATENCY_US %d %d %d %d %d\\n", latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.max))
  io.write(string.format("ERRORS %d %d %d %d %d\\n", summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.status, summary.errors.timeout))
end
`;

/** A fresh connection from workspace B every 500 ms, timed to its first byte (the audit's 19.7 s). */
async function freshProbes(port: number, key: string, until: number): Promise<Array<{ status: number; firstByteMs: number }>> {
  const pending: Array<Promise<{ status: number; firstByteMs: number }>> = [];
  while (performance.now() < until) {
    pending.push(
      new Promise((resolve) => {
        const started = performance.now();
        const req = http.request(
          { host: '127.0.0.1', port, path: '/api/v1/leads?limit=10', agent: false, headers: { authorization: `Bearer ${key}`, connection: 'close' } },
          (res) => {
            const firstByteMs = performance.now() - started;
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, firstByteMs }));
            res.on('error', () => resolve({ status: -1, firstByteMs }));
          },
        );
        req.setTimeout(60_000, () => req.destroy());
        req.on('error', () => resolve({ status: -1, firstByteMs: performance.now() - started }));
        req.end();
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return Promise.all(pending);
}

async function mainWrk(): Promise<void> {
  const started = await start('info');
  const script = path.join(started.dir, 'statuses.lua');
  fs.writeFileSync(script, WRK_SCRIPT);
  const url = `http://127.0.0.1:${started.port}/api/v1/leads?limit=10`;
  const args = ['-t2', `-c${CONNECTIONS}`, `-d${DURATION_MS / 1000}s`, '--timeout', '30s', '--latency', '-s', script, '-H', `Authorization: Bearer ${started.keyA}`, url];
  const wrk = spawn(values.pin ? 'taskset' : 'wrk', values.pin ? ['-c', '1', 'wrk', ...args] : args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  wrk.stdout.on('data', (chunk) => (output += String(chunk)));
  const finished = new Promise((resolve) => wrk.once('exit', resolve));
  // the probes start once wrk's connections are open, and end with it
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const probes = await freshProbes(started.port, started.keyB, performance.now() + DURATION_MS - 1500);
  await finished;
  const logs = await stop(started);

  const statuses = JSON.parse(/STATUSES (\{.*\})/.exec(output)?.[1] ?? '{}') as Record<string, number>;
  const [p50, p90, p99, p999, max] = (/LATENCY_US (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(output)?.slice(1) ?? []).map((us) => Number(us) / 1000);
  const errors = /ERRORS (.*)/.exec(output)?.[1] ?? '';
  const firstBytes = probes.map((probe) => probe.firstByteMs).sort((x, y) => x - y);
  const probeStatuses = new Map<number, number>();
  for (const probe of probes) probeStatuses.set(probe.status, (probeStatuses.get(probe.status) ?? 0) + 1);
  const result = {
    label: values.label,
    connections: CONNECTIONS,
    seconds: DURATION_MS / 1000,
    statuses,
    wrk_ms: { p50, p90, p99, p999, max },
    wrk_errors: errors,
    fresh: { statuses: Object.fromEntries(probeStatuses), p50_ms: percentile(firstBytes, 50), max_ms: firstBytes.at(-1) },
    log: logs,
  };
  const f = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(value < 10 ? 1 : 0));
  const counts = Object.entries(statuses).map(([status, count]) => `${status}: ${count}`).join(', ');
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.stdout.write(
    `| ${values.label} | ${counts} | ${f(p50)} / ${f(p99)} / ${f(max)} | ${[...probeStatuses.entries()].map(([status, count]) => `${status}: ${count}`).join(', ')} | ` +
      `${f(result.fresh.p50_ms)} / ${f(result.fresh.max_ms)} | ${logs.lines} (${(logs.bytes / 1e6).toFixed(1)} MB), ${logs.overloadLines} |\n`,
  );
}

async function main(): Promise<void> {
  const { port, keyA, keyB, ...started } = await start('silent');
  const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const deadline = performance.now() + DURATION_MS;
  // the flood runs on its own thread, so that its event loop does not delay the prober and the writer
  const floodWorker = new Worker(FLOOD_SOURCE, { eval: true, workerData: { port, key: keyA, connections: CONNECTIONS, durationMs: DURATION_MS } });
  const flooded = new Promise<{ statuses: [number, number][]; ms: number[] }>((resolve, reject) => {
    floodWorker.once('message', resolve);
    floodWorker.once('error', reject);
  });
  const healthz: number[] = [];
  const prober = (async () => {
    while (performance.now() < deadline) {
      healthz.push((await request(probeAgent, port, 'GET', '/healthz')).ms);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const writer = { ok: 0, other: new Map<number, number>(), ms: [] as number[] };
  const writerAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const writing = (async () => {
    let index = 0;
    while (performance.now() < deadline) {
      const result = await request(writerAgent, port, 'POST', '/api/v1/leads', keyB, JSON.stringify({ code: `w-${index++}` }));
      if (result.status === 201) {
        writer.ok += 1;
        writer.ms.push(result.ms);
      } else {
        writer.other.set(result.status, (writer.other.get(result.status) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  })();
  const [floodResult] = await Promise.all([flooded, prober, writing]);
  const flood = { statuses: new Map(floodResult.statuses), ms: floodResult.ms };
  await stop({ port, keyA, keyB, ...started });
  for (const agent of [probeAgent, writerAgent]) agent.destroy();
  await floodWorker.terminate();

  const seconds = DURATION_MS / 1000;
  const floodMs = flood.ms.sort((x, y) => x - y);
  const healthMs = healthz.sort((x, y) => x - y);
  const writeMs = writer.ms.sort((x, y) => x - y);
  const statuses = [...flood.statuses.entries()].map(([status, count]) => `${status}: ${count}`).join(', ');
  const result = {
    label: values.label,
    connections: CONNECTIONS,
    seconds,
    flood: { statuses, p50_ms: percentile(floodMs, 50), p99_ms: percentile(floodMs, 99), max_ms: floodMs.at(-1) },
    healthz: { samples: healthMs.length, p50_ms: percentile(healthMs, 50), p99_ms: percentile(healthMs, 99), max_ms: healthMs.at(-1) },
    writer: { per_second: writer.ok / seconds, p50_ms: percentile(writeMs, 50), max_ms: writeMs.at(-1), refused: Object.fromEntries(writer.other) },
  };
  const f = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(value < 10 ? 1 : 0));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.stdout.write(
    `| ${values.label} | ${CONNECTIONS} | ${statuses} | ${f(result.flood.p50_ms)} / ${f(result.flood.p99_ms)} / ${f(result.flood.max_ms)} | ` +
      `${f(result.healthz.p50_ms)} / ${f(result.healthz.p99_ms)} / ${f(result.healthz.max_ms)} | ${f(result.writer.per_second)} (${writer.ok}) | ${f(result.writer.p50_ms)} / ${f(result.writer.max_ms)} |\n`,
  );
}

await (values.tool === 'wrk' ? mainWrk() : main());
