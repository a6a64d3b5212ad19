/**
 * Admission control (issue 9, item 2), in-process and deterministic: slots
 * are held by a throwaway route until the test lets them go. A bounded
 * number of requests work at once; the waiting room is bounded per
 * workspace and in all; a freed slot goes to workspaces in turn, so a
 * flood of one workspace cannot starve another's writes; waiting too long
 * answers 503; a saturated event loop sheds requests with 503; the probes
 * are never held. A key refused by its rate limit is not looked up again.
 */
import type { FastifyInstance, FastifyPluginAsync, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { DEFAULT_ADMISSION, type AdmissionConfig } from '../../src/config.js';
import { GENEROUS_LIMITS, GENEROUS_TRACKING, createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { awayFromWindowEdge } from '../helpers/processes.js';

const holders: Array<() => void> = [];
/** requests that got a slot and entered the route */
let entered = 0;
const holdRoute: FastifyPluginAsync = async (api) => {
  api.get('/test/hold', async () => {
    entered += 1;
    await new Promise<void>((resolve) => holders.push(resolve));
    return { held: true };
  });
};

async function settle(): Promise<void> {
  for (let index = 0; index < 20; index += 1) await new Promise((resolve) => setImmediate(resolve));
}

async function until(check: () => boolean, withinMs = 3000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > withinMs) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function expectOverloaded(response: LightMyRequestResponse): void {
  expect(response.statusCode).toBe(503);
  expect(response.json()).toEqual({ error: 'service_unavailable', message: expect.stringMatching(/overloaded/) });
  expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

describe('admission control', () => {
  let t: TestApp;
  let a: TestWorkspace;
  let b: TestWorkspace;
  const apps: FastifyInstance[] = [];

  async function appWith(admission: Partial<AdmissionConfig>, limits = GENEROUS_LIMITS): Promise<FastifyInstance> {
    const app = await buildApp({
      config: {
        rateLimits: limits,
        trustProxy: false,
        tracking: GENEROUS_TRACKING,
        admission: { ...DEFAULT_ADMISSION, maxEventLoopDelayMs: 0, maxEventLoopUtilization: 0, ...admission },
      },
      database: t.db.database,
      extraRoutes: holdRoute,
    });
    await app.ready();
    apps.push(app);
    return app;
  }

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    a = await t.createWorkspace('Flood');
    b = await t.createWorkspace('Light writer');
  });
  afterEach(() => {
    while (holders.length > 0) holders.shift()?.();
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await t?.close();
  });

  const hold = (app: FastifyInstance, ws: TestWorkspace) =>
    app.inject({ method: 'GET', url: '/api/v1/test/hold', headers: { authorization: `Bearer ${ws.production.key}` } });

  it('issue 9: a flood of one workspace is bounded and cannot starve another workspace\'s write; /healthz is never held', async () => {
    const app = await appWith({ maxInFlight: 2, maxQueued: 6, queueTimeoutMs: 10_000 });
    entered = 0;
    const running = [hold(app, a), hold(app, a)];
    await until(() => holders.length === 2);
    const queued = [hold(app, a), hold(app, a), hold(app, a)];
    await until(() => app.fairGate.queued === 3);
    // a workspace fills at most half the waiting room
    expectOverloaded(await hold(app, a));

    const write = app.inject({
      method: 'POST',
      url: '/api/v1/leads',
      headers: { authorization: `Bearer ${b.production.key}` },
      payload: { code: 'light-writer' },
    });
    await until(() => app.fairGate.queued === 4);
    // the probes answer while every slot is taken
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);

    // two slots free up: one goes to the flood, the next to the other workspace, ahead of the flood's queue
    holders.shift()?.();
    holders.shift()?.();
    const written = await write;
    expect(written.statusCode).toBe(201);
    // served before the flood's queue ran out: at most one more of the flood's requests went first
    expect(entered).toBeLessThan(5);
    expect(app.fairGate.queued + holders.length).toBeGreaterThan(0);
    while (holders.length > 0 || app.fairGate.queued > 0 || app.fairGate.inFlight > 0) {
      holders.shift()?.();
      await settle();
    }
    const statuses = (await Promise.all([...running, ...queued])).map((response) => response.statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
  });

  it('issue 9: a full waiting room and a wait past QUEUE_TIMEOUT_MS answer 503 with Retry-After in the error shape', async () => {
    const app = await appWith({ maxInFlight: 1, maxQueued: 2, queueTimeoutMs: 300 });
    const running = hold(app, a);
    await until(() => holders.length === 1);
    const waiting = hold(app, b);
    const other = hold(app, a);
    await until(() => app.fairGate.queued === 2);
    expectOverloaded(await hold(app, b));
    const started = Date.now();
    expectOverloaded(await waiting);
    expect(Date.now() - started).toBeLessThan(3000);
    expectOverloaded(await other);
    holders.shift()?.();
    expect((await running).statusCode).toBe(200);
    expect(app.fairGate.inFlight).toBe(0);
  });

  it('issue 9: a saturated event loop sheds API requests with 503 and Retry-After, while /healthz answers', async () => {
    const app = await appWith({ maxEventLoopDelayMs: 100 });
    const get = () => app.inject({ url: '/api/v1/leads?limit=1', headers: { authorization: `Bearer ${a.production.key}` } });
    expect((await get()).statusCode).toBe(200);
    // past the start's warm-up, during which nothing is shed
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await get()).statusCode).toBe(200);
    // the event loop is held, as by a flood of synchronous work: blocks of
    // 200 ms with only a turn between them, long enough for several samples
    // (under-pressure averages the delays it saw since its last sample, so
    // one long block alone can be diluted by the quiet ticks before it)
    const floodUntil = Date.now() + 1600;
    while (Date.now() < floodUntil) {
      const blockUntil = Date.now() + 200;
      while (Date.now() < blockUntil) {
        // busy
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    expectOverloaded(await get());
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    // shedding stops once the loop is free again
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect((await get()).statusCode).toBe(200);
  });

  it('issue 9: a key refused by its rate limit is answered 429 without a database lookup each time', async () => {
    await awayFromWindowEdge(10);
    const app = await appWith({}, { ...GENEROUS_LIMITS, development: 3 });
    const lookups = async () => {
      const text = (await app.inject({ url: '/metrics' })).body;
      return Number(/^leadlight_api_key_lookups_total (\d+)/m.exec(text)?.[1]);
    };
    const get = () => app.inject({ url: '/api/v1/leads?limit=1', headers: { authorization: `Bearer ${b.development.key}` } });
    for (let index = 0; index < 3; index += 1) expect((await get()).statusCode).toBe(200);
    const refused: LightMyRequestResponse[] = [];
    for (let index = 0; index < 30; index += 1) refused.push(await get());
    for (const response of refused) {
      expect(response.statusCode).toBe(429);
      expect(response.json().error).toBe('rate_limit_exceeded');
      expect(response.headers['x-workspace-id']).toBe(b.id);
      expect(response.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    // three admitted, one refused after its lookup; the other 29 refusals cost none
    expect(await lookups()).toBe(4);
  });
});
