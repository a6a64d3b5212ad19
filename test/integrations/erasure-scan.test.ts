/**
 * Erasure leaves nothing that names the person (CONTRACT C8.4), on both
 * stores: people who went through everything (tracked visits from their own
 * address, identifies, a conversion, identities and leads written with
 * Idempotency-Keys, a rename, a static list and a rule segment, scores and
 * personalities, an address queued for reverse DNS, webhook deliveries
 * delivered, failed and pending) are
 * erased by email and by visitor id, and then every column of every table
 * is searched for their email, name, visitor ids, identity ids and address:
 * nothing. The same search finds a person who was not erased everywhere the
 * others were, so it would see them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TENANT_TABLES } from '../../src/db/schema.js';
import { Store } from '../../src/repositories/index.js';
import { WebhookDeliveryWorker } from '../../src/services/webhooks/delivery-worker.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { scanTables, tablesOf } from '../helpers/table-scan.js';
import { api, conversion, createSiteKey, eventually, identify, pageView, postEvents, track } from '../helpers/tracking.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const HOUR_MS = 3_600_000;
const ALL_EVENTS = ['lead.created', 'lead.updated', 'lead.deleted', 'identity.created', 'identity.updated', 'identity.identified', 'list.member_added', 'list.member_removed'];

interface Tracked {
  email: string;
  name: string;
  ip: string;
  visitors: string[];
  identityIds: string[];
}

describe.each(storeKinds())('erasure leaves nothing of the person on %s (C8.4)', (kind) => {
  let t: TestApp;
  let base: string;
  let ws: TestWorkspace;
  let siteKey: string;
  let receiver: Receiver;
  let staticList: string;
  let segment: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { trustProxy: true, webhooks: { allowPrivate: true, retryBaseMs: HOUR_MS, pollMs: 60_000 } });
    base = await t.listen();
    ws = await t.createWorkspace('Erasure scan');
    siteKey = (await createSiteKey(t, ws)).key;
    receiver = await startReceiver();
    receiver.respond = (request) => (request.path === '/down' ? 500 : 200);
    for (const path of ['/up', '/down']) {
      const created = await t.as(ws, { method: 'POST', url: '/api/v1/webhooks', payload: { url: `${receiver.url}${path}`, events: ALL_EVENTS } });
      expect(created.statusCode).toBe(201);
    }
    staticList = (await t.as(ws, { method: 'POST', url: '/api/v1/lists', payload: { name: 'Static' } })).json().data.id as string;
    const rule = { all: [{ field: 'trait.plan', op: 'eq', value: 'scanned' }] };
    segment = (await t.as(ws, { method: 'POST', url: '/api/v1/lists', payload: { name: 'Segment', rule } })).json().data.id as string;
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const withKey = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    t.as(ws, { method, url: `/api/v1${url}`, payload, headers: { 'idempotency-key': randomUUID() } });

  /** A person who goes through everything; `extraIdentity`: a second identity with the same email, made by API. */
  async function everything(tag: string, ip: string, extraIdentity: boolean): Promise<Tracked> {
    const email = `${tag}.${randomUUID().slice(0, 8)}@Scan.Example`;
    const name = `${tag} Quillfeather ${randomUUID().slice(0, 6)}`;
    const visitors = [randomUUID(), randomUUID()];
    for (const visitor of visitors) {
      const posted = await postEvents(
        base,
        siteKey,
        [
          // five page views: enough for a first personality
          ...['/', '/pricing', '/docs', '/blog', '/about'].map((path) => pageView(visitor, `${path}?ref=${tag}`)),
          identify(visitor, { email, name, plan: 'scanned' }),
          track(visitor, 'clicked', { properties: { label: name } }),
          conversion(visitor, 'signup', { code: `signup-${visitor}`, properties: { email } }),
        ],
        { 'x-forwarded-for': ip },
      );
      expect(posted.status).toBe(202);
    }
    const identities = await eventually(
      async () => (await api(base, ws, `/identities?email=${encodeURIComponent(email)}`)).body.data as { id: string }[],
      (found) => found.length === 1,
    );
    const identityIds = identities.map((identity) => identity.id);
    const identityId = identityIds[0] as string;
    if (extraIdentity) {
      const created = await withKey('POST', '/identities', { email, name, traits: { phone: '+44 20 7946 0000' }, visitor_id: randomUUID() });
      expect(created.statusCode).toBe(201);
      identityIds.push(created.json().data.id as string);
    }
    expect((await withKey('PATCH', `/identities/${identityId}`, { name, traits: { plan: 'scanned', note: `renamed ${email}` } })).statusCode).toBe(200);
    expect((await withKey('POST', '/leads', { visitor_id: visitors[0], source: 'website', properties: { email, name } })).statusCode).toBe(201);
    expect((await withKey('POST', `/lists/${staticList}/identities`, { identity_ids: identityIds })).statusCode).toBe(200);
    // scores, personalities and the segment
    await t.services.intelligence.runOnce();
    const members = await eventually(
      async () => {
        await t.services.intelligence.runOnce();
        return ((await api(base, ws, `/lists/${segment}/identities?limit=100`)).body.data as { id: string }[]).map((identity) => identity.id);
      },
      (ids) => ids.includes(identityId),
    );
    expect(members).toContain(identityId);
    return { email, name, ip, visitors, identityIds };
  }

  /** Delivers what is due: /up delivered; /down fails, then, with a clock past the retry window, is given up (failed). */
  async function settleDeliveries(): Promise<void> {
    await t.services.webhookWorker.runOnce();
    const late = new WebhookDeliveryWorker(new Store(t.db.database), { allowPrivate: true, retryBaseMs: HOUR_MS, pollMs: 60_000 }, () => Date.now() + 26 * HOUR_MS);
    await late.runOnce();
  }

  const termsOf = (person: Tracked): Record<string, string> => ({
    email: person.email,
    name: person.name,
    ip: person.ip,
    ...Object.fromEntries(person.visitors.map((visitor, index) => [`visitor ${index + 1}`, visitor])),
    ...Object.fromEntries(person.identityIds.map((id, index) => [`identity ${index + 1}`, id])),
  });

  it('C8.4: erased by email or by visitor id, no table holds the email, name, visitor ids, identity ids or address', async () => {
    const byEmail = await everything('Ada', '81.2.69.142', true);
    const byVisitor = await everything('Bea', '81.2.69.161', false);
    const keeper = await everything('Cy', '81.2.69.177', true);
    await settleDeliveries();
    // and a change after that, still pending
    for (const person of [byEmail, byVisitor, keeper]) {
      expect((await withKey('PATCH', `/identities/${person.identityIds[0]}`, { traits: { plan: 'scanned', pending: true } })).statusCode).toBe(200);
    }
    const statuses = await t.db.database.db.selectFrom('webhook_deliveries').select('status').distinct().execute();
    expect(statuses.map((row) => row.status).sort()).toEqual(['delivered', 'failed', 'pending']);

    // the search sees everything the erased people left before their erasure
    const before = await scanTables(t.db.database, { ...termsOf(byEmail) });
    for (const table of ['identities', 'events', 'visitors', 'sessions', 'leads', 'webhook_deliveries', 'idempotency_keys', 'list_members', 'personalities', 'intelligence_due', 'reverse_dns_due']) {
      expect(Object.keys({ ...before['visitor 1'], ...before['identity 1'] }), table).toContain(table);
    }

    const erasedByEmail = await t.as(ws, { method: 'POST', url: '/api/v1/erasures', payload: { email: byEmail.email.toUpperCase() } });
    expect(erasedByEmail.statusCode).toBe(200);
    expect(erasedByEmail.json().data).toMatchObject({ identities: 2, list_memberships: 3 });
    const erasedByVisitor = await t.as(ws, { method: 'POST', url: '/api/v1/erasures', payload: { visitor_id: byVisitor.visitors[1] } });
    expect(erasedByVisitor.statusCode).toBe(200);
    expect(erasedByVisitor.json().data).toMatchObject({ identities: 1, list_memberships: 2 });

    const tables = await tablesOf(t.db.database);
    // every workspace table is searched (SQLite keeps received ids in the events table itself)
    expect(tables).toEqual(expect.arrayContaining(TENANT_TABLES.filter((table) => kind === 'postgres' || table !== 'event_ids')));
    expect(await scanTables(t.db.database, termsOf(byEmail))).toEqual({});
    expect(await scanTables(t.db.database, termsOf(byVisitor))).toEqual({});

    // the one not erased is still everywhere the search looked, its deliveries and stored answers included
    const kept = await scanTables(t.db.database, termsOf(keeper));
    expect(Object.keys(kept.email ?? {})).toEqual(expect.arrayContaining(['identities', 'events', 'webhook_deliveries', 'idempotency_keys']));
    expect(Object.keys(kept.ip ?? {})).toEqual(expect.arrayContaining(['identities', 'events', 'visitors']));
    const keeperDeliveries = await t.db.database.db.selectFrom('webhook_deliveries').select('status').where('payload', 'like', `%${keeper.identityIds[0]}%`).execute();
    expect(new Set(keeperDeliveries.map((row) => row.status))).toEqual(new Set(['delivered', 'failed', 'pending']));
  });
});
