/**
 * Batches through the API (CONTRACT C11.4): lead operations all or nothing
 * with results in order, edges at 0, 1, 100 and 101 operations, a bad
 * operation named in details.fields with nothing written, identities upserted
 * by email with traits merged (RFC 7396), Idempotency-Key, and one webhook
 * event per operation as the single writes fire.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { seedCompanies } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

describe.each(storeKinds())('batches on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Batch A');
    other = await t.createWorkspace('Batch B');
  });
  afterAll(async () => t?.close());

  const leadBatch = (body: unknown, headers: Record<string, string> = {}, workspace = ws) =>
    t.as(workspace, { method: 'POST', url: '/api/v1/leads/batch', headers, payload: body as object });
  const identityBatch = (body: unknown, workspace = ws) =>
    t.as(workspace, { method: 'POST', url: '/api/v1/identities/batch', payload: body as object });
  const leadTotal = async (workspace = ws) =>
    (await t.as(workspace, { method: 'GET', url: '/api/v1/leads?limit=1' })).json().pagination.total as number;
  const creates = (count: number, tag: string) => Array.from({ length: count }, (_, i) => ({ op: 'create', body: { code: `${tag}-${i}` } }));

  it('C11.4: 1 and 100 operations are applied, results in order; 0 and 101 are refused and write nothing', async () => {
    const before = await leadTotal();
    const one = await leadBatch({ operations: creates(1, 'one') });
    expect(one.statusCode).toBe(200);
    expect(one.json().data).toHaveLength(1);
    expect(one.json().data[0]).toMatchObject({ outcome: 'created', data: { code: 'one-0', workspace_id: ws.id } });
    const hundred = await leadBatch({ operations: creates(100, 'hundred') });
    expect(hundred.statusCode).toBe(200);
    expect(hundred.json().data.map((result: { data: { code: string } }) => result.data.code)).toEqual(creates(100, 'hundred').map((op) => op.body.code));
    expect(await leadTotal()).toBe(before + 101);
    for (const [count, reason] of [
      [0, 'must hold at least 1 operation'],
      [101, 'must hold at most 100 operations'],
    ] as const) {
      const refused = await leadBatch({ operations: creates(count, 'edge') });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: 'invalid_request', details: { fields: { operations: reason } } });
    }
    expect(await leadTotal()).toBe(before + 101);
  });

  it('C11.4: creates and updates in one batch, in order, with the rules of the single writes', async () => {
    const [company] = await seedCompanies(t, ws.id, [{ name: 'Batch Co' }]);
    const existing = (await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: 'x', properties: { a: 1, b: 2 } } })).json().data;
    const answer = await leadBatch({
      operations: [
        { op: 'update', id: existing.id.toUpperCase(), body: { properties: { c: 3 }, company_id: company! } },
        { op: 'create', body: { source: 'batch', company_id: company! } },
      ],
    });
    expect(answer.statusCode).toBe(200);
    const [updated, created] = answer.json().data;
    expect(updated).toMatchObject({ outcome: 'updated', data: { id: existing.id, properties: { c: 3 }, company_id: company! } });
    expect(created).toMatchObject({ outcome: 'created', data: { source: 'batch', company_id: company!, properties: {}, summary: null } });
    const read = (await t.as(ws, { method: 'GET', url: `/api/v1/leads/${created.data.id}` })).json().data;
    expect(read).toEqual(created.data);
  });

  it('C11.4: one bad operation is 400 naming it (operations[3].body.code) and nothing is written', async () => {
    const before = await leadTotal();
    const operations = [...creates(3, 'bad'), { op: 'create', body: { code: 42 } }, ...creates(2, 'after')];
    const answer = await leadBatch({ operations });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({
      error: 'invalid_request',
      message: 'operations[3].body.code must be a string or null',
      details: { fields: { 'operations[3].body.code': 'must be a string or null' } },
    });
    expect(await leadTotal()).toBe(before);
  });

  it('C11.4: a rule broken while running (unknown id, foreign reference) rolls back the operations before it', async () => {
    const before = await leadTotal();
    const [foreignCompany] = await seedCompanies(t, other.id, [{ name: 'Not yours' }]);
    const unknown = await leadBatch({ operations: [...creates(2, 'rolled'), { op: 'update', id: randomUUID(), body: { properties: {} } }] });
    expect(unknown.statusCode).toBe(400);
    expect(Object.keys(unknown.json().details.fields)).toEqual(['operations[2].id']);
    const foreign = await leadBatch({ operations: [...creates(1, 'rolled'), { op: 'create', body: { company_id: foreignCompany! } }] });
    expect(foreign.statusCode).toBe(400);
    expect(Object.keys(foreign.json().details.fields)).toEqual(['operations[1].body.company_id']);
    expect(await leadTotal()).toBe(before);
  });

  it('C11.4: malformed operations are named: op, id, unknown fields, a body that is not an object', async () => {
    const cases: [unknown, string][] = [
      [{ op: 'delete', body: {} }, 'operations[0].op'],
      [{ op: 'update', id: 'nope', body: {} }, 'operations[0].id'],
      [{ op: 'update', body: {} }, 'operations[0].id'],
      [{ op: 'create', id: randomUUID(), body: {} }, 'operations[0].id'],
      [{ op: 'create', body: [] }, 'operations[0].body'],
      [{ op: 'update', id: randomUUID(), body: { code: 'read-only' } }, 'operations[0].body.code'],
      ['create', 'operations[0]'],
    ];
    for (const [operation, field] of cases) {
      const answer = await leadBatch({ operations: [operation] });
      expect(answer.statusCode, JSON.stringify(operation)).toBe(400);
      expect(Object.keys(answer.json().details.fields), JSON.stringify(operation)).toEqual([field]);
    }
    expect((await leadBatch({ operations: [], extra: 1 })).json().details.fields).toEqual({ extra: 'is not a known field' });
  });

  it('C11.4, C8.2: Idempotency-Key replays the answer of a batch and writes once', async () => {
    const before = await leadTotal();
    const key = `batch-${randomUUID()}`;
    const body = { operations: creates(2, 'idem') };
    const first = await leadBatch(body, { 'idempotency-key': key });
    const again = await leadBatch(body, { 'idempotency-key': key });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await leadTotal()).toBe(before + 2);
    expect((await leadBatch({ operations: creates(3, 'idem') }, { 'idempotency-key': key })).statusCode).toBe(422);
  });

  it('C11.4, C8.5: each operation fires the event its single write fires', async () => {
    const hook = (
      await t.as(other, {
        method: 'POST',
        url: '/api/v1/webhooks',
        payload: { url: 'https://203.0.113.10/batch', events: ['lead.created', 'lead.updated', 'identity.created', 'identity.updated'] },
      })
    ).json().data;
    const lead = (await t.as(other, { method: 'POST', url: '/api/v1/leads', payload: {} })).json().data;
    const leads = await leadBatch({ operations: [...creates(2, 'event'), { op: 'update', id: lead.id, body: { summary: { s: 1 } } }] }, {}, other);
    expect(leads.statusCode).toBe(200);
    const upserts = await identityBatch({ identities: [{ email: 'ev@example.com' }, { email: 'EV@example.com', name: 'Ev' }] }, other);
    expect(upserts.statusCode).toBe(200);
    const deliveries = (await t.as(other, { method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries?limit=100` })).json().data as { event_type: string }[];
    const counts: Record<string, number> = {};
    for (const delivery of deliveries) counts[delivery.event_type] = (counts[delivery.event_type] ?? 0) + 1;
    // the single create before the batch fired one lead.created too
    expect(counts).toEqual({ 'lead.created': 3, 'lead.updated': 1, 'identity.created': 1, 'identity.updated': 1 });
  });

  it('C11.4: identities are upserted by email, case-insensitively, traits merged as RFC 7396', async () => {
    const made = (
      await t.as(ws, { method: 'POST', url: '/api/v1/identities', payload: { email: 'ada@up.example', name: 'Ada', traits: { plan: 'free', keep: 1, nested: { a: 1, b: 2 } } } })
    ).json().data;
    const answer = await identityBatch({
      identities: [
        { email: 'ADA@up.example', traits: { plan: 'team', keep: null, nested: { b: null, c: 3 } } },
        { email: 'new@up.example', name: 'New', traits: { drop: null, k: { n: null, v: 1 } } },
        { email: 'new@up.example', traits: { more: true } },
      ],
    });
    expect(answer.statusCode).toBe(200);
    const [ada, created, again] = answer.json().data;
    expect(ada).toMatchObject({ outcome: 'updated', data: { id: made.id, name: 'Ada', email: 'ada@up.example', traits: { plan: 'team', nested: { a: 1, c: 3 } } } });
    expect(ada.data.traits).not.toHaveProperty('keep');
    expect(created).toMatchObject({ outcome: 'created', data: { email: 'new@up.example', name: 'New', traits: { k: { v: 1 } } } });
    expect(created.data.traits).toEqual({ k: { v: 1 } });
    expect(again).toMatchObject({ outcome: 'updated', data: { id: created.data.id, name: 'New', traits: { k: { v: 1 }, more: true } } });
    const listed = (await t.as(ws, { method: 'GET', url: '/api/v1/identities?email=new@up.example' })).json();
    expect(listed.pagination.total).toBe(1);
  });

  it('C11.4: a bad identity is 400 naming it, and nothing is written', async () => {
    const before = (await t.as(ws, { method: 'GET', url: '/api/v1/identities?limit=1' })).json().pagination.total;
    const cases: [unknown[], string][] = [
      [[{ email: 'ok@bad.example' }, { email: 'not-an-email' }], 'identities[1].email'],
      [[{ email: 'ok@bad.example' }, { name: 'No email' }], 'identities[1].email'],
      [[{ email: 'ok@bad.example', traits: [] }], 'identities[0].traits'],
      [[{ email: 'ok@bad.example', is_favorite: true }], 'identities[0].is_favorite'],
      [[], 'identities'],
      [Array.from({ length: 101 }, (_, i) => ({ email: `p${i}@bad.example` })), 'identities'],
    ];
    for (const [identities, field] of cases) {
      const answer = await identityBatch({ identities });
      expect(answer.statusCode, field).toBe(400);
      expect(Object.keys(answer.json().details.fields)).toEqual([field]);
    }
    const hundred = await identityBatch({ identities: Array.from({ length: 100 }, (_, i) => ({ email: `p${i}@edge.example` })) });
    expect(hundred.statusCode).toBe(200);
    expect((await t.as(ws, { method: 'GET', url: '/api/v1/identities?limit=1' })).json().pagination.total).toBe(before + 100);
  });
});
