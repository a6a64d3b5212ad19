/**
 * The integrations scenario of the benchmark (issue 13, BENCHMARKS.md
 * "Integrations"), on a store of its own: a workspace of `--leads` leads
 * (imported with the CLI), one API process (bench/server.ts, as `serve`
 * starts it) pinned to core 0, the client in this process.
 *
 * - cursor walk (C8.3): GET /api/v1/leads?limit=100 following Link rel="next"
 *   from the first page to the last; pages/s over the first and the last
 *   `EDGE` pages (flat cost with depth means the two agree), and the whole walk.
 * - idempotent POST (C8.2): POST /api/v1/leads with and without an
 *   Idempotency-Key, `POSTS` each at `CONCURRENCY` in flight, alternated in
 *   rounds; requests/s and median latency of each.
 * - webhook deliveries (C8.5): 2 × `POSTS` lead.created events queued while
 *   no worker runs (a first process polls once a day), then a second
 *   process delivers them to a local receiver: deliveries/s from its start
 *   until the receiver has them all.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { adminUrl, BENCH_DIR, type StoreKind } from './data.js';
import { runCommand, startNode } from './processes.js';

const PAGE = 100;
const EDGE = 20;
const POSTS = 1_000;
const POST_ROUNDS = 3;
const CONCURRENCY = 8;

export interface IntegrationsResult {
  store: StoreKind;
  leads: number;
  walk: { pages: number; items: number; seconds: number; firstPagesPerSecond: number; lastPagesPerSecond: number; unique: boolean };
  posts: { plain: { perSecond: number; p50Ms: number }; idempotent: { perSecond: number; p50Ms: number } };
  webhooks: { deliveries: number; seconds: number; perSecond: number };
  failures: string[];
}

export interface IntegrationsOptions {
  leads: number;
  serverNodeFlags: string[];
  logDir: string;
}

async function freshStore(store: StoreKind): Promise<string> {
  if (store === 'sqlite') {
    const file = path.resolve(BENCH_DIR, 'integrations.db');
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    return file;
  }
  const url = new URL(adminUrl());
  url.pathname = '/leadlight_bench_integrations';
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query('DROP DATABASE IF EXISTS leadlight_bench_integrations WITH (FORCE)');
    await client.query('CREATE DATABASE leadlight_bench_integrations');
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

function leadsFile(count: number): string {
  const file = path.resolve(BENCH_DIR, `integrations-leads-${count}.ndjson`);
  if (fs.existsSync(file)) return file;
  const start = Date.UTC(2025, 0, 1);
  const lines: string[] = [];
  for (let index = 0; index < count; index += 1) {
    // several leads share each millisecond, so ties are broken by id
    const created = new Date(start + Math.floor(index / 3) * 1000).toISOString();
    lines.push(JSON.stringify({ code: `bench-${index}`, source: index % 3 === 0 ? 'website' : 'campaign', created_at: created, updated_at: created }));
  }
  fs.mkdirSync(BENCH_DIR, { recursive: true });
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function walk(base: string, key: string): Promise<IntegrationsResult['walk']> {
  const headers = { authorization: `Bearer ${key}` };
  // warm-up: the first pages of a fresh process also pay for compiling and preparing statements
  let warm: string | undefined = `${base}/api/v1/leads?limit=${PAGE}`;
  for (let page = 0; page < EDGE && warm !== undefined; page += 1) {
    const response = await fetch(warm, { headers });
    await response.arrayBuffer();
    const link = response.headers.get('link');
    warm = link === null ? undefined : /^<([^>]+)>; rel="next"$/.exec(link)?.[1];
  }
  const times: number[] = [];
  const seen = new Set<string>();
  let items = 0;
  let next: string | undefined = `${base}/api/v1/leads?limit=${PAGE}`;
  const started = performance.now();
  while (next !== undefined) {
    const before = performance.now();
    const response = await fetch(next, { headers });
    const body = (await response.json()) as { data: { id: string }[] };
    times.push(performance.now() - before);
    if (response.status !== 200) throw new Error(`a page answered ${response.status}`);
    for (const lead of body.data) seen.add(lead.id);
    items += body.data.length;
    const link = response.headers.get('link');
    next = link === null ? undefined : /^<([^>]+)>; rel="next"$/.exec(link)?.[1];
  }
  const seconds = (performance.now() - started) / 1000;
  const rate = (slice: number[]) => slice.length / (slice.reduce((sum, ms) => sum + ms, 0) / 1000);
  return {
    pages: times.length,
    items,
    seconds,
    firstPagesPerSecond: rate(times.slice(0, EDGE)),
    lastPagesPerSecond: rate(times.slice(-EDGE)),
    unique: seen.size === items,
  };
}

async function posts(base: string, key: string, idempotent: boolean, round: number): Promise<{ perSecond: number; latencies: number[] }> {
  const latencies: number[] = [];
  let sent = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (sent < POSTS) {
        const index = sent++;
        const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
        if (idempotent) headers['idempotency-key'] = `bench-${round}-${index}-${crypto.randomUUID()}`;
        const before = performance.now();
        const response = await fetch(`${base}/api/v1/leads`, { method: 'POST', headers, body: JSON.stringify({ code: `post-${round}-${index}`, source: 'bench' }) });
        await response.arrayBuffer();
        if (response.status !== 201) throw new Error(`POST answered ${response.status}`);
        latencies.push(performance.now() - before);
      }
    }),
  );
  return { perSecond: POSTS / ((performance.now() - started) / 1000), latencies };
}

async function receiver(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      count += 1;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function benchIntegrations(store: StoreKind, options: IntegrationsOptions, log: (line: string) => void): Promise<IntegrationsResult> {
  const tag = `[${store}/integrations]`;
  const failures: string[] = [];
  const url = await freshStore(store);
  const workspace = await cli<{ id: string }>(url, ['workspace', 'create', '--name', 'Integrations bench']);
  const key = (await cli<{ key: string }>(url, ['key', 'create', '--workspace', workspace.id, '--type', 'production'])).key;
  log(`${tag} importing ${options.leads} leads`);
  await cli(url, ['import', 'leads', leadsFile(options.leads), '--workspace', workspace.id]);
  const hooks = await receiver();
  const env = (pollMs: number): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: url,
      LOG_LEVEL: 'warn',
      LEADLIGHT_DEMO: '0',
      HOST: '127.0.0.1',
      PORT: '0',
      RATE_LIMIT_PRODUCTION: '1000000000',
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_POLL_MS: String(pollMs),
    };
    delete env.REDIS_URL;
    return env;
  };
  const result: IntegrationsResult = {
    store,
    leads: options.leads,
    walk: { pages: 0, items: 0, seconds: 0, firstPagesPerSecond: 0, lastPagesPerSecond: 0, unique: false },
    posts: { plain: { perSecond: 0, p50Ms: 0 }, idempotent: { perSecond: 0, p50Ms: 0 } },
    webhooks: { deliveries: 0, seconds: 0, perSecond: 0 },
    failures,
  };
  // the first process never delivers (it would poll in a day): it only queues
  const server = startNode(`l2-${store}-integrations`, 0, 'bench/server.ts', [], env(86_400_000), options.logDir, options.serverNodeFlags);
  try {
    const base = await server.ready();
    // two walks: the first also meets what the import left behind (a WAL to
    // checkpoint, a table to analyze); the second is reported
    const first = await walk(base, key);
    log(`${tag} first walk: ${first.pages} pages in ${first.seconds.toFixed(1)} s; first ${EDGE} pages ${first.firstPagesPerSecond.toFixed(0)}/s, last ${EDGE} ${first.lastPagesPerSecond.toFixed(0)}/s`);
    result.walk = await walk(base, key);
    const { walk: w } = result;
    log(`${tag} cursor walk: ${w.pages} pages, ${w.items} leads in ${w.seconds.toFixed(1)} s; first ${EDGE} pages ${w.firstPagesPerSecond.toFixed(0)}/s, last ${EDGE} ${w.lastPagesPerSecond.toFixed(0)}/s`);
    if (w.items !== options.leads || !w.unique) failures.push(`the walk returned ${w.items} leads (${w.unique ? 'unique' : 'with repeats'}), expected ${options.leads}`);

    const plain: number[][] = [];
    const idempotent: number[][] = [];
    const rates = { plain: [] as number[], idempotent: [] as number[] };
    for (let round = 0; round < POST_ROUNDS; round += 1) {
      const a = await posts(base, key, false, round);
      const b = await posts(base, key, true, round);
      plain.push(a.latencies);
      idempotent.push(b.latencies);
      rates.plain.push(a.perSecond);
      rates.idempotent.push(b.perSecond);
    }
    result.posts = {
      plain: { perSecond: median(rates.plain), p50Ms: median(plain.flat()) },
      idempotent: { perSecond: median(rates.idempotent), p50Ms: median(idempotent.flat()) },
    };
    log(
      `${tag} POST /leads: plain ${result.posts.plain.perSecond.toFixed(0)}/s (p50 ${result.posts.plain.p50Ms.toFixed(2)} ms), ` +
        `with Idempotency-Key ${result.posts.idempotent.perSecond.toFixed(0)}/s (p50 ${result.posts.idempotent.p50Ms.toFixed(2)} ms)`,
    );

    const hook = await fetch(`${base}/api/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${hooks.url}/bench`, events: ['lead.created'] }),
    });
    if (hook.status !== 201) throw new Error(`creating the webhook answered ${hook.status}`);
    await posts(base, key, false, 99).catch((error: unknown) => failures.push(String(error)));
    await posts(base, key, false, 98).catch((error: unknown) => failures.push(String(error)));
  } finally {
    await server.stop();
  }
  const expected = 2 * POSTS;
  const deliverer = startNode(`l2-${store}-webhooks`, 0, 'bench/server.ts', [], env(20), options.logDir, options.serverNodeFlags);
  try {
    await deliverer.ready();
    const started = performance.now();
    const deadline = started + 120_000;
    while (hooks.count() < expected && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    const seconds = (performance.now() - started) / 1000;
    result.webhooks = { deliveries: hooks.count(), seconds, perSecond: hooks.count() / seconds };
    log(`${tag} webhooks: ${hooks.count()} of ${expected} deliveries in ${seconds.toFixed(2)} s: ${result.webhooks.perSecond.toFixed(0)}/s`);
    if (hooks.count() < expected) failures.push(`only ${hooks.count()} of ${expected} webhook deliveries within 120 s`);
  } finally {
    await deliverer.stop();
    await hooks.close();
  }
  return result;
}
