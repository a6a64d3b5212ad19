/**
 * The ingest scenario of the benchmark (issue 10, BENCHMARKS.md "Ingest"):
 * one API process (bench/server.ts, exactly as `serve` starts it) pinned to
 * core 0 on an empty store, and bench/ingest-client.ts pinned to core 1
 * sending batches of 50 events from 10,000 visitors. It measures events/s at
 * saturation over the rounds, then p99 at half of that rate, then whether
 * what the events derive (identities, leads) is all there within 5 s of the
 * last answer; and the tracker's gzipped size.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { gzippedSize, TRACKER_FILE } from '../../scripts/tracker-build.js';
import type { IngestLoadRequest, IngestLoadResult } from '../ingest-client.js';
import { adminUrl, BENCH_DIR, type StoreKind } from './data.js';
import { LOAD_CORE } from './load.js';
import { cpuMicros, runCommand, startNode } from './processes.js';

/** a desktop Chrome: a Node client's own User-Agent would be ignored as a bot */
export const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const VISITORS = 10_000;
const EVENTS_PER_BATCH = 50;
const CATCH_UP_LIMIT_MS = 5_000;

export interface IngestRound extends IngestLoadResult {
  /** CPU of the API process per event accepted, µs */
  serverCpuMicrosPerEvent: number;
}

export interface IngestResult {
  store: StoreKind;
  rounds: IngestRound[];
  fixedRate?: IngestLoadResult & { targetRate: number; eventLoopP99: number; eventLoopMax: number };
  /** ms from the last answer until identities and leads matched what was sent (-1: not within 5 s) */
  catchUpMs: number;
  expected: { identities: number; leads: number };
  found: { identities: number; leads: number };
  trackerGzipBytes: number;
  failures: string[];
}

export interface IngestOptions {
  duration: number;
  rounds: number;
  connections: number;
  serverNodeFlags: string[];
  logDir: string;
}

async function freshStore(store: StoreKind): Promise<string> {
  if (store === 'sqlite') {
    const file = path.resolve(BENCH_DIR, 'ingest.db');
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    return file;
  }
  const url = new URL(adminUrl());
  url.pathname = '/leadlight_bench_ingest';
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query('DROP DATABASE IF EXISTS leadlight_bench_ingest WITH (FORCE)');
    await client.query('CREATE DATABASE leadlight_bench_ingest');
  } finally {
    await client.end();
  }
  return url.toString();
}

