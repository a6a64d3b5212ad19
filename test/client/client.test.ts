/**
 * @leadlight/client against a real server over real HTTP, on both stores,
 * imported as a user imports it (the built package): every endpoint through
 * the client's resource groups, typed errors carrying the answer's code,
 * details, status and request id, lists iterated with `for await`
 * across pages by their Link cursors, deletion and erasure, and webhooks
 * managed through the client whose deliveries verify and type as the
 * document says (CONTRACT C8.1, C8.3, C8.4, C8.5).
 */
import { randomUUID } from 'node:crypto';
import { createClient, LeadlightError, type Lead, type LeadlightClient, type WebhookPayload } from '@leadlight/client';
import { Webhook as WebhookVerifier } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';
import { BROWSER_UA, createSiteKey, identify, pageView } from '../helpers/tracking.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

describe.each(storeKinds())('@leadlight/client on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let other: TestWorkspace;
  let client: LeadlightClient;

  beforeAll(async () => {
    t = await createTestApp(kind, { webhooks: { allowPrivate: true, retryBaseMs: 40, pollMs: 20 } });
    base = await t.listen();
    workspace = await t.createWorkspace();
    other = await t.createWorkspace();
    client = createClient({ baseUrl: base, apiKey: workspace.production.key });
  });
  afterAll(async () => t?.close());

  it('leads: create, get, update (replace and merge patch) and list with filters', async () => {
    const [companyId] = await importRows(t, workspace.id, 'companies', [{ name: 'Acme', domain: 'acme.example' }]);
    const created = await client.leads.create({ code: 'C-1', source: 'client-test', properties: { plan: 'team', seats: 5 } });
    expect(created).toMatchObject({ code: 'C-1', source: 'client-test', workspace_id: workspace.id, properties: { plan: 'team', seats: 5 } });
    expect(await client.leads.get(created.id)).toEqual(created);

    const replaced = await client.leads.update(created.id, { properties: { plan: 'pro' }, company_id: companyId });
    expect(replaced.properties).toEqual({ plan: 'pro' });
    expect(replaced.company_id).toBe(companyId);
    const merged = await client.leads.update(created.id, { properties: { seats: 9 } }, { mergePatch: true });
    expect(merged.properties).toEqual({ plan: 'pro', seats: 9 });

    await client.leads.create({ code: 'C-2', source: 'elsewhere' });
    const page = await client.leads.list({ source: 'client-test' });
    expect(page.data.map((lead) => lead.id)).toEqual([created.id]);
    expect(page.pagination).toEqual({ limit: 50, offset: 0, total: 1 });
    expect(page.requestId).toMatch(/\S/);
  });

  it('C9.3: leads sorted by score, and a lead\'s notes: create, list newest first across pages', async () => {
    const low = await client.leads.create({ code: 'S-low', source: 'sort-test', summary: { score: 5 } });
    const high = await client.leads.create({ code: 'S-high', source: 'sort-test', summary: { score: 95 } });
    const none = await client.leads.create({ code: 'S-none', source: 'sort-test' });
    const sorted: string[] = [];
    for await (const lead of client.leads.list({ source: 'sort-test', sort: '-score', limit: 1 })) sorted.push(lead.id);
    expect(sorted).toEqual([high.id, low.id, none.id]);

    const first = await client.leads.notes.create(high.id, { body: 'first call' });
    expect(first).toMatchObject({ body: 'first call', author: { type: 'api_key', id: workspace.production.id } });
    expect(await client.leads.notes.get(high.id, first.id)).toEqual(first);
    await client.leads.notes.create(high.id, { body: 'second call' });
    const bodies: string[] = [];
    for await (const note of client.leads.notes.list(high.id, { limit: 1 })) bodies.push(note.body);
    expect(bodies).toEqual(['second call', 'first call']);
    await expect(client.leads.notes.create(high.id, { body: '' })).rejects.toBeInstanceOf(LeadlightError);
  });

  it('identities: create, get, update, list, activity and personalities', async () => {
    const email = `ada-${randomUUID()}@acme.example`;
    const identity = await client.identities.create({ email, name: 'Ada', traits: { role: 'CTO' } });
    expect(identity).toMatchObject({ email, name: 'Ada', traits: { role: 'CTO' }, is_favorite: false });
    expect(await client.identities.get(identity.id)).toEqual(identity);
    const updated = await client.identities.update(identity.id, { is_favorite: true, traits: { team: 'core' } }, { mergePatch: true });
    expect(updated).toMatchObject({ is_favorite: true, traits: { role: 'CTO', team: 'core' } });
    expect((await client.identities.list({ email: email.toUpperCase() })).data.map((row) => row.id)).toEqual([identity.id]);

    await importRows(t, workspace.id, 'activity', [
      { identity_id: identity.id, type: 'page_view', what: 'Viewed Pricing', created_at: '2026-01-02T00:00:00.000Z' },
      { identity_id: identity.id, type: 'event', what: 'signup', created_at: '2026-01-03T00:00:00.000Z' },
    ]);
    const activity = await client.identities.activity(identity.id).toArray();
    expect(activity.map((entry) => entry.what)).toEqual(['signup', 'Viewed Pricing']);

    await importRows(t, workspace.id, 'personalities', [
      { visitor_id: identity.visitor_id, score: 0.5, personality: { type: 'explorer', traits: ['reads docs'] }, learning_percentage: 0.25 },
    ]);
    const personalities = await client.identities.personalities(identity.id);
    expect(personalities.map((row) => row.personality.type)).toEqual(['explorer']);
  });

  it('companies, lists and users: list and get', async () => {
    const [companyId] = await importRows(t, workspace.id, 'companies', [{ name: 'Globex', domain: 'globex.example' }]);
    expect((await client.companies.get(companyId as string)).name).toBe('Globex');
    expect((await client.companies.list({ domain: 'GLOBEX.example' })).data.map((row) => row.id)).toEqual([companyId]);

    const [listId] = await importRows(t, workspace.id, 'lists', [{ name: 'Hot', color: '#FF0000' }]);
    expect((await client.lists.list()).data.map((row) => row.id)).toContain(listId);

    const email = `grace-${randomUUID()}@leadlight.example`;
    await importRows(t, workspace.id, 'users', [{ email, name: 'Grace', workspace_role: 'viewer' }]);
    const viewers = await client.users.list({ role: 'viewer' });
    const grace = viewers.data.find((user) => user.email === email);
    expect(grace?.workspace_role).toBe('viewer');
    expect(await client.users.get(grace?.id as string)).toEqual(grace);
  });

  it('C6.9: companies.engagement and companies.activity read a company as an account', async () => {
    const site = await createSiteKey(t, workspace);
    const visitor = randomUUID();
    const email = `pat-${randomUUID()}@initech-client.com`;
    const batch = { key: site.key, events: [pageView(visitor, '/pricing'), identify(visitor, { email, name: 'Pat' })] } as Parameters<LeadlightClient['events']['send']>[0];
    expect(await client.events.send(batch, { headers: { 'user-agent': BROWSER_UA } })).toMatchObject({ accepted: 2 });
    const [company] = (await client.companies.list({ domain: 'initech-client.com' })).data;
    const engagement = await client.companies.engagement(company!.id, { days: 7 });
    expect(engagement).toMatchObject({ visitors: 1, identities: 1, sessions: 1, page_views: 1, top_pages: [{ path: '/pricing', views: 1 }] });
    expect(engagement.score).toBeGreaterThan(0);
    expect((await client.companies.engagement(company!.id)).visitors).toBe(1);
    const activity = await client.companies.activity(company!.id, { limit: 1 }).toArray();
    expect(activity.map((entry) => entry.what)).toEqual([`Identified as ${email}`, 'Viewed Title of /pricing']);
    await expect(client.companies.engagement(company!.id, { days: 0 })).rejects.toMatchObject({ code: 'invalid_request', status: 400 });
    await expect(client.companies.activity(randomUUID()).toArray()).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });

  it('C8.4: leads.delete removes a lead (then not_found); erasures.create erases a person and answers the counts', async () => {
    const doomed = await client.leads.create({ code: 'to-delete' });
    await expect(client.leads.delete(doomed.id)).resolves.toBeUndefined();
    await expect(client.leads.get(doomed.id)).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(client.leads.delete(doomed.id)).rejects.toMatchObject({ code: 'not_found', status: 404 });

    const email = `erase-${randomUUID()}@acme.example`;
    const person = await client.identities.create({ email, name: 'To be forgotten' });
    const lead = await client.leads.create({ identity_id: person.id, visitor_id: person.visitor_id, code: 'erase-me' });
    const kept = await client.leads.create({ code: 'someone-else' });
    const counts = await client.erasures.create({ email });
    expect(counts).toMatchObject({ identities: 1, leads: 1 });
    await expect(client.identities.get(person.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(client.leads.get(lead.id)).rejects.toMatchObject({ code: 'not_found' });
    expect((await client.identities.list({ email })).pagination.total).toBe(0);
    expect((await client.leads.get(kept.id)).id).toBe(kept.id);
  });

  it('C6.8: company rules: create, get, list, delete; a bad match is a 400 naming the field', async () => {
    const asn = 64_600 + Math.floor(Math.random() * 1000);
    const created = await client.companyRules.create({ match: { asn }, not_a_company: true });
    expect(created).toMatchObject({ match: { asn }, company_id: null, not_a_company: true });
    expect(await client.companyRules.get(created.id)).toEqual(created);
    expect((await client.companyRules.list().toArray()).map((rule) => rule.id)).toContain(created.id);
    await expect(client.companyRules.create({ match: { cidr: '10.0.0.0/33' }, not_a_company: true })).rejects.toMatchObject({
      code: 'invalid_request',
      status: 400,
      details: { fields: { 'match.cidr': expect.any(String) } },
    });
    await expect(client.companyRules.delete(created.id)).resolves.toBeUndefined();
    await expect(client.companyRules.get(created.id)).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });

  it('C10.1, C10.3: alerts: create, get, list, update, test, deliveries, delete; a missing trigger field is a 400 naming it', async () => {
    const created = await client.alerts.create({ name: 'client', trigger: { type: 'score_reached', score: 60 }, destination: { type: 'email', to: ['sales@example.com'] } });
    expect(created).toMatchObject({ name: 'client', cooldown_minutes: 1440, enabled: true, filters: {} });
    expect(await client.alerts.get(created.id)).toEqual(created);
    expect((await client.alerts.list().toArray()).map((alert) => alert.id)).toContain(created.id);
    expect(await client.alerts.update(created.id, { enabled: false })).toMatchObject({ enabled: false });
    const queued = await client.alerts.test(created.id);
    expect(queued.queued).toBe(1);
    expect((await client.alerts.deliveries(created.id).toArray()).map((delivery) => delivery.id)).toEqual([queued.delivery_id]);
    await expect(client.alerts.create({ name: 'x', trigger: { type: 'score_reached' }, destination: { type: 'email', to: ['a@example.com'] } })).rejects.toMatchObject({
      code: 'invalid_request',
      status: 400,
      details: { fields: { 'trigger.score': expect.any(String) } },
    });
    await expect(client.alerts.delete(created.id)).resolves.toBeUndefined();
    await expect(client.alerts.get(created.id)).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });

  it('C8.5: webhooks: create (secret once), get, list, update, test, deliveries, delete; a delivery verifies and has the documented shape', async () => {
    const receiver = await startReceiver();
    try {
      const created = await client.webhooks.create({ url: `${receiver.url}/hook`, events: ['lead.created'], description: 'client test' });
      expect(created.secret).toMatch(/^whsec_/);
      const read = await client.webhooks.get(created.id);
      expect(read).toMatchObject({ id: created.id, url: `${receiver.url}/hook`, events: ['lead.created'], enabled: true });
      expect(read).not.toHaveProperty('secret');
      expect((await client.webhooks.list().toArray()).map((hook) => hook.id)).toContain(created.id);
      const updated = await client.webhooks.update(created.id, { events: ['lead.created', 'lead.updated'] });
      expect(updated.events).toEqual(['lead.created', 'lead.updated']);

      const lead = await client.leads.create({ code: 'hooked' });
      expect(await client.webhooks.test(created.id)).toEqual({ queued: 1 });
      const deadline = Date.now() + 10_000;
      while (receiver.received.length < 2 && Date.now() < deadline) {
        await t.services.webhookWorker.runOnce();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const verifier = new WebhookVerifier(created.secret);
      const payloads = receiver.received.map((entry) => verifier.verify(entry.body, entry.headers) as WebhookPayload);
      const leadCreated = payloads.find((payload) => payload.type === 'lead.created') as WebhookPayload<'lead.created'> | undefined;
      expect(leadCreated?.data).toEqual(lead);
      expect(payloads.map((payload) => payload.type).sort()).toEqual(['lead.created', 'webhook.test']);

      const deliveries = await client.webhooks.deliveries(created.id).toArray();
      expect(deliveries.map((delivery) => delivery.status)).toEqual(['delivered', 'delivered']);
      expect(deliveries.every((delivery) => delivery.log[0]?.response_code === 200)).toBe(true);

      await client.webhooks.delete(created.id);
      await expect(client.webhooks.get(created.id)).rejects.toMatchObject({ code: 'not_found', status: 404 });
    } finally {
      await receiver.close();
    }
  });

  it('events: sends a batch with a site key (the visitor\'s User-Agent forwarded), duplicates counted on a resend', async () => {
    const site = await createSiteKey(t, workspace);
    const batch = { key: site.key, events: [pageView(randomUUID(), '/pricing')] } as Parameters<LeadlightClient['events']['send']>[0];
    const headers = { 'user-agent': BROWSER_UA };
    expect(await client.events.send(batch, { headers })).toEqual({ accepted: 1, duplicates: 0, ignored: 0 });
    expect(await client.events.send(batch, { headers })).toEqual({ accepted: 0, duplicates: 1, ignored: 0 });
  });

  it('C3.5: errors are LeadlightErrors with the code, message, details, status and request id of the answer', async () => {
    const requestId = `client-test-${randomUUID()}`;
    const notFound = await client.leads.get(randomUUID(), { headers: { 'x-request-id': requestId } }).catch((error: unknown) => error);
    expect(notFound).toBeInstanceOf(LeadlightError);
    expect(notFound).toMatchObject({
      code: 'not_found',
      status: 404,
      message: 'lead not found or does not belong to your workspace',
      requestId,
    });

    const invalid = await client.leads.list({ limit: 0 }).then(
      () => undefined,
      (error: unknown) => error as LeadlightError,
    );
    expect(invalid).toMatchObject({ code: 'invalid_request', status: 400, details: { parameters: { limit: expect.any(String) } } });
    expect(invalid?.requestId).toMatch(/\S/);

    const [foreignCompany] = await importRows(t, other.id, 'companies', [{ name: 'Not yours' }]);
    const forbidden = await client.leads.create({ company_id: foreignCompany }).catch((error: unknown) => error);
    expect(forbidden).toMatchObject({ code: 'forbidden', status: 403, details: { field: 'company_id' } });

    const stranger = createClient({ baseUrl: base, apiKey: 'll_prod_not-a-key-at-all-0000000000000000' });
    await expect(stranger.leads.list()).rejects.toMatchObject({ name: 'LeadlightError', code: 'unauthorized', status: 401 });
  });

  it('C8.3: for await walks every page of a list by its Link cursors, each item once, newest first', async () => {
    const source = `walk-${randomUUID()}`;
    const created: Lead[] = [];
    for (let index = 0; index < 7; index += 1) created.push(await client.leads.create({ source, code: `W-${index}` }));

    const seen: string[] = [];
    for await (const lead of client.leads.list({ source, limit: 3 })) seen.push(lead.id);
    expect(seen).toEqual(created.map((lead) => lead.id).reverse());

    const pages = [];
    for await (const page of client.leads.list({ source, limit: 3 }).pages()) pages.push(page);
    expect(pages.map((page) => page.data.length)).toEqual([3, 3, 1]);
    expect(pages.map((page) => page.next === undefined)).toEqual([false, false, true]);
    expect(pages.every((page) => page.pagination.total === 7)).toBe(true);
  });

  it('C8.3: a walk sees every item that existed when it started once, while new ones are written', async () => {
    const source = `busy-${randomUUID()}`;
    const before = new Set<string>();
    for (let index = 0; index < 9; index += 1) before.add((await client.leads.create({ source })).id);
    const seen: string[] = [];
    for await (const lead of client.leads.list({ source, limit: 2 })) {
      seen.push(lead.id);
      await client.leads.create({ source });
    }
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of before) expect(seen).toContain(id);
  });
});
