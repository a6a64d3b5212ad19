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
 * are slower for reasons of its own. A `{id}` in the URL is replaced by the
 * ids of `idsFile` (a JSON array), in turn, as the saturation runs do.
 * Prints one JSON `PacedResult` on stdout.
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
const warmUpSeconds = request.warmUpSeconds ?? 1;
const total = Math.round(request.rate * (warmUpSeconds + request.seconds));
/** preallocated, and no promise kept per request, so the client's own garbage collection stays out of the way */
const latencies = new Float64Array(total);
let measured = 0;
let outstanding = 0;
let allSent = false;
let finished: () => void = () => undefined;
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
let measuredFrom = 0;

function settle(): void {
  outstanding -= 1;
  if (allSent && outstanding === 0) finished();
}

function send(due: number, index: number): void {
  outstanding += 1;
  const done = () => {
    if (due >= measuredFrom) {
      const latency = performance.now() - due;
      latencies[measured] = latency;
      measured += 1;
      const bucket = Math.floor((due - measuredFrom) / 500);
      timeline[bucket] = Math.max(timeline[bucket] ?? 0, latency);
    }
    settle();
  };
  const outgoing = http.request(urlOf(index), { method: request.method, headers: request.headers, agent }, (response) => {
    const status = String(response.statusCode);
    statuses[status] = (statuses[status] ?? 0) + 1;
    response.on('end', done).resume();
  });
  outgoing.on('error', () => {
    errors += 1;
    settle();
  });
  outgoing.end(request.body);
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const cpu = process.cpuUsage();
const start = performance.now();
measuredFrom = start + warmUpSeconds * 1000;
const allDone = new Promise<void>((resolve) => {
  finished = resolve;
});
await new Promise<void>((resolve) => {
  const tick = () => {
    const now = performance.now();
    while (sent < total && start + (sent * 1000) / request.rate <= now) {
      send(start + (sent * 1000) / request.rate, sent);
      sent += 1;
    }
    if (sent < total) setTimeout(tick, Math.max(0, start + (sent * 1000) / request.rate - performance.now()));
    else resolve();
  };
  tick();
});
allSent = true;
if (outstanding === 0) finished();
await allDone;
const end = performance.now();
const wall = (end - start) / 1000;
const used = process.cpuUsage(cpu);
agent.destroy();
const sorted = latencies.subarray(0, measured).sort();
const result: PacedResult = {
  sent,
  completed: Object.values(statuses).reduce((sum, count) => sum + count, 0),
  statuses,
  errors,
  achievedRate: measured / ((end - measuredFrom) / 1000),
  p50Ms: percentile(sorted, 50),
  p90Ms: percentile(sorted, 90),
  p99Ms: percentile(sorted, 99),
  maxMs: sorted[sorted.length - 1] ?? Number.NaN,
  clientCpu: (used.user + used.system) / 1e6 / wall,
  worstPerHalfSecondMs: Array.from(timeline, (ms) => Math.round((ms ?? 0) * 10) / 10),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
