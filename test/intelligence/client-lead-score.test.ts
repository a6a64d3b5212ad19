/**
 * C6.2 for leads a client writes, on both stores: every lead whose visitor
 * has events carries a score, also one written through the API without an
 * `identity_id` for a visitor that has identified itself (the scorer read
 * only the identity's leads then), and it is scored by the worker's next
 * pass after it is written, not only after the visitor's next event. The
 * keys the client wrote into `summary` are kept through every recomputation.
 * Leads written by `leadlight import` are marked the same way, a batch at a
 * time.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { createSiteKey, identify, pageView, postEvents, type Event } from '../helpers/tracking.js';

type Item = Record<string, unknown>;

describe.each(storeKinds())('scores of leads written by a client on %s (C6.2)', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('Client leads');
    key = (await createSiteKey(t, workspace)).key;
  });
  afterAll(async () => t?.close());

  const send = async (events: Event[]) => {
    const answer = await postEvents(base, key, events);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  };
  /** one pass of the intelligence worker over what is due (it runs every few seconds, C6.2's 60 s) */
  const refresh = () => t.services.intelligence.runWorkspace(workspace.id);
  const writeLead = async (body: Item) => {
    const answer = await t.as(workspace, { method: 'POST', url: '/api/v1/leads', payload: body });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json().data.id as string;
  };
  const summaryOf = async (id: string) => (await t.as(workspace, { method: 'GET', url: `/api/v1/leads/${id}` })).json().data.summary as Item | null;
  const SCORED = { score: expect.any(Number), score_reasons: expect.any(Array), status: expect.stringMatching(/^(new|engaged|qualified)$/) };

  it('C6.2: a lead written with identity_id null for an identified visitor is scored, keeps the client\'s keys, and follows new events', async () => {
    const visitor = randomUUID();
    await send([pageView(visitor, '/pricing'), identify(visitor, { email: `buyer.${visitor}@example.org` })]);
    await refresh();
    const lead = await writeLead({ visitor_id: visitor, code: 'crm', summary: { note: 'from the CRM' } });
    expect(await summaryOf(lead)).toEqual({ note: 'from the CRM' });
    await refresh();
    const first = await summaryOf(lead);
    expect(first).toEqual({ note: 'from the CRM', ...SCORED });
    const score = first!.score as number;
    expect(score).toBeGreaterThanOrEqual(0);
    expect(score).toBeLessThanOrEqual(100);
    // more pricing visits: the score is recomputed, the client's key stays
    await send([pageView(visitor, '/pricing'), pageView(visitor, '/pricing/team'), pageView(visitor, '/pricing')]);
    await refresh();
    const second = await summaryOf(lead);
    expect(second).toEqual({ note: 'from the CRM', ...SCORED });
    expect(second!.score as number).toBeGreaterThan(score);
  });

  it('C6.2: a lead written for an anonymous visitor with events is scored on the next pass; one for a visitor without events is left as written', async () => {
    const visitor = randomUUID();
    await send([pageView(visitor, '/pricing')]);
    await refresh();
    const lead = await writeLead({ visitor_id: visitor, summary: { owner: 'sam' } });
    await refresh();
    expect(await summaryOf(lead)).toEqual({ owner: 'sam', ...SCORED });
    const unseen = await writeLead({ visitor_id: randomUUID(), summary: { owner: 'kim' } });
    await refresh();
    expect(await summaryOf(unseen)).toEqual({ owner: 'kim' });
  });

  it('C6.2: leads written by an import are scored on the next pass when their visitor has events, across batches; the others are left as written', async () => {
    const seen = [randomUUID(), randomUUID()];
    for (const visitor of seen) await send([pageView(visitor, '/pricing')]);
    await refresh();
    // 600 lines: two batches of the import (500, then 100); the visitors with events are in each
    const rows = Array.from({ length: 600 }, (_, i) => ({
      id: randomUUID(),
      code: `imported-${i}`,
      visitor_id: i === 3 ? seen[0] : i === 550 ? seen[1] : randomUUID(),
      summary: { owner: 'import' },
    }));
    const lines = rows.map((row) => JSON.stringify(row)).join('\n');
    expect((await t.services.forWorkspace(workspace.id).imports.run('leads', Readable.from([lines]))).imported).toBe(600);
    await refresh();
    expect(await summaryOf(rows[3]!.id)).toEqual({ owner: 'import', ...SCORED });
    expect(await summaryOf(rows[550]!.id)).toEqual({ owner: 'import', ...SCORED });
    expect(await summaryOf(rows[4]!.id)).toEqual({ owner: 'import' });
  });
});
