/**
 * The day windows of lead intelligence at their exact edges, on both stores
 * (CONTRACT C6.2, C6.4; docs/intelligence.md): windows count whole UTC days,
 * so "the last N days" are today and the N−1 days before it. Events are
 * sent to the real events endpoint with a clock the test holds (each batch
 * received just after its events happened), and the worker refreshes at an
 * instant the test names:
 * - engagement: a day 29 days old counts from its first millisecond; the
 *   last millisecond of the day 30 days old, and an event exactly 30 × 24 h
 *   old, do not (in points, in reasons, and in "came back on N days");
 * - segment event tests, with and without a page pattern: an event on the
 *   first millisecond of the day `within_days − 1` days back is in, the
 *   millisecond before it and an event exactly `within_days` × 24 h old are not;
 * - a first personality entry (C6.3) before five page views: once the first
 *   session has ended, 30 minutes after its last event, not a millisecond before.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import { all, api, conversion, createSiteKey, identify, pageView, postEvents, type Event } from '../helpers/tracking.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(ms).toISOString();
/** 00:00:00.000Z of the UTC day of `ms` */
const dayStart = (ms: number) => Math.floor(ms / DAY) * DAY;

type Item = Record<string, unknown>;

/** Engagement as docs/intelligence.md gives it, for conversions only (weight 10, one a day), by age in days. */
function documentedEngagement(ages: number[]): number {
  const points = ages.reduce((sum, age) => sum + 10 * 0.5 ** (age / 7), 0);
  return Math.round((50 * points) / (points + 20));
}

