/**
 * A visitor that identifies again with another email (CONTRACT C5.5, C5.6,
 * C5.7), on both stores: it is linked to the identity of the new email, new
 * or existing, and what it does afterwards (activity, conversion leads, last
 * seen) follows that identity; what it did before stays with the first one.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { all, conversion, createSiteKey, identify, pageView, postEvents, type Event } from '../helpers/tracking.js';

const MINUTE = 60_000;
const at = (ms: number) => new Date(ms).toISOString();

type Item = Record<string, unknown>;

describe.each(storeKinds())('a visitor identified with a second email on %s (C5.5)', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    workspace = await t.createWorkspace('Relinking');
    key = (await createSiteKey(t, workspace)).key;
  });
  afterAll(async () => t?.close());

  const send = async (events: Event[]) => {
    const answer = await postEvents(base, key, events);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  };
  const identityOf = async (email: string): Promise<Item> => {
    const found = await all(base, workspace, `/identities?email=${encodeURIComponent(email)}`);
    expect(found, email).toHaveLength(1);
    return found[0] as Item;
  };
  const activityOf = async (identity: Item) =>
    (await all(base, workspace, `/identities/${String(identity.id)}/activity`)).reverse().map((entry) => entry.what);
  const leadsOf = async (visitor: string) => (await all(base, workspace, '/leads')).filter((lead) => lead.visitor_id === visitor).reverse();

  it('C5.5: a second email makes a new identity, and the visitor\'s later activity and leads follow it', async () => {
    const visitor = randomUUID();
    const tag = randomUUID().slice(0, 8);
    const [first, second] = [`first-${tag}@example.com`, `second-${tag}@example.com`];
    const start = Date.now() - 20 * MINUTE;
    await send([pageView(visitor, '/before', { ts: at(start) }), identify(visitor, { email: first }, { ts: at(start + MINUTE) })]);
    await send([conversion(visitor, 'as first', { ts: at(start + 2 * MINUTE) })]);
    await send([identify(visitor, { email: second }, { ts: at(start + 3 * MINUTE) })]);
    await send([pageView(visitor, '/after', { ts: at(start + 4 * MINUTE) }), conversion(visitor, 'as second', { ts: at(start + 5 * MINUTE) })]);

    const one = await identityOf(first);
    const two = await identityOf(second);
    expect(two.id).not.toBe(one.id);
    expect(await activityOf(one)).toEqual(['Viewed Title of /before', `Identified as ${first}`, 'as first']);
    expect(await activityOf(two)).toEqual([`Identified as ${second}`, 'Viewed Title of /after', 'as second']);
    const leads = await leadsOf(visitor);
    expect(leads.map((lead) => [lead.code, lead.identity_id])).toEqual([
      ['as first', one.id],
      ['as second', two.id],
    ]);
    // last seen follows the visitor to its new identity only
    expect(one.last_seen).toBe(at(start + 2 * MINUTE));
    expect(two.last_seen).toBe(at(start + 5 * MINUTE));
  });

  it('C5.5: a second email that is another visitor\'s identity links this visitor to it; its later events count for that identity', async () => {
    const visitor = randomUUID();
    const colleague = randomUUID();
    const tag = randomUUID().slice(0, 8);
    const [own, shared] = [`own-${tag}@example.com`, `shared-${tag}@example.com`];
    const start = Date.now() - 20 * MINUTE;
    await send([identify(colleague, { email: shared }, { ts: at(start) })]);
    await send([identify(visitor, { email: own }, { ts: at(start + MINUTE) })]);
    await send([identify(visitor, { email: shared.toUpperCase() }, { ts: at(start + 2 * MINUTE) })]);
    await send([pageView(visitor, '/later', { ts: at(start + 3 * MINUTE) }), conversion(visitor, 'later', { ts: at(start + 4 * MINUTE) })]);

    const mine = await identityOf(own);
    const theirs = await identityOf(shared);
    expect(theirs.visitor_id).toBe(colleague);
    expect(await activityOf(mine)).toEqual([`Identified as ${own}`]);
    expect(await activityOf(theirs)).toEqual([`Identified as ${shared}`, `Identified as ${shared.toUpperCase()}`, 'Viewed Title of /later', 'later']);
    expect((await leadsOf(visitor)).map((lead) => lead.identity_id)).toEqual([theirs.id]);
    expect(theirs.last_seen).toBe(at(start + 4 * MINUTE));
    expect(mine.last_seen).toBe(at(start + MINUTE));
  });
});
