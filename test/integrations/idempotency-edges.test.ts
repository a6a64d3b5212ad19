/**
 * Idempotency-Key at its edges (CONTRACT C8.2) on both stores:
 * - a key belongs to one request, path included: the same key and the same
 *   body on the same route with other path parameters is another request,
 *   422 `idempotency_key_reused`, never a replay of the first answer, and
 *   nothing is done for it; on the first path it still replays;
 * - a key is kept exactly 24 hours: the upkeep job run at 24 hours after its
 *   first use keeps it, 1 ms later forgets it.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';

describe.each(storeKinds())('Idempotency-Key at its edges on %s (C8.2)', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp(kind, { webhooks: { allowPrivate: true } });
    ws = await t.createWorkspace('Idem paths');
  });
  afterAll(async () => t?.close());

  const post = (url: string, payload: object | undefined, key?: string) =>
    t.as(ws, { method: 'POST', url: `/api/v1${url}`, headers: key === undefined ? {} : { 'idempotency-key': key }, ...(payload === undefined ? {} : { payload }) });
  const idOf = (response: { json(): unknown }) => (response.json() as { data: { id: string } }).data.id;
  const totalOf = async (url: string) => ((await t.as(ws, { method: 'GET', url: `/api/v1${url}` })).json() as { pagination: { total: number } }).pagination.total;

  it('C8.2: adding the same identities to another list with the same key and body is 422, and the other list stays empty', async () => {
    const first = idOf(await post('/lists', { name: 'first list' }));
    const second = idOf(await post('/lists', { name: 'second list' }));
    const identity = idOf(await post('/identities', { email: `idem-path-${randomUUID()}@example.com` }));
    const key = `path-${randomUUID()}`;
    const body = { identity_ids: [identity] };

    const added = await post(`/lists/${first}/identities`, body, key);
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ data: { added: 1 } });

    const elsewhere = await post(`/lists/${second}/identities`, body, key);
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.headers['idempotent-replayed']).toBeUndefined();
    expect(elsewhere.json()).toMatchObject({ error: 'idempotency_key_reused' });
    expect(await totalOf(`/lists/${second}/identities`)).toBe(0);

    const replayed = await post(`/lists/${first}/identities`, body, key);
    expect(replayed.statusCode).toBe(200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(await totalOf(`/lists/${first}/identities`)).toBe(1);
  });

  it('C8.2: a test event of another webhook with the same key (no body) is 422, and nothing is queued for it', async () => {
    const create = async () => idOf(await post('/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['lead.created'] }));
    const [first, second] = [await create(), await create()];
    const key = `test-${randomUUID()}`;
    expect((await post(`/webhooks/${first}/test`, undefined, key)).statusCode).toBe(202);
    const elsewhere = await post(`/webhooks/${second}/test`, undefined, key);
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.json()).toMatchObject({ error: 'idempotency_key_reused' });
    expect(await totalOf(`/webhooks/${second}/deliveries`)).toBe(0);
    expect(await totalOf(`/webhooks/${first}/deliveries`)).toBe(1);
  });

  it('C8.2: a key is kept exactly 24 hours: the upkeep job at 24 hours after its first use keeps it, 1 ms later forgets it', async () => {
    const key = `kept-${randomUUID()}`;
    expect((await post('/leads', { code: 'idem-kept-a' }, key)).statusCode).toBe(201);
    const rows = await sql<{ created_at: string | Date }>`select created_at from idempotency_keys where workspace_id = ${ws.id} and key = ${key}`.execute(
      t.db.database.db,
    );
    const firstUse = new Date(rows.rows[0]!.created_at).getTime();
    expect(Number.isNaN(firstUse)).toBe(false);

    await t.services.trackingMaintenance.run(firstUse + 24 * 3_600_000);
    expect((await post('/leads', { code: 'idem-kept-b' }, key)).statusCode).toBe(422);
    expect((await post('/leads', { code: 'idem-kept-a' }, key)).headers['idempotent-replayed']).toBe('true');

    await t.services.trackingMaintenance.run(firstUse + 24 * 3_600_000 + 1);
    const reused = await post('/leads', { code: 'idem-kept-b' }, key);
    expect(reused.statusCode).toBe(201);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
  });
});
