/**
 * `client.changes()` against a real server over real HTTP, on both stores
 * (CONTRACT C11.1, C11.2): the feed as an async iterator that follows its
 * pages, polls at the end until its AbortSignal stops it, hands out the
 * cursor to store after each page, and resumes from a stored cursor without
 * skipping what was not handled; replay and retry through the client.
 */
import { createClient, LeadlightError, type ChangeEvent, type LeadlightClient } from '@leadlight/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

describe.each(storeKinds())('client.changes() on %s (C11.1)', (kind) => {
  let t: TestApp;
  let base: string;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp(kind, { webhooks: { allowPrivate: true, retryBaseMs: 40, pollMs: 20 } });
    base = await t.listen();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  async function setup(name: string): Promise<{ ws: TestWorkspace; client: LeadlightClient }> {
    const ws = await t.createWorkspace(name);
    return { ws, client: createClient({ baseUrl: base, apiKey: ws.production.key }) };
  }

  /** Takes `count` events from the feed (polling every 20 ms), then aborts it; answers them and the cursors stored. */
  async function take(client: LeadlightClient, count: number, options: { cursor?: string; limit?: number; types?: string[] } = {}, ms = 15_000) {
    const controller = new AbortController();
    const events: ChangeEvent[] = [];
    const cursors: string[] = [];
    const timeout = setTimeout(() => controller.abort(), ms);
    for await (const event of client.changes({ ...options, pollIntervalMs: 20, signal: controller.signal, onCursor: (cursor) => void cursors.push(cursor) })) {
      events.push(event);
      if (events.length === count) controller.abort();
    }
    clearTimeout(timeout);
    return { events, cursors, aborted: controller.signal.aborted };
  }

  it('C11.1: iterates every change oldest first across pages, polls for new ones, and stops quietly when aborted', async () => {
    const { client } = await setup('Client feed');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await client.leads.create({ code: `feed-${i}` })).id);
    const controller = new AbortController();
    const seen: ChangeEvent[] = [];
    const stored: string[] = [];
    const reading = (async () => {
      for await (const event of client.changes({ limit: 2, pollIntervalMs: 20, signal: controller.signal, onCursor: (cursor) => void stored.push(cursor) })) {
        seen.push(event);
        if (seen.length === 7) controller.abort();
      }
    })();
    // two more while the iterator is polling at the end of the feed
    while (seen.length < 5) await new Promise((resolve) => setTimeout(resolve, 10));
    for (let i = 5; i < 7; i++) made.push((await client.leads.create({ code: `feed-${i}` })).id);
    const timeout = setTimeout(() => controller.abort(), 15_000);
    await reading;
    clearTimeout(timeout);
    expect(seen.map((event) => (event.data as { id: string }).id)).toEqual(made);
    expect(seen.every((event) => event.type === 'lead.created' && /^msg_/.test(event.id))).toBe(true);
    // a cursor after each page of two (and after the last, partial page), never twice the same in a row
    expect(stored.length).toBeGreaterThanOrEqual(3);
    expect(stored.every((cursor, index) => index === 0 || cursor !== stored[index - 1])).toBe(true);

    // follow: false stops at the end
    const all: ChangeEvent[] = [];
    for await (const event of client.changes({ follow: false })) all.push(event);
    expect(all.map((event) => event.id)).toEqual(seen.map((event) => event.id));
  });

  it('C11.1: a stored cursor resumes after what was handled; a page left half-handled is given again, never skipped', async () => {
    const { client } = await setup('Client resume');
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await client.leads.create({ code: `resume-${i}` })).id);
    const first = await take(client, 3);
    const stored = first.cursors.at(-1)!;
    expect(first.events.map((event) => (event.data as { id: string }).id)).toEqual(made);

    for (let i = 3; i < 6; i++) made.push((await client.leads.create({ code: `resume-${i}` })).id);
    // a process that handles one event of a page of two, then crashes (breaks out)
    let kept: string | undefined;
    const crashed: string[] = [];
    const controller = new AbortController();
    for await (const event of client.changes({ cursor: stored, limit: 2, pollIntervalMs: 20, signal: controller.signal, onCursor: (cursor) => void (kept = cursor) })) {
      crashed.push((event.data as { id: string }).id);
      break;
    }
    expect(crashed).toEqual([made[3]]);
    expect(kept).toBeUndefined();
    // the next process resumes from the last stored cursor: the half-handled event again, then the rest, once each
    const resumed = await take(client, 3, { cursor: stored, limit: 2 });
    expect(resumed.events.map((event) => (event.data as { id: string }).id)).toEqual(made.slice(3));
    const later = await take(client, 1, { cursor: resumed.cursors.at(-1)! }, 300);
    expect(later.events).toEqual([]);
  });

  it('C11.1: types filter the iteration; an unknown type is a LeadlightError naming the parameter', async () => {
    const { client } = await setup('Client types');
    const lead = await client.leads.create({ code: 'typed' });
    await client.leads.update(lead.id, { properties: { step: 1 } });
    const updates = await take(client, 1, { types: ['lead.updated'] });
    expect(updates.events.map((event) => event.type)).toEqual(['lead.updated']);
    const failure = await (async () => {
      for await (const _ of client.changes({ types: ['lead.exploded'], follow: false })) return undefined;
      return undefined;
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LeadlightError);
    expect((failure as LeadlightError).status).toBe(400);
    expect(JSON.stringify((failure as LeadlightError).details)).toContain('types');
  });

  it('C11.2: replay and retry through the client send the events again with the ids of the feed', async () => {
    const { client } = await setup('Client replay');
    const since = new Date(Date.now() - 1000).toISOString();
    await client.leads.create({ code: 'replayed' });
    const endpoint = await client.webhooks.create({ url: `${receiver.url}/client-replay`, events: ['lead.created'] });
    expect(await client.webhooks.replay(endpoint.id, { since })).toEqual({ queued: 1 });
    const sent = () => receiver.received.filter((entry) => entry.path === '/client-replay');
    for (let i = 0; i < 200 && sent().length < 1; i++) {
      await t.services.webhookWorker.runOnce();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const [event] = (await take(client, 1)).events;
    expect(sent().map((entry) => entry.headers['webhook-id'])).toEqual([event!.id]);
    const [delivery] = (await client.webhooks.deliveries(endpoint.id)).data;
    const retried = await client.webhooks.retryDelivery(endpoint.id, delivery!.id);
    expect(retried).toMatchObject({ id: delivery!.id, status: 'pending', message_id: event!.id });
    await t.services.webhookWorker.runOnce();
    expect(sent().map((entry) => entry.headers['webhook-id'])).toEqual([event!.id, event!.id]);
  });
});
