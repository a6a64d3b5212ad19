/**
 * `npm run bench:overload` (issue 9): how a `serve` process on SQLite
 * behaves under a flood of list reads. Loopback, bounded: N keep-alive
 * connections loop `GET /api/v1/leads?limit=100` in workspace A for D
 * seconds while a prober times `GET /healthz` every 50 ms and a light writer
 * in workspace B posts leads one at a time. Prints the flood's statuses and
 * latencies, /healthz's latencies and the writer's throughput, as a
 * markdown row for BENCHMARKS.md.
 *
 *   npm run bench:overload -- --connections 256 --duration 10 [--root /path/to/other/checkout] [--env K=V,K=V]
 *
 * --root runs another checkout's server (a "before" figure) over data
 * seeded by this one; --env passes settings (e.g. admission control off:
 * MAX_IN_FLIGHT_REQUESTS=100000,MAX_QUEUED_REQUESTS=0,MAX_EVENT_LOOP_DELAY_MS=0).
 */
import { spawn } from 'node:child_process';
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

async function main(): Promise<void> {
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
  await database.close();

  const port = await freePort();
  const extra = Object.fromEntries(
    values.env
      .split(',')
      .filter((pair) => pair.includes('='))
      .map((pair) => pair.split('=') as [string, string]),
  );
  const entry = path.join(values.root, 'src', 'cli', 'main.ts');
  const child = spawn('taskset', ['-c', '0', process.execPath, '--import', 'tsx', entry, 'serve', '--port', String(port)], {
    cwd: values.root,
    env: { ...process.env, DATABASE_URL: filename, LOG_LEVEL: 'silent', LEADLIGHT_DEMO: '0', RATE_LIMIT_PRODUCTION: '1000000000', ...extra },
    stdio: 'ignore',
  });
  const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (let attempt = 0; ; attempt += 1) {
    if ((await request(probeAgent, port, 'GET', '/healthz')).status === 200) break;
    if (attempt > 300) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

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
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  for (const agent of [probeAgent, writerAgent]) agent.destroy();
  await floodWorker.terminate();
  fs.rmSync(dir, { recursive: true, force: true });

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

await main();
