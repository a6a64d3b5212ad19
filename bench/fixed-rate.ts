/**
 * Latency at a fixed rate (an open model): request i is due at
 * start + i / rate, whether or not earlier ones have been answered, and its
 * latency runs from when it was due to its last byte, so queueing in the
 * client or the server counts (no coordinated omission). Requests go over a
 * pool of keep-alive connections. Run pinned to the load core:
 *
 *   taskset -c 1 node --import tsx bench/fixed-rate.ts '{"url":…,"rate":…,…}'
 *
 * The first `warmUpSeconds` (default 1) are sent at the same rate but not
 * measured: a fresh client's first requests (new connections, cold code)
 * are slower for reasons of its own. A `{id}` in the URL is replaced by the ids of `idsFile` (a JSON array), in
 * turn, as the saturation runs do. Prints one JSON `PacedResult` on stdout.
 */
import fs from 'node:fs';
import http from 'node:http';

export interface PacedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  rate: number;
  seconds: number;
  connections: number;
  /** a JSON array of ids for the `{id}` of `url` */
  idsFile?: string;
  warmUpSeconds?: number;
}

export interface PacedResult {
  sent: number;
  completed: number;
  statuses: Record<string, number>;
  errors: number;
  achievedRate: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** CPU time of this client ÷ wall time: near 1, the client may be the limit */
  clientCpu: number;
  /** the worst latency of each half second of the measured part, ms: shows whether slow requests cluster */
  worstPerHalfSecondMs: number[];
}

const request = JSON.parse(process.argv[2] ?? '{}') as PacedRequest;
const agent = new http.Agent({ keepAlive: true, maxSockets: request.connections });
const latencies: number[] = [];
const statuses: Record<string, number> = {};
let sent = 0;
let errors = 0;
const [prefix, suffix] = request.url.split('{id}') as [string, string | undefined];
const ids = suffix === undefined ? [] : (JSON.parse(fs.readFileSync(request.idsFile ?? '', 'utf8')) as string[]);
if (suffix !== undefined && ids.length === 0) throw new Error('a URL with {id} needs a non-empty idsFile');

function urlOf(index: number): string {
  return suffix === undefined ? prefix : `${prefix}${ids[index % ids.length] as string}${suffix}`;
}

const timeline: number[] = [];
const warmUpMs = (request.warmUpSeconds ?? 1) * 1000;
let measuredFrom = 0;

function send(due: number, index: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      if (due >= measuredFrom) {
        const latency = performance.now() - due;
        latencies.push(latency);
        const bucket = Math.floor((due - measuredFrom) / 500);
        timeline[bucket] = Math.max(timeline[bucket] ?? 0, latency);
      }
      resolve();
    };
    const outgoing = http.request(urlOf(index), { method: request.method, headers: request.headers, agent }, (response) => {
      const status = String(response.statusCode);
      statuses[status] = (statuses[status] ?? 0) + 1;
      response.on('end', done).resume();
    });
    outgoing.on('error', () => {
      errors += 1;
      resolve();
    });
    outgoing.end(request.body);
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const cpu = process.cpuUsage();
const start = performance.now();
measuredFrom = start + warmUpMs;
const total = Math.round((request.rate * (warmUpMs + request.seconds * 1000)) / 1000);
const pending: Promise<void>[] = [];
await new Promise<void>((resolve) => {
  const tick = () => {
    const now = performance.now();
    while (sent < total && start + (sent * 1000) / request.rate <= now) {
      pending.push(send(start + (sent * 1000) / request.rate, sent));
      sent += 1;
    }
    if (sent < total) setTimeout(tick, Math.max(0, start + (sent * 1000) / request.rate - performance.now()));
    else resolve();
  };
  tick();
});
await Promise.all(pending);
const end = performance.now();
const wall = (end - start) / 1000;
const used = process.cpuUsage(cpu);
agent.destroy();
const sorted = latencies.sort((a, b) => a - b);
const result: PacedResult = {
  sent,
  completed: Object.values(statuses).reduce((sum, count) => sum + count, 0),
  statuses,
  errors,
  achievedRate: latencies.length / ((end - measuredFrom) / 1000),
  p50Ms: percentile(sorted, 50),
  p90Ms: percentile(sorted, 90),
  p99Ms: percentile(sorted, 99),
  maxMs: sorted[sorted.length - 1] ?? Number.NaN,
  clientCpu: (used.user + used.system) / 1e6 / wall,
  worstPerHalfSecondMs: Array.from(timeline, (ms) => Math.round((ms ?? 0) * 10) / 10),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
