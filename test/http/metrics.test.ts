/**
 * GET /metrics (issue 8, "An operator's basics"): Prometheus text over real
 * HTTP, with exact request counts per route pattern (never a raw URL),
 * method and status; rate-limit refusals by key type; the store's
 * connections and the process's event loop and memory. /metrics is outside
 * /api/v1: no key, never rate limited, not in the OpenAPI document, and
 * behind METRICS_TOKEN when that is set. Under `serve --workers 2` a scrape
 * sees the whole cluster.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { startServerProcess, type ServerProcess } from '../helpers/processes.js';
import { storeKinds, tempDir } from '../helpers/stores.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    expect(match, line).not.toBeNull();
    const labels: Record<string, string> = {};
    for (const label of (match![2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[label[1]!] = label[2]!;
    }
    samples.push({ name: match![1]!, labels, value: Number(match![3]) });
  }
  return samples;
}

function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;
}

const COUNT = 'leadlight_http_request_duration_seconds_count';
const REFUSALS = 'leadlight_rate_limit_refusals_total';
const BASE_MS = Date.UTC(2031, 5, 1, 12, 0, 5);

describe.each(storeKinds())('GET /metrics on %s', (kind) => {
  let t: TestApp;
  let workspace: TestWorkspace;
  let base: string;
  let samples: Sample[];
  let scrapes: Response[];
  let openapiPaths: string[];

  const call = (url: string, init: RequestInit = {}) => fetch(`${base}${url}`, init);
  const withKey = (key: string, url: string, init: RequestInit = {}) =>
    call(url, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } });

  beforeAll(async () => {
    // a clock that stays inside one rate-limit window; development and address limits small enough to reach
    t = await createTestApp(kind, { clock: () => BASE_MS, limits: { development: 3, unauthenticated: 5 } });
    workspace = await t.createWorkspace();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const production = workspace.production.key;

    // 1 request counted against the address limit
    openapiPaths = Object.keys(((await (await call('/api/v1/openapi.json')).json()) as { paths: object }).paths);
    const created: string[] = [];
    for (const code of ['M-1', 'M-2']) {
      const response = await withKey(production, '/api/v1/leads', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      });
      expect(response.status).toBe(201);
      created.push(((await response.json()) as { data: { id: string } }).data.id);
    }
    for (let index = 0; index < 3; index += 1) expect((await withKey(production, '/api/v1/leads')).status).toBe(200);
    expect((await withKey(production, `/api/v1/leads/${created[0]}`)).status).toBe(200);
    expect((await withKey(production, '/api/v1/leads/0190a1b2-0000-7000-8000-000000000000')).status).toBe(404);
    // the development key's limit is 3: the fourth request is refused
    const development = [];
    for (let index = 0; index < 4; index += 1) development.push((await withKey(workspace.development.key, '/api/v1/leads')).status);
    expect(development).toEqual([200, 200, 200, 429]);
    // the address limit is 5 and openapi.json used one: four 401s, then a 429
    const anonymous = [];
    for (let index = 0; index < 5; index += 1) anonymous.push((await call('/api/v1/leads')).status);
    expect(anonymous).toEqual([401, 401, 401, 401, 429]);
    expect((await withKey(production, '/api/v1/no-such-thing?x=1')).status).toBe(404);
    expect((await call('/no-such-thing')).status).toBe(404);

    // more scrapes than the address limit allows, all without a key
    scrapes = [];
    for (let index = 0; index < 8; index += 1) scrapes.push(await call('/metrics'));
    samples = parseExposition(await scrapes.at(-1)!.text());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers Prometheus text without a key and is never rate limited', () => {
    expect(scrapes.map((response) => response.status)).toEqual(Array(8).fill(200));
    const last = scrapes.at(-1)!;
    expect(last.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(last.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('counts requests exactly, by route pattern, method and status code', () => {
    const count = (route: string, method: string, status: number) =>
      sampleValue(samples, COUNT, { route, method, status_code: String(status) });
    expect(count('/api/v1/openapi.json', 'GET', 200)).toBe(1);
    expect(count('/api/v1/leads', 'POST', 201)).toBe(2);
    expect(count('/api/v1/leads', 'GET', 200)).toBe(6);
    expect(count('/api/v1/leads', 'GET', 401)).toBe(4);
    expect(count('/api/v1/leads', 'GET', 429)).toBe(2);
    expect(count('/api/v1/leads/:id', 'GET', 200)).toBe(1);
    expect(count('/api/v1/leads/:id', 'GET', 404)).toBe(1);
    expect(count('unmatched', 'GET', 404)).toBe(2);
    // the scrapes before the last one
    expect(count('/metrics', 'GET', 200)).toBe(7);
    const total = samples.filter((sample) => sample.name === COUNT).reduce((sum, sample) => sum + sample.value, 0);
    expect(total).toBe(1 + 2 + 6 + 4 + 2 + 1 + 1 + 2 + 7);
  });

  it('labels requests by route pattern, never by URL', () => {
    const routes = new Set(samples.filter((sample) => sample.name === COUNT).map((sample) => sample.labels.route));
    expect([...routes].sort()).toEqual(
      ['/api/v1/leads', '/api/v1/leads/:id', '/api/v1/openapi.json', '/metrics', 'unmatched'].sort(),
    );
  });

  it('counts rate-limit refusals by key type, address for requests without a valid key', () => {
    expect(sampleValue(samples, REFUSALS, { key_type: 'development' })).toBe(1);
    expect(sampleValue(samples, REFUSALS, { key_type: 'address' })).toBe(1);
    expect(sampleValue(samples, REFUSALS, { key_type: 'production' })).toBe(0);
  });

  it('reports the store connections, the event loop and memory', () => {
    const connections = sampleValue(samples, 'leadlight_db_pool_connections');
    const max = sampleValue(samples, 'leadlight_db_pool_max_connections');
    if (kind === 'sqlite') {
      expect(connections).toBe(1);
      expect(max).toBe(1);
      expect(sampleValue(samples, 'leadlight_db_pool_waiting_queries')).toBeUndefined();
    } else {
      // the test database's pool has 5 connections at most
      expect(max).toBe(5);
      expect(connections).toBeGreaterThanOrEqual(1);
      expect(connections).toBeLessThanOrEqual(5);
      expect(sampleValue(samples, 'leadlight_db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
      expect(sampleValue(samples, 'leadlight_db_pool_waiting_queries')).toBe(0);
    }
    expect(sampleValue(samples, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sampleValue(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sampleValue(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('is not in the OpenAPI document', () => {
    expect(openapiPaths.length).toBeGreaterThan(0);
    expect(openapiPaths.some((entry) => entry.includes('metrics'))).toBe(false);
  });
});

describe('GET /metrics of a real `serve` process', () => {
  const TOKEN = 'metrics-token-0123456789abcdef';
  let dir: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dir = tempDir('leadlight-metrics-');
    server = await startServerProcess({ DATABASE_URL: path.join(dir, 'leadlight.db'), METRICS_TOKEN: TOKEN });
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });

  const scrape = (authorization?: string) =>
    fetch(`${server.url}/metrics`, { headers: authorization === undefined ? {} : { authorization } });

  it('METRICS_TOKEN: 401 in the contract shape without the token or with a wrong one', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const response = await scrape(authorization);
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await response.json()).toEqual({ error: 'unauthorized', message: 'Invalid or missing metrics token' });
    }
  });

  it('METRICS_TOKEN: 200 with `Authorization: Bearer <token>`', async () => {
    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    const samples = parseExposition(await response.text());
    expect(sampleValue(samples, COUNT, { route: '/metrics', status_code: '401' })).toBe(4);
  });
});

describe('GET /metrics under `serve --workers 2`', () => {
  let dir: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dir = tempDir('leadlight-metrics-cluster-');
    server = await startServerProcess({ DATABASE_URL: path.join(dir, 'leadlight.db') }, ['--workers', '2']);
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** one request on a new connection, so that the cluster hands each to the next worker */
  const get = (url: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .get(`${server.url}${url}`, { agent: false, timeout: 10_000 }, (response) => {
          let body = '';
          response.on('data', (chunk) => (body += String(chunk)));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        })
        .on('timeout', () => reject(new Error('request timed out')))
        .on('error', reject);
    });

  it('every scrape sees the sum over the workers', async () => {
    // both workers listening: their one SQLite connection each is summed
    const deadline = Date.now() + 30_000;
    let samples: Sample[] = [];
    while (Date.now() < deadline) {
      samples = parseExposition((await get('/metrics')).body);
      if (sampleValue(samples, 'leadlight_db_pool_connections') === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(sampleValue(samples, 'leadlight_db_pool_connections'), server.output()).toBe(2);

    for (let index = 0; index < 20; index += 1) expect((await get('/readyz')).status).toBe(200);
    for (let index = 0; index < 4; index += 1) {
      const scraped = await get('/metrics');
      expect(scraped.status).toBe(200);
      samples = parseExposition(scraped.body);
      expect(sampleValue(samples, COUNT, { route: '/readyz', status_code: '200' })).toBe(20);
    }
    expect(sampleValue(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  }, 60_000);
});
