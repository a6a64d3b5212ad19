/**
 * Segments through the lists API, on both stores (CONTRACT C6.4, C3.7): a
 * rule segment fills itself from events sent to the real events endpoint
 * (the intelligence worker running on a short interval) and empties when
 * its members stop qualifying; invalid rules are 400 and change nothing;
 * static lists take identities by API, never another workspace's.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { all, api, conversion, createSiteKey, eventually, identify, pageView, postEvents, type Event } from '../helpers/tracking.js';

type Item = Record<string, unknown>;

describe.each(storeKinds())('segments on %s (C6.4)', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let other: TestWorkspace;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('Segments');
    other = await t.createWorkspace('Other');
    key = (await createSiteKey(t, workspace)).key;
    t.services.intelligence.start(50, () => {});
  });
  afterAll(async () => {
    await t?.services.intelligence.stop();
    await t?.close();
  });

  const send = async (events: Event[]) => expect((await postEvents(base, key, events)).status).toBe(202);
  const request = (method: string, url: string, payload?: unknown, as = workspace) =>
    t.as(as, { method: method as 'GET', url: `/api/v1${url}`, ...(payload === undefined ? {} : { payload: payload as object }) });
  const members = async (listId: string) => (await all(base, workspace, `/lists/${listId}/identities`)).map((identity) => identity.email);

  it('C6.4: a rule segment gains a visitor within 60 s of the event that qualifies them, and loses them when they no longer qualify', async () => {
    const rule = {
      all: [
        { field: 'trait.plan', op: 'eq', value: 'pro' },
        { events: { kind: 'pricing', at_least: 2, within_days: 7 } },
      ],
    };
    const created = await request('POST', '/lists', { name: 'Pro on pricing', color: '#ff8800', rule });
    expect(created.statusCode).toBe(201);
    const list = created.json().data as Item;
    expect(Object.keys(list).sort()).toEqual(['color', 'created_at', 'description', 'id', 'name']);
    expect((await request('GET', `/lists/${String(list.id)}/rule`)).json()).toEqual({ data: rule });

    const visitor = randomUUID();
    const email = `pro-${visitor.slice(0, 8)}@example.org`;
    await send([identify(visitor, { email, plan: 'pro' }), pageView(visitor, '/pricing')]);
    // one pricing view is not enough: give the worker a few rounds, then qualify
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await members(String(list.id))).toEqual([]);
    const qualifying = Date.now();
    await send([pageView(visitor, '/pricing/teams')]);
    const joined = await eventually(() => members(String(list.id)), (found) => found.includes(email), 60_000);
    expect(joined).toEqual([email]);
    expect(Date.now() - qualifying).toBeLessThan(60_000);
    const page = await api(base, workspace, `/lists/${String(list.id)}/identities?limit=1`);
    expect(page.body.pagination!.total).toBe(1);

    // the identity changes (by event, then by API): out, in, out
    await send([identify(visitor, { email, plan: 'free' })]);
    expect(await eventually(() => members(String(list.id)), (found) => found.length === 0, 60_000)).toEqual([]);
    const identity = (await all(base, workspace, `/identities?email=${email}`))[0]!;
    await request('PATCH', `/identities/${String(identity.id)}`, { traits: { plan: 'pro' } });
    expect(await eventually(() => members(String(list.id)), (found) => found.length === 1, 60_000)).toEqual([email]);
    await request('PATCH', `/identities/${String(identity.id)}`, { traits: { plan: 'starter' } });
    expect(await eventually(() => members(String(list.id)), (found) => found.length === 0, 60_000)).toEqual([]);
  });

  it('C6.4: a rule made later takes in the identities that already qualify; a changed rule re-evaluates; company fields and converters', async () => {
    const visitor = randomUUID();
    const email = `buyer-${visitor.slice(0, 8)}@initech-systems.com`;
    await send([identify(visitor, { email }), pageView(visitor, '/docs/setup'), conversion(visitor, 'Signed up')]);
    const created = await request('POST', '/lists', {
      name: 'Initech converters',
      rule: { all: [{ field: 'company.domain', op: 'eq', value: 'initech-systems.com' }, { events: { kind: 'conversion', name: 'Signed up', at_least: 1, within_days: 30 } }] },
    });
    const listId = String((created.json().data as Item).id);
    expect(await eventually(() => members(listId), (found) => found.includes(email), 60_000)).toEqual([email]);
    const changed = await request('PATCH', `/lists/${listId}`, { rule: { any: [{ field: 'email', op: 'ends_with', value: '@nobody.example' }] } });
    expect(changed.statusCode).toBe(200);
    expect(await eventually(() => members(listId), (found) => found.length === 0, 60_000)).toEqual([]);
  });

  it('C6.4: invalid rules are 400 and change nothing', async () => {
    const before = (await all(base, workspace, '/lists')).length;
    const invalid = [
      { every: [] },
      { all: [] },
      { all: [{ field: 'salary', op: 'eq', value: 1 }] },
      { all: [{ field: 'score', op: 'gt', value: 'high' }] },
      { all: [{ field: 'country', op: 'in', value: 'DE' }] },
      { all: [{ events: { kind: 'pricing', at_least: 0, within_days: 7 } }] },
      { all: [{ events: { kind: 'pricing', at_least: 1, within_days: 90 } }] },
      { any: [{ all: [{ any: [{ all: [{ any: [{ all: [{ field: 'email', op: 'exists', value: true }] }] }] }] }] }] },
    ];
    for (const rule of invalid) {
      const answer = await request('POST', '/lists', { name: 'Bad', rule });
      expect(answer.statusCode, JSON.stringify(rule)).toBe(400);
      expect(answer.json()).toMatchObject({ error: 'invalid_request', details: { fields: expect.any(Object) } });
      const fields = Object.keys(answer.json().details.fields as object);
      expect(fields.length, JSON.stringify(rule)).toBeGreaterThan(0);
      for (const field of fields) expect(field, JSON.stringify(rule)).toMatch(/^rule\b/);
    }
    expect((await all(base, workspace, '/lists')).length).toBe(before);
    const list = (await request('POST', '/lists', { name: 'Fine' })).json().data as Item;
    expect((await request('PATCH', `/lists/${String(list.id)}`, { rule: { all: [{ field: 'email', op: 'gt', value: 'x' }] } })).statusCode).toBe(400);
    expect((await request('GET', `/lists/${String(list.id)}/rule`)).json()).toEqual({ data: null });
  });

  it('C6.4, C3.7: a static list takes identities by API (other workspaces\' ids are 403), removes them, and is deleted', async () => {
    const make = async (as: TestWorkspace, email: string) =>
      (await request('POST', '/identities', { email }, as)).json().data as Item;
    const mine = [await make(workspace, 'static-1@example.org'), await make(workspace, 'static-2@example.org')];
    const theirs = await make(other, 'theirs@example.org');
    const list = (await request('POST', '/lists', { name: 'Hand-picked', description: 'by sales' })).json().data as Item;
    const path = `/lists/${String(list.id)}/identities`;
    const refused = await request('POST', path, { identity_ids: [mine[0]!.id, theirs.id] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'forbidden', message: 'access denied to requested resource', details: { field: 'identity_ids' } });
    expect(await members(String(list.id))).toEqual([]);
    const added = await request('POST', path, { identity_ids: mine.map((identity) => identity.id) });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ data: { added: 2 } });
    expect((await request('POST', path, { identity_ids: [mine[0]!.id] })).json()).toEqual({ data: { added: 0 } });
    expect(await members(String(list.id))).toEqual(['static-2@example.org', 'static-1@example.org']);
    // the other workspace sees neither the list nor its members
    expect((await request('GET', path, undefined, other)).statusCode).toBe(404);
    expect((await request('DELETE', `${path}/${String(mine[0]!.id)}`)).statusCode).toBe(204);
    expect(await members(String(list.id))).toEqual(['static-2@example.org']);
    expect((await request('DELETE', `${path}/${String(theirs.id)}`)).statusCode).toBe(404);
    // a rule segment takes no identities by hand
    const segment = (await request('POST', '/lists', { name: 'Ruled', rule: { any: [{ field: 'email', op: 'exists', value: true }] } })).json().data as Item;
    const taken = await request('POST', `/lists/${String(segment.id)}/identities`, { identity_ids: [mine[1]!.id] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: 'conflict', details: { conflict: 'list_is_segment', list_id: segment.id } });
    // nor gives one up by hand (the route's documented 409; it answered 204 and removed nothing that stayed removed)
    const kept = await request('DELETE', `/lists/${String(segment.id)}/identities/${String(mine[1]!.id)}`);
    expect(kept.statusCode).toBe(409);
    expect(kept.json()).toMatchObject({ error: 'conflict', details: { conflict: 'list_is_segment', list_id: segment.id } });
    expect((await request('PATCH', `/lists/${String(list.id)}`, { name: 'Renamed', color: '#00aa00' })).json().data).toMatchObject({ name: 'Renamed', color: '#00aa00', description: 'by sales' });
    expect((await request('DELETE', `/lists/${String(list.id)}`)).statusCode).toBe(204);
    expect((await request('GET', `/lists/${String(list.id)}`)).statusCode).toBe(404);
    expect((await request('DELETE', `/lists/${String(list.id)}`)).statusCode).toBe(404);
  });
});
