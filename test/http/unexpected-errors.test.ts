/**
 * Faults and answers (CONTRACT C3.5): an unexpected error is answered with a
 * bare 500 in the contract's shape and logged with its stack; the errors
 * that are answers (401, 404, 400) are made without a stack for speed, and
 * making them must not take stacks away from anything else in the process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { MemoryRateLimiter } from '../../src/rate-limit/memory-limiter.js';
import type { RateLimitDecision } from '../../src/rate-limit/rate-limiter.js';
import { Store } from '../../src/repositories/index.js';
import { createServices } from '../../src/services/index.js';
import { GENEROUS_LIMITS } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { createTestDatabase, type TestDatabase } from '../helpers/stores.js';

/** The per-process limiter, except that it fails for the buckets it is told to. */
class FailingLimiter extends MemoryRateLimiter {
  readonly failing = new Set<string>();

  override consume(bucket: string, limit: number): Promise<RateLimitDecision> {
    if (this.failing.has(bucket)) return Promise.reject(new Error('limiter exploded at /var/lib/secret.db'));
    return super.consume(bucket, limit);
  }

  // the gate asks an in-memory limiter at once (issue 24): it fails there alike
  override consumeNow(bucket: string, limit: number): RateLimitDecision {
    if (this.failing.has(bucket)) throw new Error('limiter exploded at /var/lib/secret.db');
    return super.consumeNow(bucket, limit);
  }
}

describe('unexpected errors and the errors that are answers (SQLite)', () => {
  let db: TestDatabase;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let key: string;
  let keyId: string;
  const limiter = new FailingLimiter();
  const { logger, lines } = capturingLogger('warn');

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    const services = createServices(new Store(db.database));
    const workspace = await services.workspaces.create('Faults');
    const created = await services.apiKeys.create(workspace.id, 'production', 'faults');
    key = created.key;
    keyId = created.id;
    app = await buildApp({
      config: { rateLimits: GENEROUS_LIMITS, trustProxy: false },
      database: db.database,
      limiter,
      logger,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.destroy();
  });

  type LogEntry = { msg: string; err?: { message: string; stack: string } };
  const failures = () =>
    lines.map((line) => JSON.parse(line) as LogEntry).filter((entry) => entry.msg === 'request failed');

  async function fault() {
    limiter.failing.add(`key:${keyId}`);
    try {
      return await app.inject({ url: '/api/v1/leads', headers: { authorization: `Bearer ${key}` } });
    } finally {
      limiter.failing.delete(`key:${keyId}`);
    }
  }

  it('answers an unexpected error with a bare 500 and logs it with its stack (C3.5)', async () => {
    const response = await fault();
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'internal_error', message: 'Internal server error' });
    expect(response.body).not.toMatch(/exploded|secret|\bat\b/);
    const logged = failures().at(-1);
    expect(logged?.err?.message).toBe('limiter exploded at /var/lib/secret.db');
    expect(logged?.err?.stack).toMatch(/\n\s+at .*unexpected-errors\.test\.ts/);
  });

  it('answers 401, 404 and 400 in the contract shape, and leaves stacks to everything else', async () => {
    const limit = Error.stackTraceLimit;
    const unauthorized = await app.inject({
      url: '/api/v1/leads',
      headers: { authorization: 'Bearer ll_prod_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    });
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.json()).toEqual({ error: 'unauthorized', message: 'Invalid or missing API key' });
    const missing = await app.inject({
      url: '/api/v1/leads/0190a1b2-0000-7000-8000-000000000000',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('not_found');
    const invalid = await app.inject({ url: '/api/v1/leads?limit=0', headers: { authorization: `Bearer ${key}` } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error).toBe('invalid_request');

    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('after answers').stack).toMatch(/\n\s+at /);
    const before = failures().length;
    expect((await fault()).statusCode).toBe(500);
    expect(failures()).toHaveLength(before + 1);
    expect(failures().at(-1)?.err?.stack).toMatch(/\n\s+at .*unexpected-errors\.test\.ts/);
  });
});
