/**
 * The overview's traffic (C9.5) on both stores, from events sent through
 * the events endpoint over real HTTP: visitors once per UTC day and site,
 * sessions on the day and site they started, bounces (single-page sessions,
 * taken back when a later batch adds a page), session length (first event
 * to last, any type), page views, and the breakdowns; the day boundaries at
 * exact UTC midnights and the previous period's exact edges; the week
 * rows (whole weeks, edge days, the Monday's first instant); the site
 * filter; the range's validation at its edges.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { storeKinds } from '../helpers/stores.js';
import { BROWSER_UA, conversion, createSiteKey, identify, pageView, postEvents, track, type Event } from '../helpers/tracking.js';

const DAY_MS = 86_400_000;
const MINUTE = 60_000;
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const BLOG = 'https://blog.example.com';

interface Figure {
  value: number | null;
  previous: number | null;
}
interface Traffic {
  from: string;
  to: string;
  previous: { from: string; to: string };
  site: string | null;
  sites: string[];
  figures: Record<'visitors' | 'sessions' | 'page_views' | 'bounce_rate' | 'average_session_seconds' | 'leads' | 'identities', Figure>;
  days: { day: string; visitors: number; page_views: number; sessions: number; leads: number; by_source: Record<string, number>; identities: number }[];
  lead_sources: string[];
  breakdowns: Record<'referrers' | 'campaigns' | 'countries' | 'devices' | 'browsers', { value: string; sessions: number; bounce_rate: number }[]> & {
    pages: { host: string; path: string; url: string; views: number }[];
  };
}

describe.each(storeKinds())('the overview traffic on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let session: DashboardSession;
  // D is the day before yesterday (UTC); M its first instant
  const M = Date.parse(`${new Date(Date.now() - 2 * DAY_MS).toISOString().slice(0, 10)}T00:00:00.000Z`);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const at = (ms: number) => new Date(ms).toISOString();
  const D = day(M);
  const [A, B, C, E, F, G] = Array.from({ length: 6 }, () => randomUUID());

  const traffic = async (query: string) => {
    const answer = await dashboard(base, session, 'GET', `/overview/traffic?${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as Traffic;
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { trustProxy: true });
    base = await t.listen();
    const workspace = await t.createWorkspace('Traffic');
    session = await signIn(base, await member(t, workspace.id, 'viewer'));
    const { key } = await createSiteKey(t, workspace);
    const send = async (events: Event[], agent: string, address?: string) => {
      const answer = await postEvents(base, key, events, { 'user-agent': agent, ...(address === undefined ? {} : { 'x-forwarded-for': address }) });
      expect(answer.status, JSON.stringify(answer.body)).toBe(202);
      return answer.body;
    };
    // A (desktop Chrome, US): one session across midnight, from a Google search with a campaign, on two sites
    const first = [
      pageView(A, '/?utm_campaign=spring', { ts: at(M - 10 * MINUTE), referrer: 'https://www.google.com/search?q=leads' }),
      pageView(A, '/pricing', { ts: at(M + 5 * MINUTE) }),
      pageView(A, '/', { ts: at(M + 6 * MINUTE), url: `${BLOG}/` }),
    ];
    await send(first, BROWSER_UA, '8.8.8.8');
    // the same batch again: duplicates, nothing counts twice
    expect(await send(first, BROWSER_UA, '8.8.8.8')).toMatchObject({ data: { accepted: 0, duplicates: 3 } });
    // B (iPhone Safari, GB): a page at exactly midnight, from its own site (no referrer); two hours later a second single-page session that identifies and converts
    await send([pageView(B, '/', { ts: at(M), referrer: 'https://shop.example.com/other' })], IPHONE, '81.2.69.142');
    await send(
      [pageView(B, '/docs', { ts: at(M + 120 * MINUTE) }), identify(B, { email: 'b@example.com' }, { ts: at(M + 120 * MINUTE) }), conversion(B, 'Signed up', { ts: at(M + 120 * MINUTE) })],
      IPHONE,
      '81.2.69.142',
    );
    // C (Firefox, address unknown): a single page on the blog, then a second page and an event in later batches
    await send([pageView(C, '/', { ts: at(M + 60 * MINUTE), url: `${BLOG}/` })], FIREFOX);
    await send([pageView(C, '/post', { ts: at(M + 70 * MINUTE), url: `${BLOG}/post` })], FIREFOX);
    await send([track(C, 'Scrolled', { ts: at(M + 80 * MINUTE) })], FIREFOX);
    // E: the last millisecond of D-1
    await send([pageView(E, '/', { ts: at(M - 1) })], BROWSER_UA, '8.8.8.8');
    // F: the first instant of D-3, G: the last millisecond of D-4
    await send([pageView(F, '/', { ts: at(M - 3 * DAY_MS) })], BROWSER_UA, '8.8.8.8');
    await send([pageView(G, '/', { ts: at(M - 3 * DAY_MS - 1) })], BROWSER_UA, '8.8.8.8');
    // a bot's visit counts nowhere
    expect((await postEvents(base, key, [pageView(randomUUID(), '/', { ts: at(M) })], { 'user-agent': 'curl/8.5.0' })).body).toMatchObject({ data: { ignored: 1 } });
    // another workspace's traffic stays there
    const other = await t.createWorkspace('Elsewhere');
    const { key: otherKey } = await createSiteKey(t, other);
    expect((await postEvents(base, otherKey, [pageView(randomUUID(), '/', { ts: at(M) })])).status).toBe(202);
  });
  afterAll(async () => t?.close());

  it('one day (D): visitors once a day over all sites, sessions on the day they started, bounces taken back when a page follows, length to the last event', async () => {
    const data = await traffic(`from=${D}&to=${D}`);
    expect(data).toMatchObject({ from: D, to: D, previous: { from: day(M - DAY_MS), to: day(M - DAY_MS) }, site: null });
    expect(data.figures).toEqual({
      // A, B and C; A's session started the day before
      visitors: { value: 3, previous: 2 },
      sessions: { value: 3, previous: 2 },
      page_views: { value: 6, previous: 2 },
      // B's two sessions; C's first page stopped being a bounce when its second came
      bounce_rate: { value: 2 / 3, previous: 1 / 2 },
      // C's session ran 20 minutes (to its event); A's (D-1) 16 minutes
      average_session_seconds: { value: 1200 / 3, previous: 960 / 2 },
      leads: { value: 1, previous: 0 },
      identities: { value: 1, previous: 0 },
    });
    // B's conversion: its session's landing page has no campaign and no referrer
    expect(data.days).toEqual([{ day: D, visitors: 3, page_views: 6, sessions: 3, leads: 1, by_source: { website: 1 }, identities: 1 }]);
    expect(data.lead_sources).toEqual(['website']);
    expect(data.sites).toEqual(['shop.example.com', 'blog.example.com']);
  });

  it('two days (D-1, D): the previous period is D-3 and D-2, its first instant in, the millisecond before out', async () => {
    const data = await traffic(`from=${day(M - DAY_MS)}&to=${D}`);
    expect(data.previous).toEqual({ from: day(M - 3 * DAY_MS), to: day(M - 2 * DAY_MS) });
    // A counts on both days
    expect(data.figures.visitors).toEqual({ value: 5, previous: 1 });
    expect(data.figures.sessions).toEqual({ value: 5, previous: 1 });
    expect(data.figures.page_views).toEqual({ value: 8, previous: 1 });
    expect(data.figures.bounce_rate).toEqual({ value: 3 / 5, previous: 1 });
    expect(data.figures.average_session_seconds).toEqual({ value: (960 + 1200) / 5, previous: 0 });
    expect(data.days.map((point) => point.day)).toEqual([day(M - DAY_MS), D]);
    // G's millisecond is D-4: in no period asked
    expect((await traffic(`from=${day(M - 4 * DAY_MS)}&to=${day(M - 4 * DAY_MS)}`)).figures.page_views).toEqual({ value: 1, previous: 0 });
  });

  it('breakdowns: pages (with their address), referrer domains (its own site is none), campaigns, countries, devices, browsers', async () => {
    const { breakdowns } = await traffic(`from=${day(M - DAY_MS)}&to=${D}`);
    expect(breakdowns.pages).toEqual([
      { host: 'shop.example.com', path: '/', url: 'https://shop.example.com/', views: 3 },
      { host: 'blog.example.com', path: '/', url: 'https://blog.example.com/', views: 2 },
      { host: 'shop.example.com', path: '/docs', url: 'https://shop.example.com/docs', views: 1 },
      { host: 'blog.example.com', path: '/post', url: 'https://blog.example.com/post', views: 1 },
      { host: 'shop.example.com', path: '/pricing', url: 'https://shop.example.com/pricing', views: 1 },
    ]);
    expect(breakdowns.referrers).toEqual([
      { value: '', sessions: 4, bounce_rate: 3 / 4 },
      { value: 'google.com', sessions: 1, bounce_rate: 0 },
    ]);
    expect(breakdowns.campaigns).toEqual([{ value: 'spring', sessions: 1, bounce_rate: 0 }]);
    expect(breakdowns.countries).toEqual([
      { value: 'GB', sessions: 2, bounce_rate: 1 },
      { value: 'US', sessions: 2, bounce_rate: 1 / 2 },
      { value: '', sessions: 1, bounce_rate: 0 },
    ]);
    expect(breakdowns.devices).toEqual([
      { value: 'desktop', sessions: 3, bounce_rate: 1 / 3 },
      { value: 'mobile', sessions: 2, bounce_rate: 1 },
    ]);
    expect(breakdowns.browsers).toEqual([
      { value: 'Chrome', sessions: 2, bounce_rate: 1 / 2 },
      { value: 'Safari', sessions: 2, bounce_rate: 1 },
      { value: 'Firefox', sessions: 1, bounce_rate: 0 },
    ]);
  });

  it('the site filter: visitors once a day on that site, sessions on the site of their landing page', async () => {
    const shop = await traffic(`from=${D}&to=${D}&site=shop.example.com`);
    expect(shop.site).toBe('shop.example.com');
    expect(shop.figures).toMatchObject({
      visitors: { value: 2, previous: 2 },
      sessions: { value: 2, previous: 2 },
      page_views: { value: 3, previous: 2 },
      bounce_rate: { value: 1, previous: 1 / 2 },
      // leads and people identified are the workspace's
      leads: { value: 1, previous: 0 },
    });
    expect(shop.breakdowns.pages.map((page) => page.host)).toEqual(['shop.example.com', 'shop.example.com', 'shop.example.com']);
    const blog = await traffic(`from=${D}&to=${D}&site=Blog.Example.com`);
    expect(blog.figures).toMatchObject({ visitors: { value: 2, previous: 0 }, sessions: { value: 1, previous: 0 }, page_views: { value: 3, previous: 0 } });
    expect(blog.breakdowns.browsers).toEqual([{ value: 'Firefox', sessions: 1, bounce_rate: 0 }]);
    const nowhere = await traffic(`from=${D}&to=${D}&site=nowhere.example.com`);
    expect(nowhere.figures.visitors).toEqual({ value: 0, previous: 0 });
    expect(nowhere.figures.bounce_rate).toEqual({ value: null, previous: null });
  });

  it('week rows (0021): a range reads its whole weeks from them and its edge days from days, the week boundary at its exact instant', async () => {
    // W: the latest Monday (UTC), at most 6 days ago, so its Sunday's last millisecond is within the ingest's 7 days
    const today = Date.parse(`${day(Date.now())}T00:00:00.000Z`);
    const W = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
    const workspace = await t.createWorkspace('Weeks');
    const viewer = await signIn(base, await member(t, workspace.id, 'viewer'));
    const { key } = await createSiteKey(t, workspace);
    // X: a session from Sunday's last millisecond into Monday (it counts in the week it began); Y: Monday's first instant
    const [X, Y] = [randomUUID(), randomUUID()];
    const events = [
      pageView(X, '/sunday', { ts: at(W - 1), referrer: 'https://sunday.example/' }),
      pageView(X, '/later', { ts: at(W + MINUTE) }),
      pageView(Y, '/monday', { ts: at(W), referrer: 'https://monday.example/' }),
    ];
    expect((await postEvents(base, key, events, { 'user-agent': BROWSER_UA })).status).toBe(202);
    const weeks = async (from: number, to: number) => {
      const answer = await dashboard(base, viewer, 'GET', `/overview/traffic?from=${day(from)}&to=${day(to)}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const data = answer.body.data as Traffic;
      return {
        pages: data.breakdowns.pages.map((page) => `${page.path} ${page.views}`).sort(),
        referrers: data.breakdowns.referrers.map((row) => `${row.value} ${row.sessions}`).sort(),
        sessions: data.figures.sessions,
        page_views: data.figures.page_views,
      };
    };
    // Monday to Sunday: the week row alone; the previous period is the week before
    expect(await weeks(W, W + 6 * DAY_MS)).toEqual({
      pages: ['/later 1', '/monday 1'],
      referrers: ['monday.example 1'],
      sessions: { value: 1, previous: 1 },
      page_views: { value: 2, previous: 1 },
    });
    expect(await weeks(W - 7 * DAY_MS, W - DAY_MS)).toMatchObject({ pages: ['/sunday 1'], referrers: ['sunday.example 1'] });
    // the Sunday and the Monday: two day rows
    const all = { pages: ['/later 1', '/monday 1', '/sunday 1'], referrers: ['monday.example 1', 'sunday.example 1'] };
    expect(await weeks(W - DAY_MS, W)).toMatchObject(all);
    // an edge day and a whole week, then two whole weeks: each view once
    expect(await weeks(W - DAY_MS, W + 6 * DAY_MS)).toMatchObject(all);
    expect(await weeks(W - 7 * DAY_MS, W + 6 * DAY_MS)).toMatchObject(all);
    // Tuesday to the next Monday holds no whole week: days only, the week's row unread
    expect(await weeks(W + DAY_MS, W + 7 * DAY_MS)).toMatchObject({ pages: [], referrers: [] });
  });

  it('the last 30 days by default, today last', async () => {
    const data = await traffic('');
    expect(data.days).toHaveLength(30);
    expect(data.to).toBe(day(Date.now()));
    expect(data.figures.page_views.value).toBe(10);
  });

  it('a range of 366 days is answered; 367, a To before From, half a range or a day not in the calendar is 400 naming the parameter', async () => {
    const to = D;
    const from366 = day(M - 365 * DAY_MS);
    expect((await traffic(`from=${from366}&to=${to}`)).days).toHaveLength(366);
    expect((await traffic(`from=${to}&to=${to}`)).days).toHaveLength(1);
    const cases: [string, string][] = [
      [`from=${day(M - 366 * DAY_MS)}&to=${to}`, 'to'],
      [`from=${to}&to=${day(M - DAY_MS)}`, 'to'],
      [`from=${to}`, 'to'],
      [`to=${to}`, 'from'],
      ['from=2026-02-30&to=2026-03-01', 'from'],
      ['from=2026-3-1&to=2026-03-02', 'from'],
      [`from=${to}&to=${to}&site=`, 'site'],
    ];
    for (const [query, parameter] of cases) {
      const answer = await dashboard(base, session, 'GET', `/overview/traffic?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body, query).toMatchObject({ error: 'invalid_request', details: { parameters: { [parameter]: expect.any(String) } } });
    }
  });
});
