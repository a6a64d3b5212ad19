/**
 * search(), batch() and export() of @leadlight/client against a real server
 * over real HTTP, on both stores, imported as a user imports it (CONTRACT
 * C11.3, C11.4, C11.5): a search iterated to its end across its cursors, a
 * batch's results and its all-or-nothing error, an export read as it streams.
 */
import { createClient, LeadlightError, type LeadlightClient } from '@leadlight/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';

describe.each(storeKinds())('@leadlight/client search, batch and export on %s', (kind) => {
  let t: TestApp;
  let workspace: TestWorkspace;
  let client: LeadlightClient;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const base = await t.listen();
    workspace = await t.createWorkspace();
    client = createClient({ baseUrl: base, apiKey: workspace.production.key });
  });
  afterAll(async () => t?.close());

  it('C11.4: leads.batch creates and updates in order; a bad operation throws naming it and writes nothing', async () => {
    const results = await client.leads.batch(Array.from({ length: 5 }, (_, i) => ({ op: 'create' as const, body: { code: `K-${i}`, summary: { score: i * 20 } } })));
    expect(results.map((result) => [result.outcome, result.data.code])).toEqual([0, 1, 2, 3, 4].map((i) => ['created', `K-${i}`]));
    const [updated] = await client.leads.batch([{ op: 'update', id: results[0]!.data.id, body: { properties: { done: true } } }]);
    expect(updated).toMatchObject({ outcome: 'updated', data: { id: results[0]!.data.id, properties: { done: true } } });
    const error = await client.leads.batch([{ op: 'create', body: {} }, { op: 'create', body: { code: 7 as unknown as string } }]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LeadlightError);
    expect((error as LeadlightError).status).toBe(400);
    expect((error as LeadlightError).details).toEqual({ fields: { 'operations[1].body.code': 'must be a string or null' } });
    expect((await client.leads.list()).pagination.total).toBe(5);
  });

  it('C11.4: identities.batch upserts by email', async () => {
    const [first] = await client.identities.batch([{ email: 'kim@c.example', traits: { a: 1 } }]);
    const [second] = await client.identities.batch([{ email: 'KIM@c.example', name: 'Kim', traits: { b: 2 } }]);
    expect(first!.outcome).toBe('created');
    expect(second).toMatchObject({ outcome: 'updated', data: { id: first!.data.id, name: 'Kim', traits: { a: 1, b: 2 } } });
  });

  it('C11.3: leads.search: the first page with await, every row with for await across cursors', async () => {
    const body = { filter: { any: [{ all: [{ field: 'summary.score', op: 'gte' as const, value: 20 }] }] }, sort: [{ field: 'code', order: 'asc' as const }], limit: 1 };
    const first = await client.leads.search(body);
    expect(first.pagination.total).toBe(4);
    expect(first.data.map((lead) => lead.code)).toEqual(['K-1']);
    expect(first.next).toMatch(/cursor=/);
    const codes: (string | null)[] = [];
    for await (const lead of client.leads.search(body)) codes.push(lead.code);
    expect(codes).toEqual(['K-1', 'K-2', 'K-3', 'K-4']);
    const bad = await client.companies.search({ filter: { any: [{ all: [{ field: 'nope', op: 'eq', value: 1 }] }] } }).then(() => undefined, (caught: unknown) => caught);
    expect((bad as LeadlightError).details).toEqual({ fields: { 'filter.any[0].all[0].field': expect.stringMatching(/^must be one of/) } });
  });

  it('C11.5: leads.export reads every lead as the answer streams; exportCsv hands over the CSV body', async () => {
    const exported = [];
    for await (const lead of client.leads.export()) exported.push(lead);
    const listed = [];
    for await (const lead of client.leads.list({ limit: 2 })) listed.push(lead);
    expect(exported).toEqual(listed);
    const filtered = [];
    for await (const lead of client.leads.export({ code: 'K-3' })) filtered.push(lead.code);
    expect(filtered).toEqual(['K-3']);
    const csv = await new Response(await client.leads.exportCsv()).text();
    expect(csv.split('\r\n')[0]).toBe('id,visitor_id,workspace_id,code,source,created_at,updated_at,properties,location,identity_id,session_id,summary,company_id');
    expect(csv.split('\r\n').filter((line) => line !== '')).toHaveLength(6);
    const identities = [];
    for await (const identity of client.identities.export()) identities.push(identity.email);
    expect(identities).toEqual(['kim@c.example']);
  });
});
