/**
 * Webhooks (CONTRACT C8.5) on both stores, delivered to a real local
 * receiver: endpoints managed through the API (the secret shown once),
 * events written with their change and delivered signed the Standard
 * Webhooks way (verified with the `standardwebhooks` package), retries with
 * the same webhook-id and the attempts in the delivery log, an endpoint
 * marked failing, no redirects, test events, and private targets refused
 * at creation and again at delivery.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOKS } from '../../src/config.js';
import { Store } from '../../src/repositories/index.js';
import { WebhookDeliveryWorker } from '../../src/services/webhooks/delivery-worker.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

interface Delivery {
  id: string;
  message_id: string;
  event_type: string;
  status: string;
  attempts: number;
  log: { attempt: number; response_code: number | null; duration_ms: number; error: string | null }[];
}

const settings = { allowPrivate: true, retryBaseMs: 40, pollMs: 20 };

describe.each(storeKinds())('webhooks on %s (C8.5)', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp(kind, { webhooks: settings });
    ws = await t.createWorkspace('Webhooks A');
    other = await t.createWorkspace('Webhooks B');
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const create = async (body: Record<string, unknown>, workspace = ws) =>
    t.as(workspace, { method: 'POST', url: '/api/v1/webhooks', payload: body });
  const deliveries = async (webhookId: string) =>
    (await t.as(ws, { method: 'GET', url: `/api/v1/webhooks/${webhookId}/deliveries?limit=100` })).json() as { data: Delivery[] };
  /** Runs the delivery worker until `done`, for at most `ms`. */
  async function deliverUntil(done: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error('not delivered in time');
      await t.services.webhookWorker.runOnce();
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
  }
  const forPath = (path: string) => receiver.received.filter((entry) => entry.path === path);

  it('C8.5: endpoints are created (secret shown once), listed, read, updated and deleted; other workspaces see none', async () => {
    const created = await create({ url: `${receiver.url}/crud`, events: ['lead.created'], description: 'CRM sync' });
    expect(created.statusCode).toBe(201);
    const body = created.json() as { data: Record<string, unknown> };
    expect(body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(body.data).toMatchObject({ url: `${receiver.url}/crud`, events: ['lead.created'], description: 'CRM sync', enabled: true, status: 'active' });
    const id = body.data.id as string;
    expect(created.headers.location).toBe(`/api/v1/webhooks/${id}`);
    const read = await t.as(ws, { method: 'GET', url: `/api/v1/webhooks/${id}` });
    expect(read.statusCode).toBe(200);
    expect(read.json().data.secret).toBeUndefined();
    const list = await t.as(ws, { method: 'GET', url: '/api/v1/webhooks' });
    expect((list.json() as { data: { id: string; secret?: string }[] }).data.map((item) => item.id)).toContain(id);
    expect(JSON.stringify(list.json())).not.toContain('whsec_');
    const patched = await t.as(ws, { method: 'PATCH', url: `/api/v1/webhooks/${id}`, payload: { events: ['lead.updated', 'lead.deleted'], enabled: false } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({ events: ['lead.updated', 'lead.deleted'], enabled: false });
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const foreign = await t.as(other, { method, url: `/api/v1/webhooks/${id}`, ...(method === 'PATCH' ? { payload: { enabled: true } } : {}) });
      expect(foreign.statusCode).toBe(404);
    }
    expect((await t.as(other, { method: 'POST', url: `/api/v1/webhooks/${id}/test` })).statusCode).toBe(404);
    expect((await t.as(other, { method: 'GET', url: `/api/v1/webhooks/${id}/deliveries` })).statusCode).toBe(404);
    expect((await t.as(ws, { method: 'DELETE', url: `/api/v1/webhooks/${id}` })).statusCode).toBe(204);
    expect((await t.as(ws, { method: 'GET', url: `/api/v1/webhooks/${id}` })).statusCode).toBe(404);
  });

  it('C8.5: bad endpoints are 400: unknown events, no events, not http(s)', async () => {
    for (const body of [
      { url: `${receiver.url}/x`, events: ['lead.exploded'] },
      { url: `${receiver.url}/x`, events: [] },
      { url: 'ftp://example.com/hook', events: ['lead.created'] },
      { url: 'not a url', events: ['lead.created'] },
      { events: ['lead.created'] },
    ]) {
      const response = await create(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('C8.5: a change writes its event; the delivery is signed the Standard Webhooks way and verifies', async () => {
    const created = (await create({ url: `${receiver.url}/signed`, events: ['lead.created', 'lead.updated', 'lead.deleted'] })).json() as {
      data: { id: string; secret: string };
    };
    const lead = (await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: 'hooked', source: 'website' } })).json() as {
      data: { id: string };
    };
    // another workspace's changes never reach this endpoint
    await t.as(other, { method: 'POST', url: '/api/v1/leads', payload: { code: 'not-ours' } });
    await t.as(ws, { method: 'PATCH', url: `/api/v1/leads/${lead.data.id}`, payload: { properties: { stage: 'demo' } } });
    await t.as(ws, { method: 'DELETE', url: `/api/v1/leads/${lead.data.id}` });
    await deliverUntil(() => forPath('/signed').length >= 3);
    const verifier = new Webhook(created.data.secret);
    const events = forPath('/signed').map((entry) => verifier.verify(entry.body, entry.headers) as { type: string; timestamp: string; data: { id: string; code: string } });
    expect(events.map((event) => event.type).sort()).toEqual(['lead.created', 'lead.deleted', 'lead.updated']);
    for (const event of events) {
      expect(Object.keys(event).sort()).toEqual(['data', 'timestamp', 'type']);
      expect(event.data).toMatchObject({ id: lead.data.id, code: 'hooked' });
    }
    // a body altered on the way does not verify
    const first = forPath('/signed')[0]!;
    expect(() => verifier.verify(first.body.replace('hooked', 'forged'), first.headers)).toThrow();
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(first.body, first.headers)).toThrow();
    const log = (await deliveries(created.data.id)).data;
    expect(log.map((entry) => entry.status)).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('C8.5, C6.4: adding an identity to a static list and removing it fire list.member_added and list.member_removed', async () => {
    await create({ url: `${receiver.url}/members`, events: ['list.member_added', 'list.member_removed'] });
    const identity = (await t.as(ws, { method: 'POST', url: '/api/v1/identities', payload: { email: 'member@example.org' } })).json() as { data: { id: string } };
    const list = (await t.as(ws, { method: 'POST', url: '/api/v1/lists', payload: { name: 'Hand-picked' } })).json() as { data: { id: string } };
    const path = `/api/v1/lists/${list.data.id}/identities`;
    expect((await t.as(ws, { method: 'POST', url: path, payload: { identity_ids: [identity.data.id] } })).statusCode).toBe(200);
    // already a member: nothing added, no event
    expect((await t.as(ws, { method: 'POST', url: path, payload: { identity_ids: [identity.data.id] } })).json()).toEqual({ data: { added: 0 } });
    expect((await t.as(ws, { method: 'DELETE', url: `${path}/${identity.data.id}` })).statusCode).toBe(204);
    await deliverUntil(() => forPath('/members').length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await t.services.webhookWorker.runOnce();
    const events = forPath('/members').map((entry) => JSON.parse(entry.body) as { type: string; data: unknown });
    expect(events.map((event) => event.type).sort()).toEqual(['list.member_added', 'list.member_removed']);
    for (const event of events) expect(event.data).toEqual({ list_id: list.data.id, identity_id: identity.data.id });
  });

  it('C8.5: a receiver that fails three times then succeeds gets the event again after each failure, with the same webhook-id; the log shows the attempts', async () => {
    const created = (await create({ url: `${receiver.url}/flaky`, events: ['identity.created'] })).json() as { data: { id: string; secret: string } };
    let calls = 0;
    receiver.respond = (entry) => (entry.path === '/flaky' ? (++calls <= 3 ? 503 : 200) : 200);
    expect((await t.as(ws, { method: 'POST', url: '/api/v1/identities', payload: { email: 'flaky@example.com' } })).statusCode).toBe(201);
    await deliverUntil(async () => (await deliveries(created.data.id)).data[0]?.status === 'delivered');
    receiver.respond = () => 200;
    const attempts = forPath('/flaky');
    expect(attempts).toHaveLength(4);
    expect(new Set(attempts.map((entry) => entry.headers['webhook-id'])).size).toBe(1);
    const verifier = new Webhook(created.data.secret);
    for (const entry of attempts) expect(verifier.verify(entry.body, entry.headers)).toMatchObject({ type: 'identity.created' });
    const [entry] = (await deliveries(created.data.id)).data;
    expect(entry).toMatchObject({ status: 'delivered', attempts: 4, event_type: 'identity.created', message_id: attempts[0]!.headers['webhook-id'] });
    expect(entry!.log.map((attempt) => attempt.response_code)).toEqual([503, 503, 503, 200]);
    expect(entry!.log.map((attempt) => attempt.attempt)).toEqual([1, 2, 3, 4]);
    expect(entry!.log.every((attempt) => attempt.duration_ms >= 0)).toBe(true);
  });

  it('C8.5: redirects are not followed (a 3xx is a failed attempt); an endpoint failing again and again is marked failing; a test event on demand', async () => {
    const target = (await create({ url: `${receiver.url}/moved`, events: ['lead.created'] })).json() as { data: { id: string } };
    receiver.respond = (entry) => (entry.path === '/moved' ? { status: 302, headers: { location: `${receiver.url}/elsewhere` } } : 200);
    expect((await t.as(ws, { method: 'POST', url: `/api/v1/webhooks/${target.data.id}/test` })).statusCode).toBe(202);
    await deliverUntil(async () => ((await deliveries(target.data.id)).data[0]?.attempts ?? 0) >= 5);
    receiver.respond = () => 200;
    expect(forPath('/elsewhere')).toHaveLength(0);
    const [entry] = (await deliveries(target.data.id)).data;
    expect(entry).toMatchObject({ event_type: 'webhook.test', status: 'pending' });
    expect(entry!.log[0]).toMatchObject({ response_code: 302, error: 'answered 302' });
    expect((await t.as(ws, { method: 'GET', url: `/api/v1/webhooks/${target.data.id}` })).json().data.status).toBe('failing');
    // it recovers when a delivery succeeds
    await deliverUntil(async () => (await deliveries(target.data.id)).data[0]?.status === 'delivered');
    expect((await t.as(ws, { method: 'GET', url: `/api/v1/webhooks/${target.data.id}` })).json().data.status).toBe('active');
    expect(JSON.parse(forPath('/moved').at(-1)!.body)).toMatchObject({ type: 'webhook.test' });
  });

  it('C8.5: a private address is refused at delivery time, after resolution, when WEBHOOK_ALLOW_PRIVATE is off', async () => {
    const created = (await create({ url: `${receiver.url}/private`, events: ['lead.created'] })).json() as { data: { id: string } };
    await t.as(ws, { method: 'POST', url: '/api/v1/leads', payload: { code: 'private' } });
    const strict = new WebhookDeliveryWorker(new Store(t.db.database), { ...DEFAULT_WEBHOOKS, retryBaseMs: 40 });
    const deadline = Date.now() + 5_000;
    while (((await deliveries(created.data.id)).data[0]?.attempts ?? 0) < 1 && Date.now() < deadline) await strict.runOnce();
    const [entry] = (await deliveries(created.data.id)).data;
    expect(entry!.log[0]!.error).toMatch(/^refused: /);
    expect(forPath('/private')).toHaveLength(0);
    await t.as(ws, { method: 'PATCH', url: `/api/v1/webhooks/${created.data.id}`, payload: { enabled: false } });
  });
});

describe.each(storeKinds())('webhook targets without WEBHOOK_ALLOW_PRIVATE on %s (C8.5)', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Webhooks strict');
  });
  afterAll(async () => t?.close());

  it('C8.5: loopback and private URLs are 400 at creation and at update', async () => {
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://10.1.2.3/hook',
      'http://192.168.1.10/hook',
      'http://172.16.0.5/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://0.0.0.0/hook',
    ]) {
      const response = await t.as(ws, { method: 'POST', url: '/api/v1/webhooks', payload: { url, events: ['lead.created'] } });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message).toMatch(/loopback or private/);
    }
    const created = await t.as(ws, { method: 'POST', url: '/api/v1/webhooks', payload: { url: 'https://203.0.113.10/hook', events: ['lead.created'] } });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as string;
    const moved = await t.as(ws, { method: 'PATCH', url: `/api/v1/webhooks/${id}`, payload: { url: 'http://127.0.0.1/hook' } });
    expect(moved.statusCode).toBe(400);
    expect((await t.as(ws, { method: 'GET', url: `/api/v1/webhooks/${id}` })).json().data.url).toBe('https://203.0.113.10/hook');
  });
});
