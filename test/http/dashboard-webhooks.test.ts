/**
 * Webhooks in the dashboard's settings over HTTP, on both stores (CONTRACT
 * C7.3, C7.4, C8.5): an admin creates an endpoint (the `whsec_` secret is
 * answered this once, never listed), disables and enables it, sends a test
 * event that a real local receiver gets and the endpoint's deliveries show,
 * and deletes it. Members and viewers read the endpoints and deliveries but
 * change nothing (403); a change without the CSRF token is 403; another
 * workspace's endpoint is 404 like an unknown one and stays as it was.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { storeKinds } from '../helpers/stores.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  status: string;
  secret?: string;
}

interface Delivery {
  id: string;
  webhook_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_response_code: number | null;
  last_duration_ms: number | null;
  created_at: string;
  delivered_at: string | null;
}

describe.each(storeKinds())('webhooks in the dashboard on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let admin: DashboardSession;
  let memberSession: DashboardSession;
  let viewer: DashboardSession;
  let otherAdmin: DashboardSession;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp(kind, { webhooks: { allowPrivate: true } });
    base = await t.listen();
    receiver = await startReceiver();
    workspace = await t.createWorkspace('Dashboard webhooks');
    admin = await signIn(base, await member(t, workspace.id, 'admin'));
    memberSession = await signIn(base, await member(t, workspace.id, 'member'));
    viewer = await signIn(base, await member(t, workspace.id, 'viewer'));
    otherAdmin = await signIn(base, await member(t, (await t.createWorkspace('Other webhooks')).id, 'admin'));
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const list = async (session: DashboardSession) => {
    const answer = await dashboard(base, session, 'GET', '/webhooks');
    expect(answer.status).toBe(200);
    return answer.body.data as Endpoint[];
  };
  const create = (session: DashboardSession, path = '/hook') =>
    dashboard(base, session, 'POST', '/webhooks', { url: `${receiver.url}${path}`, events: ['lead.created', 'identity.identified'], description: 'CRM' });

  it('C8.5, C7.5: an admin creates an endpoint; the secret is answered once and never listed or read again', async () => {
    const created = await create(admin, '/once');
    expect(created.status).toBe(201);
    const endpoint = created.body.data as Endpoint;
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toMatchObject({ url: `${receiver.url}/once`, events: ['lead.created', 'identity.identified'], description: 'CRM', enabled: true, status: 'active' });
    const { secret, ...shown } = endpoint;
    const listed = await dashboard(base, viewer, 'GET', '/webhooks');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toContainEqual(shown);
    expect(listed.body.pagination).toMatchObject({ offset: 0, total: (listed.body.data as unknown[]).length });
    expect(JSON.stringify(listed.body)).not.toContain(secret as string);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    // the public API (the same service) sees the same endpoint, without its secret either
    const api = await t.as(workspace, { method: 'GET', url: `/api/v1/webhooks/${endpoint.id}` });
    expect(api.json().data).toEqual(shown);
  });

  it('C8.5: the event catalogue is the one the API documents; unknown events and private-address rules come from the same service', async () => {
    const catalogue = await dashboard(base, viewer, 'GET', '/webhook-events');
    expect(catalogue.status).toBe(200);
    expect((catalogue.body.data as { type: string }[]).map((event) => event.type)).toEqual([
      'lead.created',
      'lead.updated',
      'lead.deleted',
      'identity.created',
      'identity.updated',
      'identity.identified',
      'list.member_added',
      'list.member_removed',
      'company.created',
      'company.updated',
      'alert.triggered',
      'note.created',
    ]);
    const unknown = await dashboard(base, admin, 'POST', '/webhooks', { url: `${receiver.url}/x`, events: ['lead.exploded'] });
    expect(unknown.status).toBe(400);
    const none = await dashboard(base, admin, 'POST', '/webhooks', { url: `${receiver.url}/x`, events: [] });
    expect(none.status).toBe(400);
    const notUrl = await dashboard(base, admin, 'POST', '/webhooks', { url: 'ftp://example.com/x', events: ['lead.created'] });
    expect(notUrl.status).toBe(400);
    expect(notUrl.body.error).toBeDefined();
  });

  it('C8.5: an admin disables and enables an endpoint, sends a test event; the receiver gets it and the deliveries show it', async () => {
    const endpoint = (await create(admin, '/test-event')).body.data as Endpoint;
    const disabled = await dashboard(base, admin, 'PATCH', `/webhooks/${endpoint.id}`, { enabled: false });
    expect(disabled.status).toBe(200);
    expect(disabled.body.data).toMatchObject({ id: endpoint.id, enabled: false });
    expect((await list(viewer)).find((item) => item.id === endpoint.id)?.enabled).toBe(false);
    expect((await dashboard(base, admin, 'PATCH', `/webhooks/${endpoint.id}`, { enabled: true })).body.data).toMatchObject({ enabled: true });

    const empty = await dashboard(base, viewer, 'GET', `/webhooks/${endpoint.id}/deliveries`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });

    const test = await dashboard(base, admin, 'POST', `/webhooks/${endpoint.id}/test`);
    expect(test.status).toBe(202);
    expect(test.body.data).toEqual({ queued: 1 });
    const pending = (await dashboard(base, viewer, 'GET', `/webhooks/${endpoint.id}/deliveries`)).body.data as Delivery[];
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ webhook_id: endpoint.id, event_type: 'webhook.test', status: 'pending', attempts: 0, last_response_code: null });

    const deadline = Date.now() + 10_000;
    while (receiver.received.filter((entry) => entry.path === '/test-event').length === 0) {
      if (Date.now() > deadline) throw new Error('the test event was not delivered');
      await t.services.webhookWorker.runOnce();
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    const received = receiver.received.filter((entry) => entry.path === '/test-event');
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ type: 'webhook.test', data: { webhook_id: endpoint.id } });

    const answer = await dashboard(base, memberSession, 'GET', `/webhooks/${endpoint.id}/deliveries`);
    expect(answer.status).toBe(200);
    const [delivered] = answer.body.data as Delivery[];
    expect(delivered).toMatchObject({ id: pending[0]!.id, event_type: 'webhook.test', status: 'delivered', attempts: 1, last_response_code: 200 });
    expect(delivered!.last_duration_ms).toBeGreaterThanOrEqual(0);
    expect(delivered!.delivered_at).not.toBeNull();
    expect(received[0]!.headers['webhook-id']).toBe((answer.body.data as { message_id: string }[])[0]!.message_id);

    expect((await dashboard(base, admin, 'DELETE', `/webhooks/${endpoint.id}`)).status).toBe(204);
    expect((await list(admin)).map((item) => item.id)).not.toContain(endpoint.id);
    expect((await dashboard(base, admin, 'GET', `/webhooks/${endpoint.id}/deliveries`)).status).toBe(404);
  });

  it('C7.4: members and viewers read endpoints and deliveries but cannot create, change, test or delete (403, nothing changes)', async () => {
    const endpoint = (await create(admin, '/roles')).body.data as Endpoint;
    const before = await list(admin);
    for (const session of [memberSession, viewer]) {
      expect((await dashboard(base, session, 'GET', `/webhooks/${endpoint.id}/deliveries`)).status).toBe(200);
      const refused = [
        await create(session, '/not-allowed'),
        await dashboard(base, session, 'PATCH', `/webhooks/${endpoint.id}`, { enabled: false }),
        await dashboard(base, session, 'POST', `/webhooks/${endpoint.id}/test`),
        await dashboard(base, session, 'DELETE', `/webhooks/${endpoint.id}`),
      ];
      for (const answer of refused) {
        expect(answer.status).toBe(403);
        expect(answer.body).toMatchObject({ error: 'forbidden', details: { required: 'admin' } });
      }
    }
    expect(await list(admin)).toEqual(before);
    expect((await dashboard(base, admin, 'GET', `/webhooks/${endpoint.id}/deliveries`)).body.data).toEqual([]);
  });

  it('C7.3: a change without the session CSRF token, or from another origin, is 403 and does nothing', async () => {
    const endpoint = (await create(admin, '/csrf')).body.data as Endpoint;
    const before = await list(admin);
    const noToken = { ...admin, csrf: '' };
    const attempts = [
      await create(noToken, '/forged'),
      await dashboard(base, noToken, 'PATCH', `/webhooks/${endpoint.id}`, { enabled: false }),
      await dashboard(base, noToken, 'POST', `/webhooks/${endpoint.id}/test`),
      await dashboard(base, noToken, 'DELETE', `/webhooks/${endpoint.id}`),
      await dashboard(base, admin, 'DELETE', `/webhooks/${endpoint.id}`, undefined, { origin: 'https://evil.example.com' }),
    ];
    for (const answer of attempts) expect(answer.status).toBe(403);
    expect(await list(admin)).toEqual(before);
    const noSession = await dashboard(base, undefined, 'GET', '/webhooks');
    expect(noSession.status).toBe(401);
  });

  it("C7.6, C8.5: another workspace's endpoint is 404 like an unknown one, and stays as it was", async () => {
    const theirs = (await create(otherAdmin, '/theirs')).body.data as Endpoint;
    const theirsBefore = await list(otherAdmin);
    expect((await list(admin)).map((item) => item.id)).not.toContain(theirs.id);
    for (const id of [theirs.id, randomUUID()]) {
      const answers = [
        await dashboard(base, admin, 'PATCH', `/webhooks/${id}`, { enabled: false }),
        await dashboard(base, admin, 'POST', `/webhooks/${id}/test`),
        await dashboard(base, admin, 'GET', `/webhooks/${id}/deliveries`),
        await dashboard(base, admin, 'DELETE', `/webhooks/${id}`),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(404);
        expect(answer.headers.get('x-workspace-id')).toBe(workspace.id);
      }
    }
    expect(await list(otherAdmin)).toEqual(theirsBefore);
    expect((await dashboard(base, otherAdmin, 'GET', `/webhooks/${theirs.id}/deliveries`)).body.data).toEqual([]);
  });
});
