/**
 * The overview's leads and pages on both stores, as the overview page asks
 * for them (GET /dashboard/api/overview/traffic; its visitors, sessions and
 * other breakdowns: dashboard-traffic.test.ts): leads per UTC day by source
 * over the last 30 or 90 days, read from the per-day counters
 * (lead_counts), and new identities per day; one point per day, zeros
 * included, today last. Pages: page views sent through the events endpoint
 * (POST /e) counted per page and day as they are derived (page_counts),
 * most viewed first.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { importRows } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';
import { conversion, createSiteKey, identify, pageView, postEvents, track, type Event } from '../helpers/tracking.js';

const DAY_MS = 86_400_000;

interface Overview {
  days: { day: string; leads: number; by_source: Record<string, number>; identities: number }[];
  lead_sources: string[];
  figures: { leads: { value: number }; identities: { value: number } };
  breakdowns: { pages: { host: string; path: string; views: number; url: string }[] };
}

describe.each(storeKinds())('the dashboard overview on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let session: DashboardSession;
  let workspaceId: string;
  const now = Date.now();
  const today = new Date(now).toISOString().slice(0, 10);
  const dayAgo = (days: number) => new Date(now - days * DAY_MS).toISOString();

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    const workspace = await t.createWorkspace('Overview');
    workspaceId = workspace.id;
    session = await signIn(base, await member(t, workspace.id, 'viewer'));
    await importRows(t, workspace.id, 'leads', [
      { source: 'website', created_at: dayAgo(0) },
      { source: 'website', created_at: dayAgo(0) },
      { source: 'referral', created_at: dayAgo(3) },
      { created_at: dayAgo(3) },
      { source: 'campaign', created_at: dayAgo(45) },
      { source: 'website', created_at: dayAgo(120) },
    ]);
    await importRows(t, workspace.id, 'identities', [{ created_at: dayAgo(1) }, { created_at: dayAgo(1) }, { created_at: dayAgo(60) }]);
    const other = await t.createWorkspace('Elsewhere');
    await importRows(t, other.id, 'leads', [{ source: 'website', created_at: dayAgo(0) }]);
    const { key: otherKey } = await createSiteKey(t, other);
    expect((await postEvents(base, otherKey, [pageView(randomUUID(), '/elsewhere'), pageView(randomUUID(), '/pricing')])).status).toBe(202);
  });
  afterAll(async () => t?.close());

  /** the last `days` days (the default range: 30), as the overview's presets ask */
  const overview = async (days?: number) => {
    const range = days === undefined ? '' : `?from=${dayAgo(days - 1).slice(0, 10)}&to=${today}`;
    const answer = await dashboard(base, session, 'GET', `/overview/traffic${range}`);
    expect(answer.status).toBe(200);
    return answer.body.data as Overview;
  };
  const totals = (data: Overview) => ({ leads: data.figures.leads.value, identities: data.figures.identities.value });
  const topPages = async (days?: number) => (await overview(days)).breakdowns.pages.map(({ host, path, views }) => ({ host, path, views }));

  it('30 days by default: one point per day ending today, leads by source from the counters, new identities', async () => {
    const data = await overview();
    expect(data.days).toHaveLength(30);
    expect(data.days.at(-1)?.day).toBe(today);
    expect(data.days[0]?.day).toBe(dayAgo(29).slice(0, 10));
    expect(data.days.at(-1)).toMatchObject({ day: today, leads: 2, by_source: { website: 2, referral: 0 }, identities: 0 });
    // a lead without a source counts in the day's leads, in no source
    expect(data.days.at(-4)).toMatchObject({ day: dayAgo(3).slice(0, 10), leads: 2, by_source: { website: 0, referral: 1 }, identities: 0 });
    expect(data.days.at(-2)?.identities).toBe(2);
    expect(data.lead_sources).toEqual(['website', 'referral']);
    expect(totals(data)).toEqual({ leads: 4, identities: 2 });
  });

  it('90 days reaches further back; older leads stay out', async () => {
    const data = await overview(90);
    expect(data.days).toHaveLength(90);
    expect(totals(data)).toEqual({ leads: 5, identities: 3 });
    expect(data.lead_sources).toEqual(['website', 'campaign', 'referral']);
  });

  it('top pages: page views sent to the events endpoint, counted per page (no query string), most viewed first, this workspace only', async () => {
    const workspace = { id: workspaceId } as Parameters<typeof createSiteKey>[1];
    const { key } = await createSiteKey(t, workspace);
    expect(await topPages()).toEqual([]);
    const [ada, bob, cy] = [randomUUID(), randomUUID(), randomUUID()];
    const fiveDaysAgo = { ts: dayAgo(5) };
    const batch: Event[] = [
      pageView(ada, '/pricing'),
      pageView(ada, '/pricing?plan=pro#faq'),
      pageView(bob, '/pricing'),
      pageView(bob, '/'),
      pageView(cy, '/'),
      pageView(cy, '/docs/start', fiveDaysAgo),
      pageView(cy, '/docs/start', fiveDaysAgo),
      pageView(cy, '/docs/start', fiveDaysAgo),
      pageView(cy, '/docs/start', fiveDaysAgo),
      // the same path on another host of the workspace is another page
      pageView(ada, '/pricing', { url: 'https://Blog.Example.com/pricing' }),
      // only page views count
      track(ada, 'Clicked'),
      identify(ada, { email: 'ada@example.com' }),
      conversion(bob, 'Signed up', { url: 'https://shop.example.com/pricing' }),
    ];
    const sent = await postEvents(base, key, batch);
    expect(sent.status).toBe(202);
    // a batch sent again is duplicates: nothing counts twice
    expect((await postEvents(base, key, batch)).body).toMatchObject({ data: { accepted: 0, duplicates: batch.length } });
    // events older than 7 days are ignored, and not counted
    expect((await postEvents(base, key, [pageView(cy, '/old', { ts: dayAgo(8) })])).body).toMatchObject({ data: { ignored: 1 } });

    const shop = 'shop.example.com';
    expect(await topPages()).toEqual([
      { host: shop, path: '/docs/start', views: 4 },
      { host: shop, path: '/pricing', views: 3 },
      { host: shop, path: '/', views: 2 },
      { host: 'blog.example.com', path: '/pricing', views: 1 },
    ]);
    // the last 3 days leave out what was viewed 5 days ago
    expect(await topPages(3)).toEqual([
      { host: shop, path: '/pricing', views: 3 },
      { host: shop, path: '/', views: 2 },
      { host: 'blog.example.com', path: '/pricing', views: 1 },
    ]);
    expect((await topPages(90)).map((page) => page.path)).not.toContain('/elsewhere');
  });

  it('top pages: at most ten, in the order of their views', async () => {
    const { key } = await createSiteKey(t, { id: workspaceId } as Parameters<typeof createSiteKey>[1]);
    const visitor = randomUUID();
    const events = Array.from({ length: 12 }, (_, index) => Array.from({ length: 20 + index }, () => pageView(visitor, `/many/${index}`))).flat();
    for (let start = 0; start < events.length; start += 100) expect((await postEvents(base, key, events.slice(start, start + 100))).status).toBe(202);
    const pages = await topPages();
    expect(pages).toHaveLength(10);
    expect(pages.map((page) => page.path)).toEqual(Array.from({ length: 10 }, (_, index) => `/many/${11 - index}`));
    expect(pages.map((page) => page.views)).toEqual(Array.from({ length: 10 }, (_, index) => 31 - index));
  });
});
