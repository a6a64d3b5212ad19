/**
 * Alert rules over the API (CONTRACT C10.1, C10.2) on both stores: created
 * with their defaults, listed, read, changed and deleted; each trigger and
 * destination type with the fields it needs (a missing or foreign field is
 * 400 naming it, C3.5); lists and webhooks of another workspace are 403
 * (C3.7); Slack URLs follow the webhook address rules (C8.5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';

const SLACK = { type: 'slack', url: 'https://203.0.113.7/services/T/B/X' };

describe.each(storeKinds())('alerts on %s (C10.1)', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let listId: string;
  let otherListId: string;
  let webhookId: string;
  let otherWebhookId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Alerts A');
    other = await t.createWorkspace('Alerts B');
    const list = async (workspace: TestWorkspace) =>
      ((await t.as(workspace, { method: 'POST', url: '/api/v1/lists', payload: { name: 'Hot accounts' } })).json() as { data: { id: string } }).data.id;
    listId = await list(ws);
    otherListId = await list(other);
    const hook = async (workspace: TestWorkspace) =>
      (
        (await t.as(workspace, { method: 'POST', url: '/api/v1/webhooks', payload: { url: 'https://203.0.113.8/hook', events: ['alert.triggered'] } })).json() as {
          data: { id: string };
        }
      ).data.id;
    webhookId = await hook(ws);
    otherWebhookId = await hook(other);
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (payload: Record<string, unknown>, workspace = ws) => t.as(workspace, { method: 'POST', url: '/api/v1/alerts', payload });

  it('C10.1: creates an alert with its defaults (cooldown 1440, enabled, no filters) and reads it back', async () => {
    const created = await post({ name: 'Pricing', trigger: { type: 'page_viewed', path: '/pricing*' }, destination: SLACK });
    expect(created.statusCode).toBe(201);
    const alert = (created.json() as { data: Record<string, unknown> }).data;
    expect(alert).toMatchObject({ name: 'Pricing', trigger: { type: 'page_viewed', path: '/pricing*' }, filters: {}, destination: SLACK, cooldown_minutes: 1440, enabled: true });
    expect(created.headers.location).toBe(`/api/v1/alerts/${alert.id as string}`);
    const read = await t.as(ws, { method: 'GET', url: `/api/v1/alerts/${alert.id as string}` });
    expect(read.statusCode).toBe(200);
    expect((read.json() as { data: unknown }).data).toEqual(alert);
  });

  it('C10.1: takes every trigger type with its field, filters and every destination type', async () => {
    const triggers = [
      { type: 'segment_entered', list_id: listId },
      { type: 'score_reached', score: 60 },
      { type: 'page_viewed', path: '/docs/?/intro' },
      { type: 'company_returned', after_days: 14 },
      { type: 'conversion' },
    ];
    const destinations = [SLACK, { type: 'email', to: ['Sales@Acme.example', 'ceo@acme.example'] }, { type: 'webhook', webhook_id: webhookId }];
    for (const [index, trigger] of triggers.entries()) {
      const destination = destinations[index % destinations.length]!;
      const answer = await post({ name: `rule ${index}`, trigger, destination, filters: { company_known: true, countries: ['us', 'DE'], min_score: 20 }, cooldown_minutes: 5, enabled: false });
      expect(answer.statusCode, answer.body).toBe(201);
      const data = (answer.json() as { data: Record<string, unknown> }).data;
      expect(data.trigger).toEqual(trigger);
      expect(data.filters).toEqual({ company_known: true, countries: ['US', 'DE'], min_score: 20 });
      expect(data.destination).toEqual(destination.type === 'email' ? { type: 'email', to: ['sales@acme.example', 'ceo@acme.example'] } : destination);
      expect(data).toMatchObject({ cooldown_minutes: 5, enabled: false });
    }
  });

  it('C3.5: a trigger or destination missing its field, or with another type\'s field, is 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', trigger: { type: 'score_reached' }, destination: SLACK }, 'trigger.score'],
      [{ name: 'x', trigger: { type: 'conversion', score: 3 }, destination: SLACK }, 'trigger.score'],
      [{ name: 'x', trigger: { type: 'segment_entered' }, destination: SLACK }, 'trigger.list_id'],
      [{ name: 'x', trigger: { type: 'page_viewed', path: 'pricing' }, destination: SLACK }, 'trigger.path'],
      [{ name: 'x', trigger: { type: 'company_returned' }, destination: SLACK }, 'trigger.after_days'],
      [{ name: 'x', trigger: { type: 'conversion' }, destination: { type: 'email' } }, 'destination.to'],
      [{ name: 'x', trigger: { type: 'conversion' }, destination: { type: 'slack', to: ['a@b.example'] } }, 'destination.to'],
      [{ name: 'x', trigger: { type: 'conversion' }, destination: { type: 'webhook' } }, 'destination.webhook_id'],
      [{ name: 'x', trigger: { type: 'conversion' }, destination: SLACK, filters: { countries: ['U1'] } }, 'filters.countries'],
    ];
    for (const [body, field] of cases) {
      const answer = await post(body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      const error = answer.json() as { error: string; details: { fields: Record<string, string> } };
      expect(error.error).toBe('invalid_request');
      expect(Object.keys(error.details.fields), JSON.stringify(body)).toContain(field);
    }
  });

  it('C3.5: schema violations (unknown type, score out of range, cooldown 0, unknown key) are 400 with details.fields', async () => {
    for (const body of [
      { name: 'x', trigger: { type: 'moon_phase' }, destination: SLACK },
      { name: 'x', trigger: { type: 'score_reached', score: 101 }, destination: SLACK },
      { name: 'x', trigger: { type: 'conversion' }, destination: SLACK, cooldown_minutes: 0 },
      { name: 'x', trigger: { type: 'conversion' }, destination: SLACK, colour: 'red' },
      { name: '', trigger: { type: 'conversion' }, destination: SLACK },
      { name: 'x', trigger: { type: 'conversion' }, destination: { type: 'email', to: ['not an email'] } },
    ]) {
      const answer = await post(body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      const error = answer.json() as { error: string; details?: { fields?: Record<string, string> } };
      expect(error.error).toBe('invalid_request');
      expect(Object.keys(error.details?.fields ?? {}).length, answer.body).toBeGreaterThan(0);
    }
  });

  it('C3.7: a list or webhook of another workspace is 403 and makes nothing', async () => {
    const before = (await t.as(ws, { method: 'GET', url: '/api/v1/alerts?limit=100' }).then((r) => r.json())) as { pagination: { total: number } };
    const list = await post({ name: 'x', trigger: { type: 'segment_entered', list_id: otherListId }, destination: SLACK });
    expect(list.statusCode).toBe(403);
    const hook = await post({ name: 'x', trigger: { type: 'conversion' }, destination: { type: 'webhook', webhook_id: otherWebhookId } });
    expect(hook.statusCode).toBe(403);
    const after = (await t.as(ws, { method: 'GET', url: '/api/v1/alerts?limit=100' }).then((r) => r.json())) as { pagination: { total: number } };
    expect(after.pagination.total).toBe(before.pagination.total);
  });

  it('C10.2, C8.5: a Slack URL on a loopback or private address is 400 naming destination.url', async () => {
    for (const url of ['http://127.0.0.1:9/hook', 'https://10.1.2.3/hook', 'http://localhost/hook', 'ftp://203.0.113.7/x']) {
      const answer = await post({ name: 'x', trigger: { type: 'conversion' }, destination: { type: 'slack', url } });
      expect(answer.statusCode, url).toBe(400);
      expect(Object.keys((answer.json() as { details: { fields: object } }).details.fields)).toEqual(['destination.url']);
    }
  });

  it('C10.1: PATCH changes only the fields given; DELETE removes it; unknown ids are 404', async () => {
    const created = (await post({ name: 'Score', trigger: { type: 'score_reached', score: 50 }, destination: SLACK }).then((r) => r.json())) as {
      data: { id: string; updated_at: string };
    };
    const id = created.data.id;
    const patched = await t.as(ws, { method: 'PATCH', url: `/api/v1/alerts/${id}`, payload: { cooldown_minutes: 60, trigger: { type: 'segment_entered', list_id: listId } } });
    expect(patched.statusCode).toBe(200);
    expect((patched.json() as { data: unknown }).data).toMatchObject({
      name: 'Score',
      trigger: { type: 'segment_entered', list_id: listId },
      destination: SLACK,
      cooldown_minutes: 60,
      enabled: true,
    });
    const bad = await t.as(ws, { method: 'PATCH', url: `/api/v1/alerts/${id}`, payload: { trigger: { type: 'score_reached' } } });
    expect(bad.statusCode).toBe(400);
    const foreign = await t.as(ws, { method: 'PATCH', url: `/api/v1/alerts/${id}`, payload: { destination: { type: 'webhook', webhook_id: otherWebhookId } } });
    expect(foreign.statusCode).toBe(403);
    expect((await t.as(ws, { method: 'DELETE', url: `/api/v1/alerts/${id}` })).statusCode).toBe(204);
    for (const request of [
      { method: 'GET' as const, url: `/api/v1/alerts/${id}` },
      { method: 'PATCH' as const, url: `/api/v1/alerts/${id}`, payload: { enabled: false } },
      { method: 'DELETE' as const, url: `/api/v1/alerts/${id}` },
      { method: 'GET' as const, url: '/api/v1/alerts/not-an-id' },
    ]) {
      const answer = await t.as(ws, request);
      expect(answer.statusCode, request.url).toBe(404);
      expect((answer.json() as { error: string }).error).toBe('not_found');
    }
  });

  it('C10.1: lists newest first, paginated, the caller\'s alerts only', async () => {
    await post({ name: 'theirs', trigger: { type: 'conversion' }, destination: SLACK }, other);
    const page = await t.as(ws, { method: 'GET', url: '/api/v1/alerts?limit=2' });
    expect(page.statusCode).toBe(200);
    const body = page.json() as { data: { name: string; created_at: string }[]; pagination: { total: number } };
    expect(body.data).toHaveLength(2);
    expect(body.data[0]!.created_at >= body.data[1]!.created_at).toBe(true);
    expect(page.headers.link).toContain('rel="next"');
    const all = (await t.as(ws, { method: 'GET', url: '/api/v1/alerts?limit=100' }).then((r) => r.json())) as { data: { name: string }[] };
    expect(all.data.map((alert) => alert.name)).not.toContain('theirs');
  });
});
