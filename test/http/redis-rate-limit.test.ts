/**
 * Rate limits shared through Redis (CONTRACT C3.3, issue "PostgreSQL and
 * Redis"): several API instances over one store and one Redis admit exactly
 * the limit per key and window together; without Redis they keep serving with
 * per-process limits, say so on /readyz, log the outage once, and share again
 * by themselves when Redis returns. Each app here has its own limiter and
 * Redis connection, as separate processes do (a test with real processes is
 * in test/multi-process).
 */
import { Redis } from 'ioredis';
import type { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { BATCH_DIVISOR, RedisRateLimiter } from '../../src/rate-limit/redis-limiter.js';
import { createTestApp, GENEROUS_LIMITS, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { redisUrl, testKeyPrefix } from '../helpers/redis.js';
import { storeKinds } from '../helpers/stores.js';
import { hostPort, startTcpProxy, throughProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

const url = redisUrl();
const BASE_MS = Date.UTC(2032, 5, 1, 0, 0, 5);

describe.runIf(url !== undefined).each(storeKinds())('rate limits through Redis on %s', (kind) => {
  const REDIS = url as string;
  let now = BASE_MS;
  const clock = () => now;
  let base: TestApp;
  let ws: TestWorkspace;
  const limiters: RedisRateLimiter[] = [];

  async function instance(limits: Partial<typeof GENEROUS_LIMITS>, prefix: string, redis = REDIS, logger?: pino.Logger) {
    const limiter = new RedisRateLimiter({ url: redis, clock, keyPrefix: prefix, logger });
    limiters.push(limiter);
    expect(await limiter.connected(5000), 'Redis must answer at TEST_REDIS_URL').toBe(true);
    const app = await buildApp({
      config: { rateLimits: { ...GENEROUS_LIMITS, ...limits }, trustProxy: false },
      database: base.db.database,
      limiter,
      logger,
    });
    await app.ready();
    return { app, limiter };
  }

  const get = (app: Awaited<ReturnType<typeof instance>>['app'], key: string) =>
    app.inject({ method: 'GET', url: '/api/v1/leads?limit=1', headers: { authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    base = await createTestApp(kind);
    ws = await base.createWorkspace('Redis limits');
  });
  afterAll(async () => {
    await Promise.all(limiters.map((limiter) => limiter.close()));
    await base?.close();
  });

  it('C3.3: the 101st request of a development key spread over two instances is 429, and the headers count globally', async () => {
    now += 60_000;
    const prefix = testKeyPrefix();
    const one = await instance({ development: 100 }, prefix);
    const two = await instance({ development: 100 }, prefix);
    for (let index = 0; index < 100; index += 1) {
      const response = await get(index % 2 === 0 ? one.app : two.app, ws.development.key);
      expect(response.statusCode, `request ${index + 1}`).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe('100');
      expect(response.headers['x-ratelimit-remaining']).toBe(String(99 - index));
    }
    for (const app of [one.app, two.app]) {
      const refused = await get(app, ws.development.key);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error).toBe('rate_limit_exceeded');
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    await Promise.all([one.app.close(), two.app.close()]);
  });

  it('C3.3: three instances hit concurrently admit exactly the limit, never more', async () => {
    now += 60_000;
    const prefix = testKeyPrefix();
    const apps = await Promise.all([1, 2, 3].map(() => instance({ development: 100 }, prefix)));
    const responses = await Promise.all(
      Array.from({ length: 160 }, (_, index) => get(apps[index % 3]!.app, ws.development.key)),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60);
    await Promise.all(apps.map(({ app }) => app.close()));
  });

  it('C3.3: large limits are reserved in batches, so Redis is not asked on every request, and never over-admit', async () => {
    now += 60_000;
    const prefix = testKeyPrefix();
    const limit = 3 * BATCH_DIVISOR;
    const apps = await Promise.all([1, 2].map(() => instance({ production: limit }, prefix)));
    const responses: number[] = [];
    for (let round = 0; round < (limit + 200) / 100; round += 1) {
      const batch = await Promise.all(
        Array.from({ length: 100 }, (_, index) => get(apps[index % 2]!.app, ws.production.key)),
      );
      responses.push(...batch.map((response) => response.statusCode));
    }
    const admitted = responses.filter((status) => status === 200).length;
    expect(admitted).toBeLessThanOrEqual(limit);
    expect(admitted).toBeGreaterThanOrEqual(limit - 2 * 2);
    const roundTrips = apps.reduce((sum, { limiter }) => sum + limiter.reservations, 0);
    expect(roundTrips).toBeLessThan(admitted);

    const big = await Promise.all([1, 2].map(() => instance({ production: 10_000_000 }, testKeyPrefix())));
    for (let index = 0; index < 400; index += 1) {
      expect((await get(big[index % 2]!.app, ws.production.key)).statusCode).toBe(200);
    }
    expect(big.reduce((sum, { limiter }) => sum + limiter.reservations, 0)).toBeLessThanOrEqual(4);
    await Promise.all([...apps, ...big].map(({ app }) => app.close()));
  });

  describe('when Redis is unreachable', () => {
    let proxy: TcpProxy;
    const { logger, lines } = capturingLogger('info');

    beforeAll(async () => {
      const { host, port } = hostPort(REDIS, 6379);
      proxy = await startTcpProxy(host, port);
    });
    afterAll(async () => proxy?.close());

    it('keeps serving with per-process limits, reports it on /readyz, logs once, and shares again when Redis returns', async () => {
      now += 60_000;
      const prefix = testKeyPrefix();
      const { app, limiter } = await instance({ development: 5 }, prefix, throughProxy(REDIS, proxy), logger);
      expect((await app.inject({ url: '/readyz' })).json().rate_limits).toBe('redis');
      expect((await get(app, ws.development.key)).statusCode).toBe(200);

      await proxy.cut();
      const during: number[] = [];
      for (let index = 0; index < 6; index += 1) during.push((await get(app, ws.development.key)).statusCode);
      expect(during).toEqual([200, 200, 200, 200, 200, 429]);
      const ready = await app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({
        status: 'ready',
        database: 'ok',
        writes: 'ok',
        rate_limits: 'redis unreachable: limits are per process',
      });
      const outageLogs = lines.filter((line) => line.includes('Redis is unreachable'));
      expect(outageLogs).toHaveLength(1);
      expect(JSON.parse(outageLogs[0]!).level).toBe(50);

      await proxy.restore();
      expect(await limiter.connected(10_000)).toBe(true);
      expect((await app.inject({ url: '/readyz' })).json().rate_limits).toBe('redis');
      now += 60_000;
      const direct = new Redis(REDIS);
      try {
        for (let index = 0; index < 3; index += 1) expect((await get(app, ws.development.key)).statusCode).toBe(200);
        const window = Math.floor(now / 60_000);
        expect(await direct.get(`${prefix}${window}:key:${ws.development.id}`)).toBe('3');
      } finally {
        direct.disconnect();
      }
      expect(lines.some((line) => line.includes('Redis is reachable again'))).toBe(true);
      await app.close();
    });
  });
});