async function cli<T>(url: string, args: string[]): Promise<T> {
  const result = await runCommand('node', ['--import', 'tsx', 'src/cli/main.ts', ...args, '--json'], { ...process.env, DATABASE_URL: url, LEADLIGHT_DEMO: '0' });
  if (result.code !== 0) throw new Error(`leadlight ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return JSON.parse(result.stdout) as T;
}

/** bench/ingest-client.ts, pinned to the load core (also the `live` module's load) */
export async function ingestLoad(request: IngestLoadRequest): Promise<IngestLoadResult> {
  const args = ['-c', String(LOAD_CORE), 'node', '--import', 'tsx', 'bench/ingest-client.ts', JSON.stringify(request)];
  const result = await runCommand('taskset', args);
  if (result.code !== 0) throw new Error(`bench/ingest-client.ts failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as IngestLoadResult;
}

async function totals(base: string, apiKey: string): Promise<{ identities: number; leads: number }> {
  const total = async (resource: string) => {
    const response = await fetch(`${base}/api/v1/${resource}?limit=1`, { headers: { authorization: `Bearer ${apiKey}` } });
    return ((await response.json()) as { pagination: { total: number } }).pagination.total;
  };
  return { identities: await total('identities'), leads: await total('leads') };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export async function benchIngest(store: StoreKind, options: IngestOptions, log: (line: string) => void): Promise<IngestResult> {
  const result: IngestResult = {
    store,
    rounds: [],
    catchUpMs: -1,
    expected: { identities: 0, leads: 0 },
    found: { identities: 0, leads: 0 },
    trackerGzipBytes: gzippedSize(fs.readFileSync(TRACKER_FILE, 'utf8').replace('%%LEADLIGHT_EVENTS_PATH%%', '/e')),
    failures: [],
  };
  const url = await freshStore(store);
  const workspace = await cli<{ id: string }>(url, ['workspace', 'create', '--name', 'Ingest bench']);
  const siteKey = (await cli<{ key: string }>(url, ['site-key', 'create', '--workspace', workspace.id])).key;
  const apiKey = (await cli<{ key: string }>(url, ['key', 'create', '--workspace', workspace.id, '--type', 'production'])).key;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: url,
    LOG_LEVEL: 'warn',
    LEADLIGHT_DEMO: '0',
    HOST: '127.0.0.1',
    PORT: '0',
    RATE_LIMIT_PRODUCTION: '1000000000',
    RATE_LIMIT_INGEST: '1000000000',
    RATE_LIMIT_INGEST_ADDRESS: '1000000000',
    // saturation is measured on purpose, as in bench/run.ts: shedding it would end the measurement
    MAX_EVENT_LOOP_DELAY_MS: '0',
  };
  delete env.REDIS_URL;
  const server = startNode(`l2-${store}-ingest`, 0, 'bench/server.ts', [], env, options.logDir, ['--expose-gc', ...options.serverNodeFlags]);
  let offset = 0;
  const request = (mode: 'saturate' | 'rate', seconds: number, rate?: number): IngestLoadRequest => {
    offset += VISITORS;
    return {
      url: '',
      key: siteKey,
      userAgent: USER_AGENT,
      mode,
      seconds,
      connections: options.connections,
      ...(rate === undefined ? {} : { rate }),
      visitors: VISITORS,
      eventsPerBatch: EVENTS_PER_BATCH,
      visitorOffset: offset,
    };
  };
  try {
    const base = await server.ready();
    const events = `${base}/e`;
    const expect = (run: IngestLoadResult) => {
      result.expected.identities += run.identified;
      result.expected.leads += run.conversions;
      const refused = run.requests - (run.statuses['202'] ?? 0);
      if (refused > 0 || run.errors > 0) result.failures.push(`${refused} of ${run.requests} answers were not 202, ${run.errors} errors`);
    };
    expect(await ingestLoad({ ...request('saturate', 2), url: events }));
    for (let index = 1; index <= options.rounds; index += 1) {
      const before = cpuMicros(server.pid);
      const run = await ingestLoad({ ...request('saturate', options.duration), url: events });
      expect(run);
      const round = { ...run, serverCpuMicrosPerEvent: (cpuMicros(server.pid) - before) / Math.max(1, run.accepted) };
      result.rounds.push(round);
      log(
        `[${store}] ingest r${index}: ${Math.round(run.eventsPerSecond)} events/s (${Math.round(run.requestsPerSecond)} batches/s), ` +
          `p50 ${run.p50Ms.toFixed(1)} ms, p99 ${run.p99Ms.toFixed(1)} ms, ${round.serverCpuMicrosPerEvent.toFixed(1)} µs CPU per event, client ${Math.round(run.clientCpu * 100)} %`,
      );
    }
    const rate = Math.max(1, Math.round(median(result.rounds.map((round) => round.requestsPerSecond)) / 2));
    await server.call({ type: 'stats', reset: true });
    const fixed = await ingestLoad({ ...request('rate', options.duration, rate), url: events });
    const loop = (await server.call({ type: 'stats', reset: false })).eventLoop as { p99: number; max: number };
    expect(fixed);
    result.fixedRate = { ...fixed, targetRate: rate, eventLoopP99: loop.p99, eventLoopMax: loop.max };
    log(
      `[${store}] ingest at ${rate} batches/s (${rate * EVENTS_PER_BATCH} events/s): achieved ${Math.round(fixed.requestsPerSecond)}/s, ` +
        `p50 ${fixed.p50Ms.toFixed(1)} ms, p99 ${fixed.p99Ms.toFixed(1)} ms, server event loop p99 ${loop.p99.toFixed(1)} ms, max ${loop.max.toFixed(1)} ms`,
    );

    const started = performance.now();
    for (;;) {
      result.found = await totals(base, apiKey);
      if (result.found.identities >= result.expected.identities && result.found.leads >= result.expected.leads) {
        result.catchUpMs = performance.now() - started;
        break;
      }
      if (performance.now() - started > CATCH_UP_LIMIT_MS) {
        result.failures.push(`after 5 s: ${JSON.stringify(result.found)} of ${JSON.stringify(result.expected)}`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    log(`[${store}] ingest: derived data caught up ${result.catchUpMs >= 0 ? `${Math.round(result.catchUpMs)} ms after the last answer` : 'NOT within 5 s'} (${JSON.stringify(result.found)})`);
  } catch (error) {
    result.failures.push(error instanceof Error ? error.message : String(error));
  } finally {
    await server.stop();
  }
  return result;
}

/** The markdown section of the report. */
export function ingestMarkdown(results: readonly IngestResult[]): string {
  if (results.length === 0) return '';
  const lines = [
    '## Ingest (batches of 50 events from 10,000 visitors, one API process on one core)',
    '',
    '| store | events/s (median of rounds) | min–max | batches/s | p99 at saturation | rate for p99 (half) | p50 / p99 at that rate | server CPU per event | derived data caught up | tracker gzip -9 |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const result of results) {
    const rates = result.rounds.map((round) => round.eventsPerSecond);
    const fixed = result.fixedRate;
    lines.push(
      `| ${result.store} | ${Math.round(median(rates))} | ${Math.round(Math.min(...rates))}–${Math.round(Math.max(...rates))} | ` +
        `${Math.round(median(result.rounds.map((round) => round.requestsPerSecond)))} | ${median(result.rounds.map((round) => round.p99Ms)).toFixed(1)} ms | ` +
        `${fixed === undefined ? '-' : `${fixed.targetRate}/s (${fixed.targetRate * EVENTS_PER_BATCH} events/s)`} | ` +
        `${fixed === undefined ? '-' : `${fixed.p50Ms.toFixed(1)} / ${fixed.p99Ms.toFixed(1)} ms`} | ` +
        `${median(result.rounds.map((round) => round.serverCpuMicrosPerEvent)).toFixed(1)} µs | ` +
        `${result.catchUpMs >= 0 ? `${Math.round(result.catchUpMs)} ms` : 'not within 5 s'} | ${result.trackerGzipBytes} B |`,
    );
    for (const failure of result.failures) lines.push('', `FAILED (${result.store}): ${failure}`);
  }
  return `${lines.join('\n')}\n`;
}
