/**
 * A silent PostgreSQL network path (issue 9, item 1): the pool's connections
 * stop carrying bytes without being closed or reset, as when a network drops
 * packets, while PostgreSQL still accepts new connections, and then the path
 * goes silent altogether. Requests must fail fast with 503 in the error
 * shape instead of hanging, the stuck connections must be discarded so the
 * service recovers within seconds of a healthy path, and /readyz must answer
 * promptly and truthfully throughout. Short bounds are configured so the
 * test runs in seconds.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { DEFAULT_POSTGRES_TIMEOUTS } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { isStoreUnavailable } from '../../src/db/errors.js';
import { GENEROUS_LIMITS, createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { postgresUrl } from '../helpers/postgres.js';
import { hostPort, startTcpProxy, throughProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

const TIMEOUTS = { ...DEFAULT_POSTGRES_TIMEOUTS, statementMs: 800, queryMs: 1000, connectMs: 1000 };
/** an answer (200 or 503) within this, never a hang: the query bound plus room for a busy machine */
const ANSWER_WITHIN_MS = 6000;

describe.runIf(postgresUrl() !== undefined)('a silent network path to PostgreSQL', () => {
  let base: TestApp;
  let ws: TestWorkspace;
  let proxy: TcpProxy;
  let proxied: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    base = await createTestApp('postgres');
    ws = await base.createWorkspace('Stall');
    await base.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: 'before' } });
    const { host, port } = hostPort(base.db.url, 5432);
    proxy = await startTcpProxy(host, port);
    proxied = openDatabase({ kind: 'postgres', url: throughProxy(base.db.url, proxy), poolSize: 4, timeouts: TIMEOUTS });
    app = await buildApp({ config: { rateLimits: GENEROUS_LIMITS, trustProxy: false }, database: proxied });
    await app.ready();
  });
  afterAll(async () => {
    proxy?.heal();
    await app?.close();
    await proxied?.close();
    await proxy?.close();
    await base?.close();
  });

  const leads = () =>
    app.inject({ method: 'GET', url: '/api/v1/leads', headers: { authorization: `Bearer ${ws.production.key}` } });

  async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
    const started = performance.now();
    const value = await work();
    return { value, ms: performance.now() - started };
  }

  async function until(check: () => Promise<boolean>, withinMs: number): Promise<number> {
    const started = performance.now();
    for (;;) {
      if (await check()) return performance.now() - started;
      if (performance.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('issue 9: the service sets statement_timeout and idle_in_transaction_session_timeout on its sessions', async () => {
    const { rows } = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(proxied.db);
    expect(rows[0]?.statement_timeout).toBe('800ms');
    const idle = await sql<{ idle_in_transaction_session_timeout: string }>`show idle_in_transaction_session_timeout`.execute(proxied.db);
    expect(idle.rows[0]?.idle_in_transaction_session_timeout).toBe('30s');
    const slow = await sql`select pg_sleep(3)`.execute(proxied.db).catch((error: unknown) => error);
    expect(slow).toMatchObject({ code: '57014' });
    expect(isStoreUnavailable(slow)).toBe(true);
  });

  it('issue 9: stalled pooled connections fail fast with 503, are discarded, and the service recovers within seconds', async () => {
    // every pooled connection open and idle
    const warm = await Promise.all(Array.from({ length: 8 }, () => leads()));
    expect(warm.map((response) => response.statusCode)).toEqual(Array(8).fill(200));
    expect(proxied.poolStats().connections).toBe(4);

    proxy.stall();
    const during = await Promise.all(Array.from({ length: 8 }, () => timed(leads)));
    for (const { value, ms } of during) {
      expect(ms, 'answered, not hung').toBeLessThan(ANSWER_WITHIN_MS);
      expect([200, 503]).toContain(value.statusCode);
      if (value.statusCode === 503) {
        expect(value.json()).toEqual({ error: 'service_unavailable', message: 'The database is unreachable; try again shortly' });
        expect(value.headers['retry-after']).toBe('5');
      }
    }
    expect(during.some(({ value }) => value.statusCode === 503)).toBe(true);
    // new connections work (PostgreSQL still accepts them): the service serves again without the path healing
    await until(async () => (await leads()).statusCode === 200, 5000);
    const after = await Promise.all(Array.from({ length: 8 }, () => leads()));
    expect(after.map((response) => response.statusCode)).toEqual(Array(8).fill(200));
    expect(after[0]?.json().data.map((lead: { code: string }) => lead.code)).toEqual(['before']);
    const ready = await timed(() => app.inject({ url: '/readyz' }));
    expect(ready.value.statusCode).toBe(200);
    proxy.heal();
  });

  it('issue 9: with the whole path silent, /readyz says unavailable promptly, requests answer 503, and both recover when it heals', async () => {
    expect((await leads()).statusCode).toBe(200);
    proxy.stall({ newConnections: true });
    const ready = await timed(() => app.inject({ url: '/readyz' }));
    expect(ready.ms).toBeLessThan(ANSWER_WITHIN_MS);
    expect(ready.value.statusCode).toBe(503);
    expect(ready.value.json()).toMatchObject({ status: 'unavailable', database: 'unreachable' });
    const healthz = await timed(() => app.inject({ url: '/healthz' }));
    expect(healthz.value.statusCode).toBe(200);
    expect(healthz.ms).toBeLessThan(1000);
    const requests = await Promise.all(Array.from({ length: 6 }, () => timed(leads)));
    for (const { value, ms } of requests) {
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
      expect(value.statusCode).toBe(503);
      expect(value.json().error).toBe('service_unavailable');
    }

    proxy.heal();
    await until(async () => (await leads()).statusCode === 200, 5000);
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });
});
