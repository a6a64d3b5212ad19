/**
 * C9.3: notes on a lead, `GET`/`POST /api/v1/leads/{id}/notes` and their
 * dashboard twins, on both stores: the shape `{id, body, author, created_at}`
 * with the author an API key or a dashboard user, newest first with Link
 * cursors, the body limit at its edge (10,000 characters), 404 for a lead
 * that is not the workspace's, `note.created` delivered to a webhook, and
 * notes deleted with their lead: by DELETE and by the erasure of its person
 * (C8.4). Who may write in the dashboard is the role matrix's.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TIMESTAMP, UUID, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { storeKinds } from '../helpers/stores.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

interface Note {
  id: string;
  body: string;
  author: { type: string; id: string; name: string };
  created_at: string;
}

describe.each(storeKinds())('C9.3: lead notes on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp(kind, { webhooks: { allowPrivate: true } });
    base = await t.listen();
    receiver = await startReceiver();
    ws = await t.createWorkspace('Notes');
    other = await t.createWorkspace('Other notes');
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const newLead = async (payload: Record<string, unknown> = {}, workspace = ws) =>
    (await t.as(workspace, { method: 'POST', url: '/api/v1/leads', payload })).json().data.id as string;
  const post = (leadId: string, payload: unknown, workspace = ws) =>
    t.as(workspace, { method: 'POST', url: `/api/v1/leads/${leadId}/notes`, payload: payload as Record<string, unknown> });
  const list = (leadId: string, query = '', workspace = ws) => t.as(workspace, { method: 'GET', url: `/api/v1/leads/${leadId}/notes${query}` });
  const notesInStore = async (leadId: string) =>
    Number(
      (await sql<{ n: number | string }>`select count(*) as n from lead_notes where lead_id = ${leadId}`.execute(t.db.database.db)).rows[0]?.n ?? 0,
    );

  it('C9.3: a note written with an API key is {id, body, author, created_at}, the key its author', async () => {
    const leadId = await newLead();
    const created = await post(leadId, { body: 'Called Ada: wants the team plan.' });
    expect(created.statusCode, created.body).toBe(201);
    const note = created.json().data as Note;
    expect(Object.keys(note).sort()).toEqual(['author', 'body', 'created_at', 'id']);
    expect(note).toEqual({
      id: expect.stringMatching(UUID),
      body: 'Called Ada: wants the team plan.',
      author: { type: 'api_key', id: ws.production.id, name: 'test production' },
      created_at: expect.stringMatching(TIMESTAMP),
    });
    expect((await list(leadId)).json()).toEqual({ data: [note], pagination: { limit: 50, offset: 0, total: 1 } });
    expect(created.headers.location).toBe(`/api/v1/leads/${leadId}/notes/${note.id}`);
    const read = await t.as(ws, { method: 'GET', url: created.headers.location as string });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ data: note });
    // a note named under another lead is not found
    expect((await t.as(ws, { method: 'GET', url: `/api/v1/leads/${await newLead()}/notes/${note.id}` })).statusCode).toBe(404);
  });

  it('C9.3: newest first, a page at a time, Link cursors that never skip or repeat', async () => {
    const leadId = await newLead();
    const written: string[] = [];
    for (let index = 0; index < 7; index += 1) written.push((await post(leadId, { body: `note ${index}` })).json().data.id as string);
    const seen: string[] = [];
    let url: string | undefined = `/api/v1/leads/${leadId}/notes?limit=3`;
    while (url !== undefined) {
      const page = await t.as(ws, { method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.json().pagination.total).toBe(7);
      seen.push(...(page.json().data as Note[]).map((note) => note.body));
      const link = page.headers.link as string | undefined;
      url = link === undefined ? undefined : (() => { const next = new URL(/<([^>]+)>/.exec(link)?.[1] ?? ''); return next.pathname + next.search; })();
    }
    expect(seen).toEqual(['note 6', 'note 5', 'note 4', 'note 3', 'note 2', 'note 1', 'note 0']);
    const offset = await list(leadId, '?limit=2&offset=6');
    expect((offset.json().data as Note[]).map((note) => note.body)).toEqual(['note 0']);
  });

  it('C9.3: the body is 1 to 10,000 characters; anything else is 400 with details.fields.body', async () => {
    const leadId = await newLead();
    const longest = 'é'.repeat(5_000) + 'x'.repeat(5_000);
    const atEdge = await post(leadId, { body: longest });
    expect(atEdge.statusCode).toBe(201);
    expect(atEdge.json().data.body).toBe(longest);
    for (const payload of [{ body: `${longest}y` }, { body: '' }, {}, { body: 42 }, { body: 'ok', extra: 1 }]) {
      const refused = await post(leadId, payload);
      expect(refused.statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
      expect(refused.json()).toMatchObject({ error: 'invalid_request', details: { fields: expect.any(Object) } });
      if (!('extra' in payload)) expect(refused.json().details.fields).toHaveProperty('body');
    }
    expect((await list(leadId)).json().pagination.total).toBe(1);
  });

  it("C9.3: another workspace's lead, an unknown one, or a malformed id is 404 and gets no note", async () => {
    const foreign = await newLead({}, other);
    for (const leadId of [foreign, '0190a0a0-0000-7000-8000-0000000000ff', 'not-a-uuid']) {
      expect((await post(leadId, { body: 'hello' })).statusCode).toBe(404);
      expect((await list(leadId)).statusCode).toBe(404);
    }
    expect(await notesInStore(foreign)).toBe(0);
  });

  it('C9.3: in the dashboard a member writes as the signed-in user, a viewer reads', async () => {
    const leadId = await newLead();
    const person = await member(t, ws.id, 'member', `grace.${kind}@example.com`);
    const memberSession: DashboardSession = await signIn(base, person);
    const viewer = await signIn(base, await member(t, ws.id, 'viewer'));
    const written = await dashboard(base, memberSession, 'POST', `/leads/${leadId}/notes`, { body: 'Demo booked for Tuesday' });
    expect(written.status, JSON.stringify(written.body)).toBe(201);
    const note = (written.body as { data: Note }).data;
    expect(note.author).toEqual({ type: 'user', id: person.id, name: `grace.${kind}@example.com` });
    expect((await dashboard(base, viewer, 'POST', `/leads/${leadId}/notes`, { body: 'no' })).status).toBe(403);
    const read = await dashboard(base, viewer, 'GET', `/leads/${leadId}/notes`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ data: [note], pagination: { limit: 50, offset: 0, total: 1 } });
    // the API shows the same note
    expect((await list(leadId)).json().data).toEqual([note]);
  });

  it('C9.3, C8.5: note.created is delivered with the note and its lead_id', async () => {
    const hook = await t.as(ws, { method: 'POST', url: '/api/v1/webhooks', payload: { url: `${receiver.url}/notes`, events: ['note.created'] } });
    expect(hook.statusCode).toBe(201);
    const leadId = await newLead();
    const note = (await post(leadId, { body: 'Sent the quote' })).json().data as Note;
    const deadline = Date.now() + 10_000;
    while (!receiver.received.some((entry) => entry.path === '/notes')) {
      if (Date.now() > deadline) throw new Error('not delivered');
      await t.services.webhookWorker.runOnce();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const delivered = receiver.received.filter((entry) => entry.path === '/notes');
    expect(delivered).toHaveLength(1);
    const payload = JSON.parse(delivered[0]!.body);
    expect(payload).toMatchObject({ type: 'note.created', data: { ...note, lead_id: leadId } });
  });

  it("C9.3, C8.4: a lead's notes go with it: DELETE, and the erasure of its person", async () => {
    const deleted = await newLead();
    await post(deleted, { body: 'to be deleted' });
    expect(await notesInStore(deleted)).toBe(1);
    expect((await t.as(ws, { method: 'DELETE', url: `/api/v1/leads/${deleted}` })).statusCode).toBe(204);
    expect(await notesInStore(deleted)).toBe(0);

    const identity = (await t.as(ws, { method: 'POST', url: '/api/v1/identities', payload: { email: `erased.${kind}@example.com`, name: 'Erased Person' } })).json().data;
    const erased = await newLead({ identity_id: identity.id, visitor_id: identity.visitor_id });
    const kept = await newLead();
    await post(erased, { body: 'Erased Person said call back' });
    await post(kept, { body: 'someone else' });
    const erasure = await t.as(ws, { method: 'POST', url: '/api/v1/erasures', payload: { email: `erased.${kind}@example.com` } });
    expect(erasure.statusCode, erasure.body).toBeLessThan(300);
    expect((await list(erased)).statusCode).toBe(404);
    expect(await notesInStore(erased)).toBe(0);
    expect(await notesInStore(kept)).toBe(1);
  });
});
