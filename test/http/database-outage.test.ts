/**
 * PostgreSQL going away and coming back (issue "PostgreSQL and Redis", C3.5):
 * while the database cannot be reached, API requests answer 503
 * service_unavailable, /readyz says so and /healthz stays up; when it is back,
 * the same process serves again without a restart. The database is taken
 * away with a TCP proxy (refused and cut connections) and with
 * pg_terminate_backend on the server's connections.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { GENEROUS_LIMITS, createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { postgresUrl, withAdmin } from '../helpers/postgres.js';
import { hostPort, startTcpProxy, throughProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

describe.runIf(postgresUrl() !== undefined)('the database goes away and comes back (PostgreSQL)', () => {
  let base: TestApp;
  let ws: TestWorkspace;
  let proxy: TcpProxy;
  let proxied: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    base = await createTestApp('postgres');
    ws = await base.createWorkspace('Outage');
    await base.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: 'before' } });
    const { host, port } = hostPort(base.db.url, 5432);
    proxy = await startTcpProxy(host, port);
    proxied = openDatabase({ kind: 'postgres', url: throughProxy(base.db.url, proxy), poolSize: 4 });
    app = await buildApp({ config: { rateLimits: GENEROUS_LIMITS, trustProxy: false }, database: proxied });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await proxied?.close();
    await proxy?.close();
    await base?.close();
  });

  const leads = () =>
    app.inject({ method: 'GET', url: '/api/v1/leads', headers: { authorization: `Bearer ${ws.production.key}` } });

  it('answers 503 service_unavailable while the database is unreachable, and recovers by itself', async () => {
    expect((await leads()).statusCode).toBe(200);

    await proxy.cut();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await leads();
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        error: 'service_unavailable',
        message: 'The database is unreachable; try again shortly',
      });
      expect(response.headers['retry-after']).toBe('5');
    }
    const write = await app.inject({
      method: 'POST',
      url: '/api/v1/leads',
      headers: { authorization: `Bearer ${ws.production.key}` },
      payload: { code: 'during' },
    });
    expect(write.statusCode).toBe(503);
    const ready = await app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'unavailable', database: 'unreachable' });
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);

    await proxy.restore();
    const response = await leads();
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((lead: { code: string }) => lead.code)).toEqual(['before']);
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('answers 503 or 200, never 500, when its connections are terminated, and then serves again', async () => {
    expect((await leads()).statusCode).toBe(200);
    const database = new URL(base.db.url).pathname.slice(1);
    const terminated = await withAdmin(postgresUrl() as string, (client) =>
      client.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [database],
      ),
    );
    expect(terminated.rowCount).toBeGreaterThan(0);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) statuses.push((await leads()).statusCode);
    expect(statuses.every((status) => status === 200 || status === 503), String(statuses)).toBe(true);
    expect(statuses.at(-1)).toBe(200);
  });
});
