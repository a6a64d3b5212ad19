/**
 * The changes feed (CONTRACT C11.1) on both stores, over real HTTP: every
 * event of the workspace in the webhooks' shape, oldest first, with the same
 * id as its webhook deliveries' webhook-id (one source of truth); pages and
 * their Link cursors at their exact edges, the poll link of the last page,
 * the `types` filter and its 400s, a stored cursor resumed, the 30-day
 * retention at its edge, and readers that never miss nor repeat a change
 * while writers commit concurrently (on PostgreSQL, out of position order).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { CHANGE_RETENTION_DAYS } from '../../src/services/tenant/changes.service.js';
import { emitEvent } from '../../src/services/webhooks/events.js';
import { createTestApp, TIMESTAMP, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

interface ChangeEvent {
  id: string;
  type: string;
  timestamp: string;
  data: { id?: string; code?: string; list_id?: string };
}

interface Page {
  status: number;
  events: ChangeEvent[];
  next?: string;
  poll?: string;
  body: Record<string, unknown>;
}

const DAY_MS = 86_400_000;

describe.each(storeKinds())('changes feed on %s (C11.1)', (kind) => {
  let t: TestApp;
  let base: string;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp(kind, { webhooks: { allowPrivate: true, retryBaseMs: 40, pollMs: 60_000 } });
    base = await t.listen();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  /** One page of the feed at `url` (a path, or a Link's absolute URL). */
  async function read(ws: TestWorkspace, url: string): Promise<Page> {
    const response = await fetch(url.startsWith('http') ? url : `${base}${url}`, { headers: { authorization: `Bearer ${ws.production.key}` } });
    const body = (await response.json()) as Record<string, unknown>;
    const link = response.headers.get('link') ?? '';
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
    const poll = /<([^>]+)>; rel="poll"/.exec(link)?.[1];
    return { status: response.status, events: (body.data as ChangeEvent[]) ?? [], body, ...(next ? { next } : {}), ...(poll ? { poll } : {}) };
  }

  /** Follows next links from `url` to the last page; answers every event and the poll link. */
  async function drain(ws: TestWorkspace, url: string): Promise<{ events: ChangeEvent[]; poll: string; pages: number }> {
    const events: ChangeEvent[] = [];
    let page = await read(ws, url);
    let pages = 1;
    for (;;) {
      expect(page.status).toBe(200);
      events.push(...page.events);
      if (page.next === undefined) break;
      expect(page.poll).toBeUndefined();
      page = await read(ws, page.next);
      pages++;
    }
    expect(page.poll).toBeDefined();
    return { events, poll: page.poll!, pages };
  }

  /**
   * Drains from `url` until `count` events came (or 10 s passed): on
   * PostgreSQL a committed change waits for every older transaction of the
   * server, other databases' included, to end.
   */
  async function drainAtLeast(ws: TestWorkspace, url: string, count: number): Promise<{ events: ChangeEvent[]; poll: string }> {
    const deadline = Date.now() + 10_000;
    const events: ChangeEvent[] = [];
    let poll = url;
    do {
      const page = await drain(ws, poll);
      events.push(...page.events);
      poll = page.poll;
      if (events.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
    } while (events.length < count && Date.now() < deadline);
    return { events, poll };
  }

  const createLead = async (ws: TestWorkspace, code: string) => {
    const created = await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code } });
    expect(created.statusCode).toBe(201);
    return (created.json() as { data: { id: string } }).data.id;
  };

  it('C11.1: events oldest first in the webhooks shape; pages at their exact edge; the last page links a poll', async () => {
    const ws = await t.createWorkspace('Feed pages');
    const empty = await read(ws, '/api/v1/changes');
    expect(empty.status).toBe(200);
    expect(empty.events).toEqual([]);
    expect(empty.next).toBeUndefined();
    expect(empty.poll).toBeDefined();

    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await createLead(ws, `page-${i}`));
    const updated = await t.as(ws, { method: 'PATCH', url: `/api/v1/leads/${ids[0]}`, payload: { properties: { step: 'updated' } } });
    expect(updated.statusCode).toBe(200);

    await drainAtLeast(ws, '/api/v1/changes', 6);
    // 6 events: limit 6 is one page with a poll link; limit 5 needs a second page
    const whole = await read(ws, '/api/v1/changes?limit=6');
    expect(whole.events.map((event) => event.type)).toEqual([...Array(5).fill('lead.created'), 'lead.updated']);
    expect(whole.events.map((event) => event.data.id)).toEqual([...ids, ids[0]]);
    expect(whole.next).toBeUndefined();
    expect(whole.poll).toBeDefined();
    expect(Object.keys(whole.body)).toEqual(['data']);
    for (const event of whole.events) {
      expect(Object.keys(event).sort()).toEqual(['data', 'id', 'timestamp', 'type']);
      expect(event.id).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(event.timestamp).toMatch(TIMESTAMP);
    }
    const byFive = await read(ws, '/api/v1/changes?limit=5');
    expect(byFive.events).toHaveLength(5);
    expect(byFive.next).toBeDefined();
    expect(byFive.poll).toBeUndefined();
    const rest = await read(ws, byFive.next!);
    expect(rest.events).toEqual(whole.events.slice(5));
    expect(rest.poll).toBeDefined();

    const paged = await drain(ws, '/api/v1/changes?limit=2');
    expect(paged.pages).toBe(3);
    expect(paged.events).toEqual(whole.events);

    // the poll link answers nothing until something changes, then exactly that
    const idle = await read(ws, paged.poll);
    expect(idle.events).toEqual([]);
    expect(idle.poll).toBeDefined();
    const later = await createLead(ws, 'page-later');
    const polled = await drainAtLeast(ws, idle.poll!, 1);
    expect(polled.events.map((event) => event.data.id)).toEqual([later]);
    expect((await read(ws, polled.poll!)).events).toEqual([]);
  });

  it('C11.1: types= keeps only those types; unknown types and a cursor of other types are 400 under details.parameters', async () => {
    const ws = await t.createWorkspace('Feed types');
    const id = await createLead(ws, 'typed');
    expect((await t.as(ws, { method: 'PATCH', url: `/api/v1/leads/${id}`, payload: { properties: { step: 'x' } } })).statusCode).toBe(200);
    expect((await t.as(ws, { method: 'PATCH', url: `/api/v1/leads/${id}`, payload: { properties: { step: 'y' } } })).statusCode).toBe(200);
    expect((await t.as(ws, { method: 'DELETE', url: `/api/v1/leads/${id}` })).statusCode).toBe(204);
    await drainAtLeast(ws, '/api/v1/changes', 4);

    const updates = await drain(ws, '/api/v1/changes?types=lead.updated&limit=1');
    expect(updates.events.map((event) => event.type)).toEqual(['lead.updated', 'lead.updated']);
    const two = await drain(ws, '/api/v1/changes?types=lead.deleted,lead.created');
    expect(two.events.map((event) => event.type)).toEqual(['lead.created', 'lead.deleted']);

    const unknown = await t.as(ws, { method: 'GET', url: '/api/v1/changes?types=lead.created,lead.exploded' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe('invalid_request');
    expect(unknown.json().details.parameters.types).toContain('lead.exploded');
    const blank = await t.as(ws, { method: 'GET', url: '/api/v1/changes?types=' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().details.parameters.types).toBeDefined();

    const withOffset = await t.as(ws, { method: 'GET', url: '/api/v1/changes?offset=1' });
    expect(withOffset.statusCode).toBe(400);
    expect(withOffset.json().details.parameters.offset).toBeDefined();
    const zero = await t.as(ws, { method: 'GET', url: '/api/v1/changes?limit=0' });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().details.parameters.limit).toBeDefined();
    const lowered = await t.as(ws, { method: 'GET', url: '/api/v1/changes?limit=101' });
    expect(lowered.statusCode).toBe(200);

    const cursor = new URL(updates.poll).searchParams.get('cursor')!;
    const otherTypes = await t.as(ws, { method: 'GET', url: `/api/v1/changes?types=lead.created&cursor=${encodeURIComponent(cursor)}` });
    expect(otherTypes.statusCode).toBe(400);
    expect(otherTypes.json().details.parameters.cursor).toBeDefined();
    const altered = await t.as(ws, { method: 'GET', url: `/api/v1/changes?types=lead.updated&cursor=${encodeURIComponent(`x${cursor}`)}` });
    expect(altered.statusCode).toBe(400);
    // the same types in another order are the same filter
    expect((await t.as(ws, { method: 'GET', url: `/api/v1/changes?types=lead.deleted,lead.created&cursor=${encodeURIComponent(new URL(two.poll).searchParams.get('cursor')!)}` })).statusCode).toBe(200);
  });

  it('C11.1: a stored cursor resumes where it stopped, on another server of the same database; the id is the webhook-id of the delivery', async () => {
    const ws = await t.createWorkspace('Feed resume');
    const hook = await t.as(ws, { method: 'POST', url: '/api/v1/webhooks', payload: { url: `${receiver.url}/resume`, events: ['lead.created'] } });
    expect(hook.statusCode).toBe(201);
    const first = await createLead(ws, 'resume-1');
    const stored = (await drainAtLeast(ws, '/api/v1/changes', 1)).poll;
    const second = await createLead(ws, 'resume-2');
    const third = await createLead(ws, 'resume-3');
    await drainAtLeast(ws, '/api/v1/changes', 3);

    const again = await createTestApp(kind, { db: t.db });
    try {
      const otherBase = await again.listen();
      const resumed = await drain(ws, stored.replace(base, otherBase));
      expect(resumed.events.map((event) => event.data.id)).toEqual([second, third]);
    } finally {
      await again.close();
    }

    await t.services.webhookWorker.runOnce();
    const sent = receiver.received.filter((entry) => entry.path === '/resume');
    expect(sent).toHaveLength(3);
    const feed = (await drain(ws, '/api/v1/changes')).events;
    expect(feed.map((event) => event.data.id)).toEqual([first, second, third]);
    for (const entry of sent) {
      const event = feed.find((item) => item.id === entry.headers['webhook-id']);
      expect(event).toBeDefined();
      expect(JSON.parse(entry.body)).toEqual({ type: event!.type, timestamp: event!.timestamp, data: event!.data });
    }
  });

  it(`C11.1: events are kept ${CHANGE_RETENTION_DAYS} days: exactly that old stays, a millisecond older is pruned`, async () => {
    expect(CHANGE_RETENTION_DAYS).toBe(30);
    const ws = await t.createWorkspace('Feed retention');
    const store = new Store(t.db.database).forWorkspace(ws.id);
    const eventAt = Date.parse('2026-01-10T08:00:00.000Z');
    await store.transaction((repos) => emitEvent(repos, 'lead.created', { id: 'old' }, new Date(eventAt).toISOString()));
    await store.transaction((repos) => emitEvent(repos, 'lead.created', { id: 'newer' }, new Date(eventAt + DAY_MS).toISOString()));
    const ids = async () => (await drain(ws, '/api/v1/changes')).events.map((event) => event.data.id);
    await drainAtLeast(ws, '/api/v1/changes', 2);
    expect(await ids()).toEqual(['old', 'newer']);
    const atEdge = await t.services.trackingMaintenance.run(eventAt + 30 * DAY_MS);
    expect(atEdge.changesPruned).toBe(0);
    expect(await ids()).toEqual(['old', 'newer']);
    const past = await t.services.trackingMaintenance.run(eventAt + 30 * DAY_MS + 1);
    expect(past.changesPruned).toBe(1);
    expect(await ids()).toEqual(['newer']);
  });

  it('C11.1, C8.4: an erasure deletes the events that name the person from the feed', async () => {
    const ws = await t.createWorkspace('Feed erasure');
    const email = `erased-${Date.now()}@example.com`;
    const made = await t.as(ws, { method: 'POST', url: '/api/v1/identities', payload: { email, name: 'Ada Erased' } });
    expect(made.statusCode).toBe(201);
    const theirLead = await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: 'theirs', identity_id: made.json().data.id } });
    expect(theirLead.statusCode).toBe(201);
    // a note names only its lead
    const note = await t.as(ws, { method: 'POST', url: `/api/v1/leads/${theirLead.json().data.id}/notes`, payload: { body: 'Called Ada about her contract' } });
    expect(note.statusCode).toBe(201);
    await createLead(ws, 'kept');
    const before = await drainAtLeast(ws, '/api/v1/changes', 4);
    expect(before.events.map((event) => event.type).sort()).toEqual(['identity.created', 'lead.created', 'lead.created', 'note.created']);
    expect(JSON.stringify(before.events)).toContain(email);
    const erased = await t.as(ws, { method: 'POST', url: '/api/v1/erasures', payload: { email } });
    expect(erased.statusCode).toBe(200);
    const after = await drain(ws, '/api/v1/changes');
    expect(after.events.map((event) => event.type)).toEqual(['lead.created']);
    expect(after.events[0]!.data.code).toBe('kept');
    expect(JSON.stringify(after.events)).not.toContain(email);
    expect(JSON.stringify(after.events)).not.toContain('Called Ada');
  });

  it('C11.1: a reader polling from its cursor while many writers commit concurrently sees every change exactly once', async () => {
    const ws = await t.createWorkspace('Feed concurrency');
    let cursorUrl = (await drain(ws, '/api/v1/changes?types=lead.created&limit=7')).poll;
    expect(cursorUrl).toContain('cursor=');
    const seen: string[] = [];
    let writing = true;
    const reader = (async () => {
      while (writing) {
        const page = await drain(ws, cursorUrl);
        seen.push(...page.events.map((event) => event.data.id!));
        cursorUrl = page.poll;
      }
    })();
    const written: string[] = [];
    const writers = Array.from({ length: 8 }, async (_, writer) => {
      for (let i = 0; i < 15; i++) written.push(await createLead(ws, `concurrent-${writer}-${i}`));
    });
    await Promise.all(writers);
    writing = false;
    await reader;
    const rest = await drainAtLeast(ws, cursorUrl, 120 - seen.length);
    seen.push(...rest.events.map((event) => event.data.id!));
    expect((await drain(ws, rest.poll)).events).toEqual([]);
    expect(written).toHaveLength(120);
    expect(seen).toHaveLength(120);
    expect(new Set(seen)).toEqual(new Set(written));
  });

  it.runIf(kind === 'postgres')('C11.1: on PostgreSQL transaction ids order as numbers, not as text (9 before 10)', async () => {
    const ws = await t.createWorkspace('Feed xid order');
    const client = new pg.Client({ connectionString: t.db.url });
    await client.connect();
    try {
      // rows as transactions 10, 9 and 100 wrote them (ids long past, so below the visible horizon)
      for (const xid of ['10', '9', '100']) {
        await client.query(`insert into changes (workspace_id, xid, id, type, payload, created_at) values ($1, $2::xid8, $3, 'lead.created', $4, now())`, [
          ws.id,
          xid,
          `msg_${xid}`,
          JSON.stringify({ type: 'lead.created', timestamp: new Date().toISOString(), data: { id: xid } }),
        ]);
      }
    } finally {
      await client.end();
    }
    const one = await drain(ws, '/api/v1/changes?limit=1');
    expect(one.events.map((event) => event.data.id)).toEqual(['9', '10', '100']);
  });

  it.runIf(kind === 'postgres')('C11.1: on PostgreSQL a change committed after a later one is not skipped by a reader that moved past it', async () => {
    const ws = await t.createWorkspace('Feed out of order');
    const clients = [new pg.Client({ connectionString: t.db.url }), new pg.Client({ connectionString: t.db.url })] as const;
    await Promise.all(clients.map((client) => client.connect()));
    const [a, b] = clients;
    const insert = (client: pg.Client, id: string) =>
      client.query(`insert into changes (workspace_id, id, type, payload, created_at) values ($1, $2, 'lead.created', $3, now())`, [
        ws.id,
        `msg_${id}`,
        JSON.stringify({ type: 'lead.created', timestamp: new Date().toISOString(), data: { id } }),
      ]);
    const ids = (page: { events: ChangeEvent[] }) => page.events.map((event) => event.data.id);
    try {
      let cursor = (await drain(ws, '/api/v1/changes')).poll;

      // A inserts first (the lower position) and stays open; B inserts after it and commits
      await a.query('begin');
      await insert(a, 'a');
      await b.query('begin');
      await insert(b, 'b');
      await b.query('commit');
      const whileOpen = await drain(ws, cursor);
      expect(ids(whileOpen)).toEqual([]);
      cursor = whileOpen.poll;
      await a.query('commit');
      const afterCommit = await drainAtLeast(ws, cursor, 2);
      expect(ids(afterCommit)).toEqual(['a', 'b']);
      cursor = afterCommit.poll;

      // C takes its transaction id first but inserts last (the higher position) and commits while D, with
      // a later transaction id and a lower position, is still open: C is served, D must still follow it
      await a.query('begin');
      await a.query('select pg_current_xact_id()');
      await b.query('begin');
      await insert(b, 'd');
      await insert(a, 'c');
      await a.query('commit');
      const beforeD = await drainAtLeast(ws, cursor, 1);
      expect(ids(beforeD)).toEqual(['c']);
      cursor = beforeD.poll;
      await b.query('commit');
      const afterD = await drainAtLeast(ws, cursor, 1);
      expect(ids(afterD)).toEqual(['d']);
      expect(ids(await drain(ws, afterD.poll))).toEqual([]);
      expect(ids(await drain(ws, '/api/v1/changes'))).toEqual(['a', 'b', 'c', 'd']);
      expect(ids(await drain(ws, '/api/v1/changes?limit=1'))).toEqual(['a', 'b', 'c', 'd']);
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
  });
});
