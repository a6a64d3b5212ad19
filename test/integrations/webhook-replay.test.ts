/**
 * Webhook retry and replay (CONTRACT C11.2) on both stores, to a real local
 * receiver: a delivery sent again at once (delivered or given up) with the
 * same webhook-id and body; a replay of every event since a time, only
 * of the types the endpoint subscribes to, each with the
 * webhook-id it was first sent with (the feed's id), signed and verified
 * with the Standard Webhooks library; `since` bounded to the feed's 30 days
 * at its exact edge; unknown endpoints and deliveries 404.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { emitEvent } from '../../src/services/webhooks/events.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

interface Delivery {
  id: string;
  message_id: string;
  event_type: string;
  status: string;
  attempts: number;
}

const DAY_MS = 86_400_000;
const settings = { allowPrivate: true, retryBaseMs: 40, pollMs: 20 };

describe.each(storeKinds())('webhook retry and replay on %s (C11.2)', (kind) => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp(kind, { webhooks: settings });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const forPath = (path: string) => receiver.received.filter((entry) => entry.path === path);
  async function hook(ws: TestWorkspace, path: string, events: string[]): Promise<{ id: string; secret: string }> {
    const made = await t.as(ws, { method: 'POST', url: '/api/v1/webhooks', payload: { url: `${receiver.url}${path}`, events } });
    expect(made.statusCode).toBe(201);
    return made.json().data as { id: string; secret: string };
  }
  const deliveries = async (ws: TestWorkspace, id: string) =>
    ((await t.as(ws, { method: 'GET', url: `/api/v1/webhooks/${id}/deliveries?limit=100` })).json() as { data: Delivery[] }).data;
  async function deliverUntil(done: () => boolean, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done()) {
      if (Date.now() > deadline) throw new Error('not delivered in time');
      await t.services.webhookWorker.runOnce();
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
  }
  /** The feed once it holds `count` events (on PostgreSQL a change waits for older writing transactions of the server to end). */
  async function feed(ws: TestWorkspace, count: number): Promise<{ id: string; type: string }[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const events = ((await t.as(ws, { method: 'GET', url: '/api/v1/changes?limit=100' })).json() as { data: { id: string; type: string }[] }).data;
      if (events.length >= count || Date.now() > deadline) return events;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('C11.2: a delivery is sent again at once, delivered or given up, with the same webhook-id and body', async () => {
    const ws = await t.createWorkspace('Retry');
    const endpoint = await hook(ws, '/retry', ['lead.created']);
    receiver.respond = (request) => (request.path === '/retry' && forPath('/retry').length === 1 ? 500 : 200);
    expect((await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: 'retry-me' } })).statusCode).toBe(201);
    await deliverUntil(() => forPath('/retry').length === 2);
    const [delivered] = await deliveries(ws, endpoint.id);
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 2 });

    const retried = await t.as(ws, { method: 'POST', url: `/api/v1/webhooks/${endpoint.id}/deliveries/${delivered!.id}/retry` });
    expect(retried.statusCode).toBe(202);
    expect(retried.json().data).toMatchObject({ id: delivered!.id, status: 'pending', message_id: delivered!.message_id });
    await t.services.webhookWorker.runOnce();
    const sent = forPath('/retry');
    expect(sent).toHaveLength(3);
    expect(sent[2]!.headers['webhook-id']).toBe(delivered!.message_id);
    expect(sent[2]!.body).toBe(sent[0]!.body);
    expect(() => new Webhook(endpoint.secret).verify(sent[2]!.body, sent[2]!.headers)).not.toThrow();
    expect((await deliveries(ws, endpoint.id))[0]).toMatchObject({ status: 'delivered', attempts: 3 });

    // a delivery given up (failed) is sent once more and fails again at once if the receiver still refuses
    const down = await hook(ws, '/retry-down', ['lead.updated']);
    receiver.respond = (request) => (request.path === '/retry-down' ? 500 : 200);
    const lead = (await t.as(ws, { method: 'GET', url: '/api/v1/leads?limit=1' })).json().data[0] as { id: string };
    expect((await t.as(ws, { method: 'PATCH', url: `/api/v1/leads/${lead.id}`, payload: { properties: { n: 1 } } })).statusCode).toBe(200);
    const { WebhookDeliveryWorker } = await import('../../src/services/webhooks/delivery-worker.js');
    await new WebhookDeliveryWorker(new Store(t.db.database), settings, () => Date.now() + 26 * 3_600_000).runOnce();
    const [failed] = await deliveries(ws, down.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    receiver.respond = () => 200;
    expect((await t.as(ws, { method: 'POST', url: `/api/v1/webhooks/${down.id}/deliveries/${failed!.id}/retry` })).statusCode).toBe(202);
    await t.services.webhookWorker.runOnce();
    expect(forPath('/retry-down').map((entry) => entry.headers['webhook-id'])).toEqual([failed!.message_id, failed!.message_id]);
    expect((await deliveries(ws, down.id))[0]).toMatchObject({ status: 'delivered', attempts: 2 });

    // another endpoint's delivery, an unknown one, a malformed id: 404
    for (const [hookId, deliveryId] of [
      [down.id, delivered!.id],
      [endpoint.id, '0190f6a2-76bb-71d3-b4a5-c26a9dbe5f1c'],
      [endpoint.id, 'nope'],
      ['0190f6a2-75aa-70c2-a394-b15f8cad4e0b', delivered!.id],
    ]) {
      const missing = await t.as(ws, { method: 'POST', url: `/api/v1/webhooks/${hookId}/deliveries/${deliveryId}/retry` });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error).toBe('not_found');
    }
  });

  it('C11.2: a replay re-sends every event since a time, of the subscribed types, with the webhook-ids of the feed', async () => {
    const ws = await t.createWorkspace('Replay');
    const early = await hook(ws, '/first', ['lead.created', 'lead.updated']);
    const codes = ['r1', 'r2', 'r3'];
    const ids: string[] = [];
    for (const code of codes) {
      const made = await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code } });
      ids.push((made.json().data as { id: string }).id);
    }
    expect((await t.as(ws, { method: 'PATCH', url: `/api/v1/leads/${ids[0]}`, payload: { properties: { n: 1 } } })).statusCode).toBe(200);
    expect((await t.as(ws, { method: 'DELETE', url: `/api/v1/leads/${ids[1]}` })).statusCode).toBe(204);
    await deliverUntil(() => forPath('/first').length === 4);

    // an endpoint made afterwards, for created and deleted only, replays from before the first lead
    const late = await hook(ws, '/late', ['lead.created', 'lead.deleted']);
    const events = await feed(ws, 5);
    expect(events.map((event) => event.type)).toEqual(['lead.created', 'lead.created', 'lead.created', 'lead.updated', 'lead.deleted']);
    const since = new Date(Date.now() - 60_000).toISOString();
    const replayed = await t.as(ws, { method: 'POST', url: `/api/v1/webhooks/${late.id}/replay`, payload: { since } });
    expect(replayed.statusCode).toBe(202);
    expect(replayed.json()).toEqual({ data: { queued: 4 } });
    await deliverUntil(() => forPath('/late').length === 4);
    const wanted = events.filter((event) => event.type !== 'lead.updated');
    const lateSent = forPath('/late');
    // sent in parallel: the same set of ids, in any order of arrival
    expect(lateSent.map((entry) => entry.headers['webhook-id']).sort()).toEqual(wanted.map((event) => event.id).sort());
    for (const entry of lateSent) expect(() => new Webhook(late.secret).verify(entry.body, entry.headers)).not.toThrow();

    // the first endpoint's replay sends each event again with the id and body it was first sent with
    const again = await t.as(ws, { method: 'POST', url: `/api/v1/webhooks/${early.id}/replay`, payload: { since } });
    expect(again.json()).toEqual({ data: { queued: 4 } });
    await deliverUntil(() => forPath('/first').length === 8);
    const first = forPath('/first');
    const byId = (list: typeof first) => Object.fromEntries(list.map((entry) => [entry.headers['webhook-id'], entry.body]));
    expect(byId(first.slice(4))).toEqual(byId(first.slice(0, 4)));
    expect(first.slice(4).map((entry) => entry.headers['webhook-id']).sort()).toEqual(
      events
        .filter((event) => event.type !== 'lead.deleted')
        .map((event) => event.id)
        .sort(),
    );

    // since after every event: nothing
    const none = await t.as(ws, { method: 'POST', url: `/api/v1/webhooks/${late.id}/replay`, payload: { since: new Date(Date.now() + 60_000).toISOString() } });
    expect(none.json()).toEqual({ data: { queued: 0 } });
  });

  it('C11.2: since is bounded to the 30 days the feed keeps, at its exact edge; bad input is 400, unknown endpoints 404', async () => {
    const ws = await t.createWorkspace('Replay bounds');
    const endpoint = await hook(ws, '/bounds', ['lead.created']);
    const store = new Store(t.db.database).forWorkspace(ws.id);
    const at = Date.now();
    await store.transaction((repos) => emitEvent(repos, 'lead.created', { id: 'old' }, new Date(at - 29 * DAY_MS).toISOString()));
    const service = t.services.forWorkspace(ws.id).webhooks;
    await expect(service.replay(endpoint.id, new Date(at - 30 * DAY_MS).toISOString(), at)).resolves.toEqual({ queued: 1 });
    await expect(service.replay(endpoint.id, new Date(at - 30 * DAY_MS - 1).toISOString(), at)).rejects.toMatchObject({
      details: { fields: { since: expect.stringContaining('30 days') } },
    });

    const tooOld = await t.as(ws, { method: 'POST', url: `/api/v1/webhooks/${endpoint.id}/replay`, payload: { since: new Date(Date.now() - 31 * DAY_MS).toISOString() } });
    expect(tooOld.statusCode).toBe(400);
    expect(tooOld.json().details.fields.since).toContain('30 days');
    for (const payload of [{}, { since: 'yesterday' }, { since: '2026-01-01T00:00:00Z', extra: 1 }]) {
      const bad = await t.as(ws, { method: 'POST', url: `/api/v1/webhooks/${endpoint.id}/replay`, payload });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toBe('invalid_request');
    }
    const unknown = await t.as(ws, { method: 'POST', url: '/api/v1/webhooks/0190f6a2-75aa-70c2-a394-b15f8cad4e0b/replay', payload: { since: new Date().toISOString() } });
    expect(unknown.statusCode).toBe(404);
  });
});
