/**
 * Erasing a person who is in lists (CONTRACT C8.4, C6.4) on both stores:
 * their memberships of a static list and of a rule segment are removed and
 * counted in `list_memberships`, by email and by visitor id; the lists keep
 * their other members, and the segment does not take the person back.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';

type Item = Record<string, unknown>;

describe.each(storeKinds())('erasing a person in lists on %s (C8.4)', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Erasure lists');
  });
  afterAll(async () => t?.close());

  const request = async (method: string, url: string, payload?: object) => {
    const response = await t.as(ws, { method: method as 'GET', url: `/api/v1${url}`, ...(payload === undefined ? {} : { payload }) });
    return { status: response.statusCode, body: (response.body === '' ? {} : response.json()) as { data: Item; pagination?: { total: number } } };
  };
  const membersOf = async (listId: string) => {
    const page = await request('GET', `/lists/${listId}/identities?limit=100`);
    expect(page.status).toBe(200);
    return (page.body.data as unknown as Item[]).map((identity) => identity.email as string).sort();
  };

  it('C8.4: erasing by email and by visitor id removes and counts the person\'s static list and segment memberships', async () => {
    const domain = `lists-${randomUUID().slice(0, 8)}.example`;
    const people: Item[] = [];
    for (const name of ['by-email', 'by-visitor', 'keeper']) {
      const created = await request('POST', '/identities', { email: `${name}@${domain}`, name });
      expect(created.status).toBe(201);
      people.push(created.body.data);
    }
    const [byEmail, byVisitor, keeper] = people as [Item, Item, Item];
    const list = (await request('POST', '/lists', { name: 'static list' })).body.data.id as string;
    expect((await request('POST', `/lists/${list}/identities`, { identity_ids: people.map((person) => person.id) })).body.data).toEqual({ added: 3 });
    const segmentCreated = await request('POST', '/lists', { name: 'segment', rule: { all: [{ field: 'email', op: 'ends_with', value: `@${domain}` }] } });
    expect(segmentCreated.status).toBe(201);
    const segment = segmentCreated.body.data.id as string;
    await t.services.intelligence.runWorkspace(ws.id);
    const everyone = people.map((person) => person.email as string).sort();
    expect(await membersOf(list)).toEqual(everyone);
    expect(await membersOf(segment)).toEqual(everyone);

    const first = await request('POST', '/erasures', { email: byEmail.email as string });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ identities: 1, list_memberships: 2 });
    const second = await request('POST', '/erasures', { visitor_id: byVisitor.visitor_id as string });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ identities: 1, list_memberships: 2 });

    for (const id of [list, segment]) {
      expect(await membersOf(id)).toEqual([keeper.email]);
      expect((await request('GET', `/lists/${id}/identities?limit=1`)).body.pagination?.total).toBe(1);
    }
    // the segment's next round does not bring anyone back
    await t.services.intelligence.runWorkspace(ws.id);
    expect(await membersOf(segment)).toEqual([keeper.email]);
    // erasing again finds nothing
    expect((await request('POST', '/erasures', { email: byEmail.email as string })).body.data).toMatchObject({ identities: 0, list_memberships: 0 });
  });
});
