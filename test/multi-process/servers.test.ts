/**
 * Several real API processes over one PostgreSQL and one Redis (issue
 * "PostgreSQL and Redis", CONTRACT C2.2, C3.3): the 101st request of a
 * development key spread across two processes is 429; a key revoked through
 * the CLI fails on both at once; with Redis unreachable mid-test both keep
 * serving; and `serve --workers 2` keeps two workers serving one port.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { createServices, type Services } from '../../src/services/index.js';
import { postgresUrl } from '../helpers/postgres.js';
import {
  awayFromWindowEdge,
  runCliProcess,
  startServerProcess,
  type ServerProcess,
} from '../helpers/processes.js';
import { redisUrl } from '../helpers/redis.js';
import { createTestDatabase, type TestDatabase } from '../helpers/stores.js';
import { hostPort, startTcpProxy, throughProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

const enabled = postgresUrl() !== undefined && redisUrl() !== undefined;

describe.runIf(enabled)('two API processes over PostgreSQL and Redis', () => {
  let db: TestDatabase;
  let services: Services;
  let redisProxy: TcpProxy;
  let servers: ServerProcess[] = [];
  let workspaceId: string;
  let env: Record<string, string>;

  const get = (server: ServerProcess, key: string, path = '/api/v1/leads?limit=1') =>
    fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    services = createServices(new Store(db.database));
    workspaceId = (await services.workspaces.create('Multi-process')).id;
    const redis = redisUrl() as string;
    const { host, port } = hostPort(redis, 6379);
    redisProxy = await startTcpProxy(host, port);
    env = {
      DATABASE_URL: db.url,
      REDIS_URL: throughProxy(redis, redisProxy),
      RATE_LIMIT_DEVELOPMENT: '100',
      RATE_LIMIT_PRODUCTION: '1000',
    };
    servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await redisProxy?.close();
    await db?.destroy();
  });

  it('C3.3: the 101st request of a development key spread across both processes is 429', async () => {
    const key = await services.apiKeys.create(workspaceId, 'development', 'spread');
    await awayFromWindowEdge(20);
    const statuses: number[] = [];
    const remaining: number[] = [];
    for (let index = 0; index < 101; index += 1) {
      const response = await get(servers[index % 2]!, key.key);
      statuses.push(response.status);
      remaining.push(Number(response.headers.get('x-ratelimit-remaining')));
      await response.arrayBuffer();
    }
    expect(statuses.slice(0, 100).every((status) => status === 200)).toBe(true);
    expect(statuses[100]).toBe(429);
    expect(remaining.slice(0, 100)).toEqual(Array.from({ length: 100 }, (_, index) => 99 - index));
    const other = await get(servers[0]!, key.key);
    expect(other.status).toBe(429);
  });

  it('C2.2: a key revoked through the CLI fails on both processes on the very next request', async () => {
    const key = await services.apiKeys.create(workspaceId, 'production', 'to revoke');
    for (const server of servers) expect((await get(server, key.key)).status).toBe(200);
    const revoked = await runCliProcess(['key', 'revoke', key.id, '--json'], { DATABASE_URL: db.url });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout).id).toBe(key.id);
    for (const server of servers) {
      const response = await get(server, key.key);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'unauthorized', message: 'Invalid or missing API key' });
    }
  });

  it('C2.2: after `key rotate` the old key fails and the new one works on both processes', async () => {
    const key = await services.apiKeys.create(workspaceId, 'production', 'to rotate');
    const rotated = await runCliProcess(['key', 'rotate', key.id, '--json'], { DATABASE_URL: db.url });
    expect(rotated.code, rotated.stderr).toBe(0);
    const fresh = JSON.parse(rotated.stdout).key as string;
    for (const server of servers) {
      expect((await get(server, key.key)).status).toBe(401);
      expect((await get(server, fresh)).status).toBe(200);
    }
  });

  it('with Redis unreachable mid-test, both processes keep serving, and share limits again when it returns', async () => {
    const key = await services.apiKeys.create(workspaceId, 'production', 'outage');
    for (const server of servers) expect((await get(server, key.key)).status).toBe(200);
    await redisProxy.cut();
    for (let round = 0; round < 5; round += 1) {
      for (const server of servers) {
        const response = await get(server, key.key);
        expect(response.status).toBe(200);
        expect(response.headers.get('x-ratelimit-limit')).toBe('1000');
      }
    }
    for (const server of servers) {
      const ready = await (await fetch(`${server.url}/readyz`)).json();
      expect(ready).toEqual({
        status: 'ready',
        database: 'ok',
        writes: 'ok',
        rate_limits: 'redis unreachable: limits are per process',
      });
    }
    await redisProxy.restore();
    for (const server of servers) {
      const deadline = Date.now() + 15_000;
      let state = '';
      while (Date.now() < deadline) {
        state = ((await (await fetch(`${server.url}/readyz`)).json()) as { rate_limits: string }).rate_limits;
        if (state === 'redis') break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(state).toBe('redis');
      expect((await get(server, key.key)).status).toBe(200);
    }
  });

  it('serve --workers 2 serves one port from two workers, replaces a dead worker and stops cleanly', async () => {
    const key = await services.apiKeys.create(workspaceId, 'production', 'workers');
    // at info, each worker logs the line that says it listens, with its pid
    const primary = await startServerProcess({ ...env, LOG_LEVEL: 'info' }, ['--workers', '2']);
    // a new connection per request: a kept-alive one would belong to the killed worker
    const status = (path = '/api/v1/leads?limit=1') =>
      new Promise<number>((resolve, reject) => {
        http
          .get(
            `${primary.url}${path}`,
            { agent: false, timeout: 5000, headers: { authorization: `Bearer ${key.key}` } },
            (response) => {
              response.resume();
              resolve(response.statusCode ?? 0);
            },
          )
          .on('timeout', () => reject(new Error('request timed out')))
          .on('error', reject);
      });
    try {
      const children = async () => {
        const { execFileSync } = await import('node:child_process');
        const out = execFileSync('pgrep', ['-P', String(primary.child.pid)], { encoding: 'utf8' }).trim();
        return out === '' ? [] : out.split('\n').map(Number);
      };
      /** Workers that said they listen (their pino line carries their pid) and are alive. */
      const listening = async () => {
        const said = new Set<number>();
        for (const line of primary.output().split('\n')) {
          if (!line.includes('Server listening')) continue;
          try {
            said.add((JSON.parse(line) as { pid: number }).pid);
          } catch {
            // a line that is not a whole JSON document
          }
        }
        const alive = await children().catch(() => [] as number[]);
        return alive.filter((pid) => said.has(pid));
      };
      const waitForWorkers = async (count: number) => {
        const deadline = Date.now() + 30_000;
        let pids: number[] = [];
        while (Date.now() < deadline) {
          pids = await listening();
          if (pids.length === count && (await status().catch(() => 0)) === 200) return pids;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        throw new Error(`expected ${count} listening workers, saw ${pids.length}: ${primary.output()}`);
      };
      const before = await waitForWorkers(2);
      process.kill(before[0]!, 'SIGKILL');
      // Once the primary has seen the exit it no longer hands connections to
      // that worker (one handed over in the instant before is lost, as with
      // any crash); from then on every request is served.
      const deadline = Date.now() + 10_000;
      while (!primary.output().includes('worker exited; starting another') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      for (let index = 0; index < 10; index += 1) expect(await status()).toBe(200);
      const after = await waitForWorkers(2);
      expect(after).not.toContain(before[0]);
    } finally {
      expect(await primary.stop('SIGTERM'), primary.output()).toBe(0);
    }
  }, 90_000);
});
