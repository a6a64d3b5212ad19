/**
 * Idempotency-Key on POSTs (CONTRACT C8.2) on both stores: replays, another
 * body, a request still running, concurrent duplicates resolved by the
 * database, keys of two workspaces, refused requests not stored, pruning;
 * read-only POSTs (the searches) store nothing under a key.
 */
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceOf } from '../../src/http/request-context.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';

/** A POST that waits until the test lets it go, then creates a lead: a request held open. */
function slowRoute(gate: { wait: Promise<void> }): FastifyPluginAsync {
  return async (api) => {
    api.post('/slow-leads', async (request, reply) => {
      await gate.wait;
      const lead = await workspaceOf(request).leads.create({ code: (request.body as { code: string }).code });
      reply.code(201);
      return { data: { id: lead.id } };
    });
  };
}

describe.each(storeKinds())('Idempotency-Key on %s (C8.2)', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let release: () => void = () => undefined;
  const gate: { wait: Promise<void> } = { wait: Promise.resolve() };

  beforeAll(async () => {
    t = await createTestApp(kind, { extraRoutes: slowRoute(gate) });
    ws = await t.createWorkspace('Idem A');
    other = await t.createWorkspace('Idem B');
  });
  afterAll(async () => t?.close());

  const post = (key: string | undefined, body: unknown, workspace = ws, url = '/api/v1/leads') =>
    t.as(workspace, {
      method: 'POST',
      url,
      headers: key === undefined ? {} : { 'idempotency-key': key },
      payload: body as object,
    });
  const countByCode = async (code: string, workspace = ws) => {
    const response = await t.as(workspace, { method: 'GET', url: `/api/v1/leads?code=${encodeURIComponent(code)}` });
    return (response.json() as { pagination: { total: number } }).pagination.total;
  };

  it('C8.2: the same key and body replays the first answer (status, body, Location) and creates nothing more', async () => {
    const first = await post('replay-1', { code: 'idem-replay', properties: { a: 1, b: 2 } });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // the same body with its keys in another order is the same request
    const second = await post('replay-1', { properties: { b: 2, a: 1 }, code: 'idem-replay' });
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers.location).toBe(first.headers.location);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.json()).toEqual(first.json());
    expect(await countByCode('idem-replay')).toBe(1);
  });

  it('C8.2: the same key with another body is 422 idempotency_key_reused and writes nothing', async () => {
    expect((await post('reuse-1', { code: 'idem-reuse-a' })).statusCode).toBe(201);
    const reused = await post('reuse-1', { code: 'idem-reuse-b' });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ error: 'idempotency_key_reused' });
    expect(await countByCode('idem-reuse-b')).toBe(0);
    // the same key on another endpoint is another request too
    const elsewhere = await post('reuse-1', { email: 'reuse@example.com' }, ws, '/api/v1/identities');
    expect(elsewhere.statusCode).toBe(422);
  });

  it('C8.2: while the first request runs, the same key is 409 idempotency_key_in_use with Retry-After; then it replays', async () => {
    gate.wait = new Promise<void>((resolve) => (release = resolve));
    // (inject sends when awaited: Promise.resolve starts it now)
    const running = Promise.resolve(post('slow-1', { code: 'idem-slow' }, ws, '/api/v1/slow-leads'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // the first request has claimed the key once the claim is visible
    let duplicate = await post('slow-1', { code: 'idem-slow' }, ws, '/api/v1/slow-leads');
    for (let tries = 0; tries < 50 && duplicate.statusCode !== 409; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      duplicate = await post('slow-1', { code: 'idem-slow' }, ws, '/api/v1/slow-leads');
    }
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ error: 'idempotency_key_in_use' });
    expect(Number(duplicate.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    release();
    const first = await running;
    expect(first.statusCode).toBe(201);
    const replay = await post('slow-1', { code: 'idem-slow' }, ws, '/api/v1/slow-leads');
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    expect(await countByCode('idem-slow')).toBe(1);
  });

  it('C8.2: twenty concurrent identical POSTs create exactly one lead', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => post('concurrent-1', { code: 'idem-concurrent' })));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    const created = answers.filter((answer) => answer.statusCode === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((answer) => (answer.json() as { data: { id: string } }).data.id)).size).toBe(1);
    expect(await countByCode('idem-concurrent')).toBe(1);
    // and once settled, every retry replays that one lead
    const retry = await post('concurrent-1', { code: 'idem-concurrent' });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(created[0]?.json());
  });

  it('C8.2: keys are per workspace: the same key in two workspaces runs twice, each in its own', async () => {
    const a = await post('shared-key', { code: 'idem-shared' }, ws);
    const b = await post('shared-key', { code: 'idem-shared-other' }, other);
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect((b.json() as { data: { workspace_id: string } }).data.workspace_id).toBe(other.id);
    expect(await countByCode('idem-shared', other)).toBe(0);
    expect(await countByCode('idem-shared-other', ws)).toBe(0);
  });

  it('C8.2: requests refused before they ran (400, 415) are not stored: the key stays free', async () => {
    const invalid = await post('refused-1', { code: 42 });
    expect(invalid.statusCode).toBe(400);
    const wrongType = await t.as(ws, {
      method: 'POST',
      url: '/api/v1/leads',
      headers: { 'idempotency-key': 'refused-1', 'content-type': 'text/plain' },
      payload: 'code=x',
    });
    expect(wrongType.statusCode).toBe(415);
    const valid = await post('refused-1', { code: 'idem-after-400' });
    expect(valid.statusCode).toBe(201);
    expect(valid.headers['idempotent-replayed']).toBeUndefined();
  });

  it('C8.2: a malformed key is 400 and nothing is written', async () => {
    const response = await post('bad key with spaces', { code: 'idem-bad-key' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_request' });
    expect(await countByCode('idem-bad-key')).toBe(0);
    expect((await post('x'.repeat(256), { code: 'idem-bad-key' })).statusCode).toBe(400);
    expect((await post('x'.repeat(255), { code: 'idem-long-key' })).statusCode).toBe(201);
  });

  const keyRows = async (key: string) =>
    (await sql<{ key: string }>`select key from idempotency_keys where workspace_id = ${ws.id} and key = ${key}`.execute(t.db.database.db)).rows.length;

  it('read-only POSTs: a search with an Idempotency-Key answers afresh each time and stores no key; a write still does', async () => {
    const search = (code: string) =>
      post('search-1', { filter: { any: [{ all: [{ field: 'code', op: 'eq', value: code }] }] } }, ws, '/api/v1/leads/search');
    expect((await post(undefined, { code: 'idem-search' })).statusCode).toBe(201);
    for (const url of ['/api/v1/leads/search', '/api/v1/identities/search', '/api/v1/companies/search']) {
      const answer = await post('search-1', {}, ws, url);
      expect(answer.statusCode, url).toBe(200);
      expect(answer.headers['idempotent-replayed'], url).toBeUndefined();
    }
    const first = await search('idem-search');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ pagination: { total: 1 } });
    // the same key with another body is another search, not 422; the answer is never a replay
    const other = await search('idem-search-none');
    expect(other.statusCode).toBe(200);
    expect(other.json()).toMatchObject({ pagination: { total: 0 } });
    expect(await keyRows('search-1')).toBe(0);
    // a lead written since is found by the same search under the same key
    expect((await post(undefined, { code: 'idem-search-none' })).statusCode).toBe(201);
    expect((await search('idem-search-none')).json()).toMatchObject({ pagination: { total: 1 } });
    // the same key on a write is claimed and stored as before
    expect((await post('search-1', { code: 'idem-search-write' })).statusCode).toBe(201);
    expect(await keyRows('search-1')).toBe(1);
    expect((await post('search-1', { code: 'idem-search-write' })).headers['idempotent-replayed']).toBe('true');
  });

  it('C8.2: a key is kept 24 hours, then the upkeep job prunes it and it can be used again', async () => {
    expect((await post('prune-1', { code: 'idem-prune-a' })).statusCode).toBe(201);
    const early = await t.services.trackingMaintenance.run(Date.now() + 23 * 3_600_000);
    expect((await post('prune-1', { code: 'idem-prune-b' })).statusCode).toBe(422);
    const late = await t.services.trackingMaintenance.run(Date.now() + 25 * 3_600_000);
    expect(late.idempotencyKeysPruned).toBeGreaterThan(early.idempotencyKeysPruned);
    const reused = await post('prune-1', { code: 'idem-prune-b' });
    expect(reused.statusCode).toBe(201);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
  });
});
