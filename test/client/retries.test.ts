/**
 * The client's retries against a real server, on both stores: a 429 waited
 * out for its Retry-After (a small rate limit, the server's clock moved to
 * the next window once the 429 is seen), a 503 and a connection that never
 * answers retried with backoff, and a POST whose connection is dropped after
 * the server received it retried with the same Idempotency-Key, creating
 * exactly one lead (CONTRACT C3.3, C8.2). Faults come from a node:net proxy
 * in front of the server (helpers/fault-proxy.ts).
 */
import net from 'node:net';
import { createClient, LeadlightConnectionError, LeadlightError, type RetryEvent } from '@leadlight/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { storeKinds } from '../helpers/stores.js';

const WINDOW_MS = 60_000;

/** A fetch that records what each attempt sent and what came back. */
function recordingFetch() {
  const attempts: { method: string; url: string; idempotencyKey: string | null; status: number | 'no answer' }[] = [];
  const fetchImpl = async (request: Request) => {
    const entry = { method: request.method, url: request.url, idempotencyKey: request.headers.get('idempotency-key'), status: 'no answer' as number | 'no answer' };
    attempts.push(entry);
    const response = await fetch(request);
    entry.status = response.status;
    return response;
  };
  return { attempts, fetchImpl };
}

describe.each(storeKinds())('@leadlight/client retries on %s', (kind) => {
  describe('C3.3: a 429 is retried after its Retry-After', () => {
    let t: TestApp;
    let base: string;
    let workspace: TestWorkspace;
    // one second before the end of a rate-limit window; moved to the next window when the 429 is seen
    let now = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS + WINDOW_MS - 1_000;

    beforeAll(async () => {
      t = await createTestApp(kind, { limits: { production: 2, development: 2 }, clock: () => now });
      base = await t.listen();
      workspace = await t.createWorkspace();
    });
    afterAll(async () => t?.close());

    it('waits the Retry-After the 429 asks for, then succeeds, and sends a POST with one Idempotency-Key throughout', async () => {
      const { attempts, fetchImpl } = recordingFetch();
      const retries: RetryEvent[] = [];
      const client = createClient({
        baseUrl: base,
        apiKey: workspace.production.key,
        fetch: async (request) => {
          const response = await fetchImpl(request);
          if (response.status === 429) now += WINDOW_MS;
          return response;
        },
        onRetry: (retry) => retries.push(retry),
      });
      await client.leads.list();
      await client.leads.list();
      const started = performance.now();
      const lead = await client.leads.create({ code: 'after-429' });
      const waited = performance.now() - started;

      expect(attempts.map((attempt) => attempt.status)).toEqual([200, 200, 429, 201]);
      expect(retries).toHaveLength(1);
      expect(retries[0]).toMatchObject({ status: 429, attempt: 1, method: 'POST' });
      // Retry-After: 1 (second) was honoured
      expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(1_000);
      expect(waited).toBeGreaterThanOrEqual(1_000);
      const keys = attempts.filter((attempt) => attempt.method === 'POST').map((attempt) => attempt.idempotencyKey);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys).toEqual([keys[0], keys[0]]);
      expect(await client.leads.get(lead.id)).toEqual(lead);
    });

    it('gives up with the 429 as a LeadlightError when retries are off, and never waits longer than maxRetryAfterMs', async () => {
      now = Math.floor(now / WINDOW_MS) * WINDOW_MS + 10_000;
      const noRetries = createClient({ baseUrl: base, apiKey: workspace.development.key, retries: 0 });
      const impatient = createClient({ baseUrl: base, apiKey: workspace.development.key, maxRetryAfterMs: 5_000 });
      await noRetries.leads.list();
      await noRetries.leads.list();
      const refused = await noRetries.leads.list().then(() => undefined, (error: unknown) => error as LeadlightError);
      expect(refused).toBeInstanceOf(LeadlightError);
      expect(refused).toMatchObject({ code: 'rate_limit_exceeded', status: 429, details: { retry_after: 50 } });
      const started = performance.now();
      await expect(impatient.leads.list()).rejects.toMatchObject({ code: 'rate_limit_exceeded' });
      expect(performance.now() - started).toBeLessThan(2_000);
    });
  });

  describe('503, no answer, and a POST whose connection drops', () => {
    let t: TestApp;
    let base: string;
    let workspace: TestWorkspace;

    beforeAll(async () => {
      t = await createTestApp(kind);
      base = await t.listen();
      workspace = await t.createWorkspace();
    });
    afterAll(async () => t?.close());

    it('retries a 503 with backoff and answers what the retry got', async () => {
      const proxy = await startFaultProxy(base, ['answer-503', 'answer-503']);
      try {
        const retries: RetryEvent[] = [];
        const client = createClient({ baseUrl: proxy.url, apiKey: workspace.production.key, baseDelayMs: 50, onRetry: (retry) => retries.push(retry) });
        const page = await client.leads.list();
        expect(page.pagination.offset).toBe(0);
        expect(proxy.log).toEqual(['answer-503', 'answer-503', 'pass']);
        expect(retries.map((retry) => retry.status)).toEqual([503, 503]);
        // exponential backoff with jitter: between half and all of 50 ms, then of 100 ms
        expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(25);
        expect(retries[0]?.delayMs).toBeLessThanOrEqual(50);
        expect(retries[1]?.delayMs).toBeGreaterThanOrEqual(50);
        expect(retries[1]?.delayMs).toBeLessThanOrEqual(100);
      } finally {
        await proxy.close();
      }
    });

    it('gives up after its retries with a LeadlightConnectionError when nothing answers', async () => {
      const closed = net.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as net.AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const retries: RetryEvent[] = [];
      const client = createClient({
        baseUrl: `http://127.0.0.1:${port}`,
        apiKey: workspace.production.key,
        retries: 2,
        baseDelayMs: 10,
        onRetry: (retry) => retries.push(retry),
      });
      const failure = await client.leads.get('0190f6a2-7d21-7e4a-8b3c-5f9d2a1e4c61').catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(LeadlightConnectionError);
      expect(failure).toBeInstanceOf(LeadlightError);
      expect(failure).toMatchObject({ code: 'connection_error', status: 0 });
      expect(retries.map((retry) => retry.status)).toEqual([undefined, undefined]);
    });

    it('C8.2: concurrent creates with one Idempotency-Key all answer the same lead (a 409 while the first runs is waited out)', async () => {
      const retries: RetryEvent[] = [];
      const client = createClient({ baseUrl: base, apiKey: workspace.production.key, onRetry: (retry) => retries.push(retry) });
      const idempotencyKey = `sync-${Date.now()}-${Math.random()}`;
      const body = { code: 'concurrent', source: `concurrent-${idempotencyKey}` };
      const answers = await Promise.all(Array.from({ length: 10 }, () => client.leads.create(body, { idempotencyKey })));
      expect(new Set(answers.map((lead) => lead.id)).size).toBe(1);
      expect((await client.leads.list({ source: body.source })).pagination.total).toBe(1);
      // only "in use" answers were retried, each after its Retry-After (1 s)
      for (const retry of retries) expect(retry).toMatchObject({ status: 409 });
      for (const retry of retries) expect(retry.delayMs).toBeGreaterThanOrEqual(1_000);
    });

    it('C8.2: a POST whose connection drops after the server got it is retried with its Idempotency-Key and creates exactly one lead', async () => {
      const proxy = await startFaultProxy(base, ['drop-after-request']);
      try {
        const { attempts, fetchImpl } = recordingFetch();
        const client = createClient({ baseUrl: proxy.url, apiKey: workspace.production.key, baseDelayMs: 50, fetch: fetchImpl });
        const lead = await client.leads.create({ code: 'exactly-once', source: 'dropped-connection' });
        await proxy.settled();

        // the retry may find the first attempt still running (409 idempotency_key_in_use, retried) before its replay
        expect(proxy.log[0]).toBe('drop-after-request');
        expect(proxy.log.slice(1).every((entry) => entry === 'pass')).toBe(true);
        const statuses = attempts.map((attempt) => attempt.status);
        expect(statuses[0]).toBe('no answer');
        expect(statuses.at(-1)).toBe(201);
        expect(statuses.slice(1, -1).every((status) => status === 409)).toBe(true);
        expect(attempts[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
        expect(new Set(attempts.map((attempt) => attempt.idempotencyKey)).size).toBe(1);
        const direct = createClient({ baseUrl: base, apiKey: workspace.production.key });
        const stored = await direct.leads.list({ source: 'dropped-connection' });
        expect(stored.pagination.total).toBe(1);
        expect(stored.data.map((row) => row.id)).toEqual([lead.id]);
      } finally {
        await proxy.close();
      }
    });
  });
});