describe.each(storeKinds())('the day windows of lead intelligence on %s (C6.2, C6.4)', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let key: string;
  let clock = Date.now();

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: () => clock });
    base = await t.listen();
    workspace = await t.createWorkspace('Windows');
    key = (await createSiteKey(t, workspace)).key;
  });
  afterAll(async () => t?.close());

  /** Sends each event in a batch received 1 minute after it happened (within the 7-day rule whatever the test's "now"). */
  const sendEach = async (events: Event[]) => {
    for (const event of events) {
      clock = Date.parse(String(event.ts)) + MINUTE;
      const answer = await postEvents(base, key, [event]);
      expect(answer.body, JSON.stringify(answer.body)).toEqual({ data: { accepted: 1, duplicates: 0, ignored: 0 } });
    }
  };
  const leadsOf = async (visitor: string) => (await all(base, workspace, '/leads')).filter((lead) => lead.visitor_id === visitor);
  const summaryOf = async (visitor: string) => {
    const leads = await leadsOf(visitor);
    expect(leads.length, visitor).toBeGreaterThan(0);
    return leads[0]!.summary as { score: number; score_reasons: string[] };
  };

  it('C6.2: a day 29 days old counts from its first millisecond; the day 30 days old, to its last millisecond, does not', async () => {
    // the worker's "now": midday, 26 days from today (the events are at most 7 days old when received)
    const now = dayStart(Date.now()) + 26 * DAY + 12 * HOUR;
    const today = dayStart(now);
    const inside = randomUUID();
    const lastMsOutside = randomUUID();
    const exactly30Days = randomUUID();
    const returning = randomUUID();
    await sendEach([
      conversion(inside, 'inside', { ts: at(today - 29 * DAY) }),
      conversion(lastMsOutside, 'outside', { ts: at(today - 29 * DAY - 1) }),
      conversion(exactly30Days, 'thirty days', { ts: at(now - 30 * DAY) }),
      conversion(returning, 'day 30', { ts: at(today - 29 * DAY - 1) }),
      conversion(returning, 'day 29', { ts: at(today - 29 * DAY) }),
      conversion(returning, 'day 28', { ts: at(today - 28 * DAY + 6 * HOUR) }),
      conversion(returning, 'day 27', { ts: at(today - 27 * DAY + 6 * HOUR) }),
    ]);
    await t.services.intelligence.runWorkspace(workspace.id, now);

    const counted = await summaryOf(inside);
    expect(counted.score).toBe(documentedEngagement([29]));
    expect(counted.score).toBeGreaterThan(0);
    expect(counted.score_reasons).toEqual(['converted: inside']);
    for (const visitor of [lastMsOutside, exactly30Days]) {
      const summary = await summaryOf(visitor);
      expect(summary.score).toBe(0);
      expect(summary.score_reasons).toEqual([]);
    }
    // three days in the window: the fourth, 30 days old, is neither points nor a day it came back
    const back = await summaryOf(returning);
    expect(back.score).toBe(documentedEngagement([29, 28, 27]));
    expect(back.score_reasons).toContain('came back on 3 days');
  });

  it('C6.4: an event test "within_days": 3 holds for an event on the first millisecond of the day 2 days back, not the millisecond before, nor exactly 3 days old', async () => {
    const now = dayStart(Date.now()) + 1 * DAY + 12 * HOUR;
    const today = dayStart(now);
    const rules = {
      counted: { all: [{ events: { kind: 'page_view', at_least: 1, within_days: 3 } }] },
      matched: { all: [{ events: { kind: 'page_view', path: '/edge*', at_least: 1, within_days: 3 } }] },
    };
    const lists: Record<string, string> = {};
    for (const [name, rule] of Object.entries(rules)) {
      const created = await t.as(workspace, { method: 'POST', url: '/api/v1/lists', payload: { name: `window ${name}`, rule } });
      expect(created.statusCode, created.body).toBe(201);
      lists[name] = (created.json() as { data: { id: string } }).data.id;
    }
    const tag = randomUUID().slice(0, 8);
    const people = [
      { email: `in-${tag}@example.com`, ts: today - 2 * DAY },
      { email: `last-ms-out-${tag}@example.com`, ts: today - 2 * DAY - 1 },
      { email: `three-days-${tag}@example.com`, ts: now - 3 * DAY },
    ];
    for (const person of people) {
      const visitor = randomUUID();
      // identified a day earlier (an identify is no page view)
      await sendEach([identify(visitor, { email: person.email }, { ts: at(person.ts - DAY) }), pageView(visitor, '/edge', { ts: at(person.ts) })]);
    }
    await t.services.intelligence.runWorkspace(workspace.id, now);
    for (const name of Object.keys(rules)) {
      const members = (await all(base, workspace, `/lists/${lists[name]!}/identities`)).map((identity: Item) => identity.email);
      expect({ rule: name, members }).toEqual({ rule: name, members: [`in-${tag}@example.com`] });
    }
  });

  it('C6.3: a visitor with fewer than five page views gets its first personality entry 30 minutes after its last event, not a millisecond before', async () => {
    const last = Date.now() - MINUTE;
    const tag = randomUUID().slice(0, 8);
    const ended = { visitor: randomUUID(), email: `ended-${tag}@example.com`, last };
    const going = { visitor: randomUUID(), email: `going-${tag}@example.com`, last: last + 1 };
    for (const person of [ended, going]) {
      await sendEach([
        identify(person.visitor, { email: person.email }, { ts: at(person.last - 2 * MINUTE) }),
        pageView(person.visitor, '/docs/a', { ts: at(person.last - MINUTE) }),
        pageView(person.visitor, '/docs/b', { ts: at(person.last) }),
      ]);
    }
    await t.services.intelligence.runWorkspace(workspace.id, last + 30 * MINUTE);
    const entries = async (email: string) => {
      const [identity] = await all(base, workspace, `/identities?email=${encodeURIComponent(email)}`);
      return (await api(base, workspace, `/identities/${String(identity!.id)}/personalities`)).body.data as Item[];
    };
    expect(await entries(ended.email)).toHaveLength(1);
    expect(await entries(going.email)).toEqual([]);
  });
});
