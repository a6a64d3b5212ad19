/**
 * Redis stalling and healing (issue 9, item 4): the path to Redis goes
 * silent (nothing closed, nothing answered), so commands time out; the API
 * keeps serving with per-process limits and says so on /readyz. When the
 * path heals, limits are shared through Redis again within seconds, as they
 * are after a cut connection. The stall is made with a TCP proxy; short
 * command timeouts and probe intervals are configured.
 */
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { RedisRateLimiter } from '../../src/rate-limit/redis-limiter.js';
import { GENEROUS_LIMITS, createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { redisUrl, testKeyPrefix } from '../helpers/redis.js';
import { hostPort, startTcpProxy, throughProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

const url = redisUrl();

describe.runIf(url !== undefined)('Redis stalls and heals', () => {
  const REDIS = url as string;
  let base: TestApp;
  let ws: TestWorkspace;
  let proxy: TcpProxy;
  let limiter: RedisRateLimiter;
  let app: FastifyInstance;
  const prefix = testKeyPrefix();
  const { logger, lines } = capturingLogger('info');

  beforeAll(async () => {
    base = await createTestApp('sqlite');
    ws = await base.createWorkspace('Redis stall');
    const { host, port } = hostPort(REDIS, 6379);
    proxy = await startTcpProxy(host, port);
    limiter = new RedisRateLimiter({
      url: throughProxy(REDIS, proxy),
      keyPrefix: prefix,
      logger,
      commandTimeoutMs: 300,
      probeIntervalMs: 200,
    });
    expect(await limiter.connected(5000)).toBe(true);
    app = await buildApp({
      config: { rateLimits: { ...GENEROUS_LIMITS, development: 50 }, trustProxy: false },
      database: base.db.database,
      limiter,
      logger,
    });
    await app.ready();
  });
  afterAll(async () => {
    proxy?.heal();
    await app?.close();
    await proxy?.close();
    await base?.close();
  });

  const get = () =>
    app.inject({ method: 'GET', url: '/api/v1/leads?limit=1', headers: { authorization: `Bearer ${ws.development.key}` } });
  const rateLimits = async () => (await app.inject({ url: '/readyz' })).json().rate_limits as string;

  async function until(check: () => Promise<boolean>, withinMs: number): Promise<number> {
    const started = performance.now();
    for (;;) {
      if (await check()) return performance.now() - started;
      if (performance.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  for (const newConnections of [false, true]) {
    it(`issue 9: after a stall (${newConnections ? 'the whole path silent' : 'the open connection silent'}) limits are shared through Redis again once it heals`, async () => {
      expect(await rateLimits()).toBe('redis');
      proxy.stall({ newConnections });
      // a request during the stall is answered (per-process limits), not refused or hung
      const during = await get();
      expect(during.statusCode).toBe(200);
      expect(await rateLimits()).toBe('redis unreachable: limits are per process');
      expect(lines.filter((line) => line.includes('Redis is unreachable')).length).toBeGreaterThan(0);

      proxy.heal();
      await until(async () => (await rateLimits()) === 'redis', 5000);

      // requests are counted in Redis again
      const window = Math.floor(Date.now() / 60_000);
      const direct = new Redis(REDIS);
      try {
        const before = Number((await direct.get(`${prefix}${window}:key:${ws.development.id}`)) ?? '0');
        for (let index = 0; index < 3; index += 1) expect((await get()).statusCode).toBe(200);
        const after = Number(await direct.get(`${prefix}${window}:key:${ws.development.id}`));
        if (Math.floor(Date.now() / 60_000) === window) expect(after - before).toBe(3);
      } finally {
        direct.disconnect();
      }
      expect(lines.some((line) => line.includes('Redis is reachable again'))).toBe(true);
    });
  }
});
