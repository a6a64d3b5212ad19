/**
 * Rate limits with the in-memory limiter (CONTRACT C3.3): fixed 60-second
 * windows per key sized by key type, per client address for requests without a
 * valid key, the X-RateLimit-* and IETF draft headers on every response, and
 * 429 with Retry-After. A controllable clock keeps every test inside one window
 * until the test itself moves it.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';

const DEFAULT_LIMITS = { production: 1000, development: 100, unauthenticated: 60 };
const BASE_MS = Date.UTC(2031, 0, 1);

interface RateHeaders {
  limit: number;
  remaining: number;
  reset: number;
}

function integerHeader(response: LightMyRequestResponse, name: string): number {
  const value = String(response.headers[name]);
  expect(value, name).toMatch(/^\d+$/);
  return Number(value);
}

function rateHeaders(response: LightMyRequestResponse): RateHeaders {
  return {
    limit: integerHeader(response, 'x-ratelimit-limit'),
    remaining: integerHeader(response, 'x-ratelimit-remaining'),
    reset: integerHeader(response, 'x-ratelimit-reset'),
  };
}

/** `"name";a=1;b=2` (draft-ietf-httpapi-ratelimit-headers) as its name and integer parameters. */
function structuredItem(value: unknown): { name: string; params: Record<string, number> } {
  const text = String(value);
  const match = /^"([^"]*)"((?:;[a-z]+=\d+)+)$/.exec(text);
  expect(match, text).not.toBeNull();
  const params: Record<string, number> = {};
  for (const part of match![2]!.split(';').slice(1)) {
    const [key, number] = part.split('=');
    params[key!] = Number(number);
  }
  return { name: match![1]!, params };
}

