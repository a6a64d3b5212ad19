/**
 * The load of the ingest scenario (issue 10): batches of 50 events from a
 * population of visitors (10,000 by default), as the tracker sends them
 * (text/plain, a site key, a browser's User-Agent): page views mostly, an
 * identify in about one batch in three of a visitor not yet identified, a
 * conversion in about one batch in eight. Each visitor's events move forward
 * in time. Two modes, pinned to the load core by the harness:
 *
 *   saturate: `connections` requests always in flight, for `seconds`
 *   rate:     an open model, request i due at start + i / rate (latency from
 *             when it was due, so queueing counts), for `seconds`
 *
 * Prints one JSON IngestLoadResult on stdout.
 */
import http from 'node:http';
import { benchVisitors, visitorBatch } from './lib/visitor-batch.js';

export interface IngestLoadRequest {
  url: string;
  key: string;
  userAgent: string;
  mode: 'saturate' | 'rate';
  seconds: number;
  connections: number;
  rate?: number;
  visitors: number;
  eventsPerBatch: number;
  /** visitors' numbers start here, so runs after one another do not reuse visitors' emails */
  visitorOffset: number;
}

export interface IngestLoadResult {
  requests: number;
  accepted: number;
  statuses: Record<string, number>;
  errors: number;
  seconds: number;
  eventsPerSecond: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** visitors identified and conversions sent in accepted batches */
  identified: number;
  conversions: number;
  clientCpu: number;
}

const request = JSON.parse(process.argv[2] ?? '{}') as IngestLoadRequest;
const agent = new http.Agent({ keepAlive: true, maxSockets: request.connections });
const visitors = benchVisitors(request.visitors, request.visitorOffset);
const batch = () => visitorBatch(visitors, request.key, request.eventsPerBatch);

const latencies: number[] = [];
const statuses: Record<string, number> = {};
let errors = 0;
let accepted = 0;
let identified = 0;
let conversions = 0;
let requests = 0;

function send(due: number): Promise<void> {
  const { body, identifies, conversions: converting } = batch();
  return new Promise((resolve) => {
    const outgoing = http.request(
      request.url,
      { method: 'POST', agent, headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': request.userAgent, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          latencies.push(performance.now() - due);
          requests += 1;
          const status = String(response.statusCode);
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (response.statusCode === 202) {
            accepted += (JSON.parse(text) as { data: { accepted: number } }).data.accepted;
            identified += identifies;
            conversions += converting;
          }
          resolve();
        });
      },
    );
    outgoing.on('error', () => {
      errors += 1;
      resolve();
    });
    outgoing.end(body);
  });
}

const cpu = process.cpuUsage();
const start = performance.now();
const end = start + request.seconds * 1000;
if (request.mode === 'saturate') {
  await Promise.all(
    Array.from({ length: request.connections }, async () => {
      while (performance.now() < end) await send(performance.now());
    }),
  );
} else {
  const rate = request.rate ?? 1;
  const total = Math.round(rate * request.seconds);
  const inFlight: Promise<void>[] = [];
  for (let index = 0; index < total; index += 1) {
    const due = start + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(send(due));
  }
  await Promise.all(inFlight);
}
const wall = (performance.now() - start) / 1000;
const used = process.cpuUsage(cpu);
agent.destroy();
latencies.sort((a, b) => a - b);
const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? Number.NaN;
const result: IngestLoadResult = {
  requests,
  accepted,
  statuses,
  errors,
  seconds: wall,
  eventsPerSecond: accepted / wall,
  requestsPerSecond: requests / wall,
  p50Ms: percentile(50),
  p99Ms: percentile(99),
  maxMs: latencies.at(-1) ?? Number.NaN,
  identified,
  conversions,
  clientCpu: (used.user + used.system) / 1e6 / wall,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
