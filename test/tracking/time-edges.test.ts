/**
 * The time and identity thresholds of the events endpoint at their exact
 * edges, with a clock the test holds (CONTRACT C5.3, C5.4, C5.6), on both
 * stores: a `ts` up to exactly 5 minutes ahead keeps its own time and 1 ms
 * more takes the server's; an event exactly 7 days old is accepted and 1 ms
 * older is ignored; an event id sent twice in another letter case is one
 * event; a session's gap of exactly 30 minutes and length of exactly 24 hours
 * keep it one session, 1 ms more starts another; the first identification
 * back-fills activity from exactly 30 days before it, not 1 ms earlier.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { all, conversion, createSiteKey, identify, pageView, postEvents, type Event } from '../helpers/tracking.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(ms).toISOString();

type Item = Record<string, unknown>;

describe.each(storeKinds())('time edges of the events endpoint on %s (C5.3, C5.4, C5.6)', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let key: string;
  /** the server's clock: what the events endpoint takes as the time it received a batch */
  let clock = Date.now();

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: () => clock });
    base = await t.listen();
    workspace = await t.createWorkspace('Edges');
    key = (await createSiteKey(t, workspace)).key;
  });
  afterAll(async () => t?.close());

  const send = async (events: Event[]) => {
    const answer = await postEvents(base, key, events);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    return answer.body.data as { accepted: number; duplicates: number; ignored: number };
  };
  const identityOf = async (email: string): Promise<Item> => {
    const found = await all(base, workspace, `/identities?email=${encodeURIComponent(email)}`);
    expect(found, email).toHaveLength(1);
    return found[0] as Item;
  };
  const activityOf = async (identity: Item) => (await all(base, workspace, `/identities/${String(identity.id)}/activity`)).reverse();
  const leadsOf = async (visitor: string) => (await all(base, workspace, '/leads')).filter((lead) => lead.visitor_id === visitor).reverse();

  it('C5.3: a ts 2, 3, 4 and exactly 5 minutes ahead keeps its own time; 5 minutes and 1 ms ahead takes the server\'s', async () => {
    clock = Date.now();
    const offsets = [2 * MINUTE, 3 * MINUTE, 4 * MINUTE, 5 * MINUTE, 5 * MINUTE + 1];
    const tag = randomUUID().slice(0, 8);
    const events = offsets.map((offset) => identify(randomUUID(), { email: `ahead-${offset}-${tag}@example.com` }, { ts: at(clock + offset) }));
    expect(await send(events)).toEqual({ accepted: 5, duplicates: 0, ignored: 0 });
    for (const offset of offsets) {
      const expected = offset <= 5 * MINUTE ? at(clock + offset) : at(clock);
      const identity = await identityOf(`ahead-${offset}-${tag}@example.com`);
      expect({ offset, created_at: identity.created_at, last_seen: identity.last_seen }).toEqual({ offset, created_at: expected, last_seen: expected });
      const [entry] = await activityOf(identity);
      expect({ offset, created_at: entry?.created_at }).toEqual({ offset, created_at: expected });
    }
  });

  it('C5.3: an event exactly 7 days old is accepted with its own time; 7 days and 1 ms old is ignored', async () => {
    clock = Date.now();
    const visitor = randomUUID();
    const tag = randomUUID().slice(0, 8);
    const answer = await send([
      identify(visitor, { email: `week-${tag}@example.com` }, { ts: at(clock - 7 * DAY) }),
      pageView(visitor, '/too-old', { ts: at(clock - 7 * DAY - 1) }),
    ]);
    expect(answer).toEqual({ accepted: 1, duplicates: 0, ignored: 1 });
    const identity = await identityOf(`week-${tag}@example.com`);
    expect(identity.first_seen).toBe(at(clock - 7 * DAY));
    expect((await activityOf(identity)).map((entry) => entry.what)).toEqual([`Identified as week-${tag}@example.com`]);
    // a later batch of the same visitor with the same too-old event is still ignored
    expect(await send([pageView(visitor, '/too-old-again', { ts: at(clock - 7 * DAY - 1) })])).toEqual({ accepted: 0, duplicates: 0, ignored: 1 });
  });

  it('C5.3: one event id twice in a batch, in another letter case, is 1 accepted and 1 duplicate; again later, a duplicate', async () => {
    clock = Date.now();
    const visitor = randomUUID();
    const id = randomUUID();
    const first = conversion(visitor, 'Cased', { id, ts: at(clock - MINUTE) });
    const upper = { ...first, id: id.toUpperCase() };
    expect(await send([first, upper])).toEqual({ accepted: 1, duplicates: 1, ignored: 0 });
    expect(await send([upper])).toEqual({ accepted: 0, duplicates: 1, ignored: 0 });
    // upper case first, lower case second: the same
    const other = randomUUID();
    const shouted = conversion(visitor, 'Cased again', { id: other.toUpperCase(), ts: at(clock - MINUTE) });
    expect(await send([shouted, { ...shouted, id: other }])).toEqual({ accepted: 1, duplicates: 1, ignored: 0 });
    expect((await leadsOf(visitor)).map((lead) => lead.code)).toEqual(['Cased', 'Cased again']);
  });

  it('C5.4: a gap of exactly 30 minutes keeps the session; 30 minutes and 1 ms starts a new one', async () => {
    const start = Date.now() - 2 * HOUR;
    clock = start + HOUR + 10 * MINUTE;
    const visitor = randomUUID();
    await send([
      conversion(visitor, 'first', { ts: at(start) }),
      conversion(visitor, 'exactly 30 minutes later', { ts: at(start + 30 * MINUTE) }),
      conversion(visitor, '30 minutes and 1 ms after that', { ts: at(start + 60 * MINUTE + 1) }),
    ]);
    const [first, same, next] = await leadsOf(visitor);
    expect(first?.code).toBe('first');
    expect(same?.session_id).toBe(first?.session_id);
    expect(next?.session_id).not.toBe(first?.session_id);
  });

  it('C5.4: a session of exactly 24 hours is one session; an event 1 ms later starts another', async () => {
    const start = Date.now() - 26 * HOUR;
    clock = start + 25 * HOUR;
    const visitor = randomUUID();
    const events: Event[] = [];
    // a page view every 20 minutes keeps the session going
    for (let minute = 0; minute <= 24 * 60; minute += 20) events.push(pageView(visitor, `/${minute}`, { ts: at(start + minute * MINUTE) }));
    events.push(conversion(visitor, 'at 24 hours', { ts: at(start + DAY) }), conversion(visitor, 'at 24 hours and 1 ms', { ts: at(start + DAY + 1) }));
    expect(events.length).toBeLessThanOrEqual(100);
    expect((await send(events)).accepted).toBe(events.length);
    const [within, beyond] = await leadsOf(visitor);
    expect(within?.code).toBe('at 24 hours');
    expect(beyond?.code).toBe('at 24 hours and 1 ms');
    expect(beyond?.session_id).not.toBe(within?.session_id);
    // the first page view's session is the one that lasted 24 hours
    expect((within?.properties as Item).landing_page).toMatch(/\/0$/);
  });

  it('C5.6: the first identification makes activity of the events from exactly 30 days before it, not 1 ms earlier', async () => {
    const identifiedAt = Date.now();
    const visitor = randomUUID();
    const tag = randomUUID().slice(0, 8);
    // each batch received when its events happened (the 7-day rule looks at the time received)
    clock = identifiedAt - 30 * DAY - 1;
    await send([pageView(visitor, '/thirty-days-and-1-ms', { ts: at(clock) })]);
    clock = identifiedAt - 30 * DAY;
    await send([pageView(visitor, '/exactly-thirty-days', { ts: at(clock) })]);
    clock = identifiedAt;
    await send([identify(visitor, { email: `backfill-${tag}@example.com` }, { ts: at(identifiedAt) })]);
    const identity = await identityOf(`backfill-${tag}@example.com`);
    expect((await activityOf(identity)).map((entry) => [entry.what, entry.created_at])).toEqual([
      ['Viewed Title of /exactly-thirty-days', at(identifiedAt - 30 * DAY)],
      [`Identified as backfill-${tag}@example.com`, at(identifiedAt)],
    ]);
  });
});