describe.each(storeKinds())('rate limits on %s', (kind) => {
  let now = BASE_MS;
  const clock = () => now;
  let t: TestApp;
  let small: TestApp;
  let proxied: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind, { limits: DEFAULT_LIMITS, clock });
    small = await createTestApp(kind, { db: t.db, clock, limits: { ...DEFAULT_LIMITS, unauthenticated: 5 } });
    proxied = await createTestApp(kind, {
      db: t.db,
      clock,
      trustProxy: true,
      limits: { ...DEFAULT_LIMITS, unauthenticated: 5 },
    });
  });
  afterAll(async () => {
    await proxied?.close();
    await small?.close();
    await t?.close();
  });
  // Ten minutes on and 5.5 s into a minute for every test: no counter carries over.
  beforeEach(() => {
    now = Math.floor(now / 60_000) * 60_000 + 600_000 + 5_500;
  });

  const withKey = (key: string, app = t, url = '/api/v1/leads') =>
    app.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  const anonymous = (remoteAddress: string, app = small, headers: Record<string, string> = {}) =>
    app.app.inject({ method: 'GET', url: '/api/v1/leads', remoteAddress, headers });

  /** the seconds a client must wait from now until `reset` */
  const secondsUntil = (reset: number) => Math.ceil(reset - now / 1000);

  function expectWindowReset(headers: RateHeaders): void {
    expect(headers.reset).toBeGreaterThan(now / 1000);
    expect(headers.reset).toBeLessThanOrEqual(Math.ceil(now / 1000) + 60);
  }

  function expectTooMany(response: LightMyRequestResponse, limit: number, reset: number): number {
    expect(response.statusCode).toBe(429);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = response.json();
    expect(body).toEqual({
      error: 'rate_limit_exceeded',
      message: expect.any(String),
      details: expect.objectContaining({ retry_after: expect.any(Number) }),
    });
    const retryAfter = integerHeader(response, 'retry-after');
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(body.details.retry_after).toBe(retryAfter);
    expect(retryAfter).toBe(Math.max(1, secondsUntil(reset)));
    expect(rateHeaders(response)).toEqual({ limit, remaining: 0, reset });
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
    return retryAfter;
  }

  function expectDraftHeaders(response: LightMyRequestResponse): void {
    const { limit, remaining, reset } = rateHeaders(response);
    const policy = structuredItem(response.headers['ratelimit-policy']);
    const current = structuredItem(response.headers.ratelimit);
    expect(current.name).toBe(policy.name);
    expect(policy.params.q).toBe(limit);
    expect(policy.params.w).toBe(60);
    expect(current.params.r).toBe(remaining);
    expect(current.params.t).toBe(secondsUntil(reset));
  }

  async function exhaust(key: string, limit: number, app = t): Promise<number> {
    let reset = 0;
    for (let index = 1; index <= limit; index += 1) {
      const response = await withKey(key, app);
      expect(response.statusCode, `request ${index}`).toBe(200);
      const headers = rateHeaders(response);
      if (index === 1) reset = headers.reset;
      expect(headers, `request ${index}`).toEqual({ limit, remaining: limit - index, reset });
    }
    return reset;
  }

  describe('C3.3: per key', () => {
    let ws: TestWorkspace;
    beforeEach(async () => {
      ws = await t.createWorkspace();
    });

    it('admits 100 requests of a development key in a window, counting Remaining down, then answers 429 with Retry-After', async () => {
      const reset = await exhaust(ws.development.key, 100);
      expectWindowReset({ limit: 100, remaining: 0, reset });
      for (let extra = 0; extra < 3; extra += 1) {
        const response = await withKey(ws.development.key);
        expectTooMany(response, 100, reset);
        expectDraftHeaders(response);
      }
    });

    it('a 429 for a key still carries X-Workspace-Id, whichever header carried the key', async () => {
      await exhaust(ws.development.key, 100);
      const bearer = await withKey(ws.development.key);
      expect(bearer.statusCode).toBe(429);
      expect(bearer.headers['x-workspace-id']).toBe(ws.id);
      const header = await t.app.inject({ method: 'GET', url: '/api/v1/leads', headers: { 'x-api-key': ws.development.key } });
      expect(header.statusCode).toBe(429);
      expect(header.headers['x-workspace-id']).toBe(ws.id);
    });

    it('a key over its limit gets 429 whatever it asks: unknown path, bad body, another endpoint', async () => {
      const reset = await exhaust(ws.development.key, 100);
      const auth = { authorization: `Bearer ${ws.development.key}` };
      const requests = [
        { method: 'GET' as const, url: '/api/v1/nothing-here', headers: auth },
        { method: 'POST' as const, url: '/api/v1/leads', headers: { ...auth, 'content-type': 'application/json' }, payload: '{"code":' },
        { method: 'GET' as const, url: '/api/v1/users', headers: auth },
      ];
      for (const request of requests) expectTooMany(await t.app.inject(request), 100, reset);
      expect((await t.as(ws, { method: 'GET', url: '/api/v1/leads' })).json().pagination.total).toBe(0);
    });

    it('a production key of the same workspace has its own counter sized 1000', async () => {
      const devReset = await exhaust(ws.development.key, 100);
      expect((await withKey(ws.development.key)).statusCode).toBe(429);
      const reset = await exhaust(ws.production.key, 1000);
      expect(reset).toBe(devReset);
      const over = await withKey(ws.production.key);
      expectTooMany(over, 1000, reset);
      expectDraftHeaders(over);
      expect(over.headers['x-workspace-id']).toBe(ws.id);
      expect((await withKey(ws.development.key)).statusCode).toBe(429);
    });

    it('two keys never share a counter, in one workspace or in two', async () => {
      const second = await t.services.apiKeys.create(ws.id, 'development', 'second');
      const elsewhere = await t.createWorkspace();
      await exhaust(ws.development.key, 100);
      expect((await withKey(ws.development.key)).statusCode).toBe(429);
      for (let index = 1; index <= 3; index += 1) {
        const mine = await withKey(second.key);
        const theirs = await withKey(elsewhere.development.key);
        expect(mine.statusCode).toBe(200);
        expect(theirs.statusCode).toBe(200);
        expect(rateHeaders(mine).remaining).toBe(100 - index);
        expect(rateHeaders(theirs).remaining).toBe(100 - index);
      }
      expect(rateHeaders(await withKey(ws.production.key)).remaining).toBe(999);
    });

    it('Retry-After counts down within the window and the key is admitted again, with Remaining reset, when the window ends', async () => {
      const reset = await exhaust(ws.development.key, 100);
      now += 20_000;
      const later = await withKey(ws.development.key);
      expect(expectTooMany(later, 100, reset)).toBe(secondsUntil(reset));

      now = reset * 1000 - 1;
      expect(expectTooMany(await withKey(ws.development.key), 100, reset)).toBe(1);

      now = reset * 1000;
      const next = await withKey(ws.development.key);
      expect(next.statusCode).toBe(200);
      expect(rateHeaders(next)).toEqual({ limit: 100, remaining: 99, reset: reset + 60 });
      expectDraftHeaders(next);
      expect(rateHeaders(await withKey(ws.development.key)).remaining).toBe(98);
    });

    it('sends the X-RateLimit and draft headers on every response, errors included, with the same Reset in a window', async () => {
      const auth = { authorization: `Bearer ${ws.production.key}` };
      const responses = [
        await t.app.inject({ method: 'GET', url: '/api/v1/leads', headers: auth }),
        await t.app.inject({ method: 'POST', url: '/api/v1/leads', headers: auth, payload: {} }),
        await t.app.inject({ method: 'GET', url: '/api/v1/leads?limit=0', headers: auth }),
        await t.app.inject({ method: 'GET', url: '/api/v1/leads/00000000-0000-4000-8000-000000000000', headers: auth }),
        await t.app.inject({ method: 'DELETE', url: '/api/v1/leads', headers: auth }),
        await t.app.inject({ method: 'GET', url: '/api/v1/unknown', headers: auth }),
      ];
      expect(responses.map((response) => response.statusCode)).toEqual([200, 201, 400, 404, 405, 404]);
      const reset = rateHeaders(responses[0]!).reset;
      expectWindowReset({ limit: 1000, remaining: 0, reset });
      responses.forEach((response, index) => {
        expect(rateHeaders(response)).toEqual({ limit: 1000, remaining: 999 - index, reset });
        expectDraftHeaders(response);
      });
    });
  });

  describe('C3.3: requests without a valid key, per client address', () => {
    it('the 6th refused request from one address is 429 with the rate-limit headers; another address still gets 401', async () => {
      const ws = await small.createWorkspace();
      const revoked = await small.services.apiKeys.create(ws.id, 'production', 'revoked');
      await small.services.apiKeys.revoke(revoked.id);
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer ll_prod_guess' },
        { 'x-api-key': `ll_dev_${'a'.repeat(40)}` },
        { authorization: `Bearer ${revoked.key}` },
        { authorization: 'Basic Zm9vOmJhcg==' },
      ];
      let reset = 0;
      for (const [index, headers] of attempts.entries()) {
        const response = await anonymous('10.1.1.1', small, headers);
        expect(response.statusCode).toBe(401);
        expect(response.json().error).toBe('unauthorized');
        const limits = rateHeaders(response);
        if (index === 0) reset = limits.reset;
        expect(limits).toEqual({ limit: 5, remaining: 4 - index, reset });
        expectDraftHeaders(response);
      }
      expectWindowReset({ limit: 5, remaining: 0, reset });

      const limited = await anonymous('10.1.1.1', small, { authorization: 'Bearer ll_prod_guess' });
      expectTooMany(limited, 5, reset);
      expectDraftHeaders(limited);
      expect(limited.headers['x-workspace-id']).toBeUndefined();
      const unknownPath = await small.app.inject({ method: 'GET', url: '/api/v1/nowhere', remoteAddress: '10.1.1.1' });
      expectTooMany(unknownPath, 5, reset);

      const other = await anonymous('10.1.1.2');
      expect(other.statusCode).toBe(401);
      expect(rateHeaders(other)).toEqual({ limit: 5, remaining: 4, reset });
    });

    it('a valid key from a limited address still works, under its own per-key limit', async () => {
      const ws = await small.createWorkspace();
      for (let index = 0; index < 5; index += 1) expect((await anonymous('10.4.4.4')).statusCode).toBe(401);
      expect((await anonymous('10.4.4.4')).statusCode).toBe(429);
      for (const [key, limit] of [
        [ws.production.key, 1000],
        [ws.development.key, 100],
      ] as const) {
        const response = await small.app.inject({
          method: 'GET',
          url: '/api/v1/leads',
          remoteAddress: '10.4.4.4',
          headers: { authorization: `Bearer ${key}` },
        });
        expect(response.statusCode).toBe(200);
        expect(rateHeaders(response)).toMatchObject({ limit, remaining: limit - 1 });
        expect(response.headers['x-workspace-id']).toBe(ws.id);
      }
    });

    it('requests with a valid key do not use up the address allowance', async () => {
      const ws = await small.createWorkspace();
      for (let index = 0; index < 8; index += 1) {
        const response = await small.app.inject({
          method: 'GET',
          url: '/api/v1/leads',
          remoteAddress: '10.5.5.5',
          headers: { authorization: `Bearer ${ws.production.key}` },
        });
        expect(response.statusCode).toBe(200);
      }
      const refused = await anonymous('10.5.5.5');
      expect(refused.statusCode).toBe(401);
      expect(rateHeaders(refused).remaining).toBe(4);
    });

    it('the address limit resets when its window ends', async () => {
      for (let index = 0; index < 5; index += 1) expect((await anonymous('10.6.6.6')).statusCode).toBe(401);
      const limited = await anonymous('10.6.6.6');
      expect(limited.statusCode).toBe(429);
      const reset = rateHeaders(limited).reset;
      now = reset * 1000;
      const again = await anonymous('10.6.6.6');
      expect(again.statusCode).toBe(401);
      expect(rateHeaders(again)).toEqual({ limit: 5, remaining: 4, reset: reset + 60 });
    });

    it('requests to a percent-encoded /api/v1 path are limited by the same address counter', async () => {
      for (let index = 0; index < 3; index += 1) expect((await anonymous('10.7.7.7')).statusCode).toBe(401);
      for (let index = 0; index < 2; index += 1) {
        const encoded = await small.app.inject({ method: 'GET', url: '/%61pi/v1/leads', remoteAddress: '10.7.7.7' });
        expect(encoded.statusCode).toBe(401);
        expect(rateHeaders(encoded).remaining).toBe(1 - index);
      }
      const limited = await small.app.inject({ method: 'GET', url: '/%61pi/v1/leads', remoteAddress: '10.7.7.7' });
      expect(limited.statusCode).toBe(429);
    });

    it('the API description (served without a key) counts against the address limit like any keyless request', async () => {
      for (let index = 0; index < 5; index += 1) {
        const response = await small.app.inject({ method: 'GET', url: '/api/v1/openapi.json', remoteAddress: '10.8.8.8' });
        expect(response.statusCode).toBe(200);
        expect(rateHeaders(response).remaining).toBe(4 - index);
      }
      const limited = await small.app.inject({ method: 'GET', url: '/api/v1/openapi.json', remoteAddress: '10.8.8.8' });
      expectTooMany(limited, 5, rateHeaders(limited).reset);
      expect((await anonymous('10.8.8.8')).statusCode).toBe(429);
    });

    it('without trustProxy, X-Forwarded-For is ignored: the connection address is limited', async () => {
      for (let index = 0; index < 5; index += 1) {
        const response = await anonymous('10.2.2.2', small, { 'x-forwarded-for': `198.51.100.${index}` });
        expect(response.statusCode).toBe(401);
      }
      const limited = await anonymous('10.2.2.2', small, { 'x-forwarded-for': '198.51.100.99' });
      expect(limited.statusCode).toBe(429);
    });

    it('with trustProxy, the address comes from X-Forwarded-For', async () => {
      for (let index = 0; index < 5; index += 1) {
        const response = await anonymous('10.3.3.3', proxied, { 'x-forwarded-for': '203.0.113.7' });
        expect(response.statusCode).toBe(401);
        expect(rateHeaders(response).remaining).toBe(4 - index);
      }
      const limited = await anonymous('10.3.3.3', proxied, { 'x-forwarded-for': '203.0.113.7' });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toBe('rate_limit_exceeded');

      const otherClient = await anonymous('10.3.3.3', proxied, { 'x-forwarded-for': '203.0.113.8' });
      expect(otherClient.statusCode).toBe(401);
      expect(rateHeaders(otherClient).remaining).toBe(4);
      const sameClientOtherProxy = await anonymous('10.9.9.9', proxied, { 'x-forwarded-for': '203.0.113.7' });
      expect(sameClientOtherProxy.statusCode).toBe(429);
    });
  });
});
