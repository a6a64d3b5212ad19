/**
 * C9.2 over real HTTP on both stores: the Live page's visits (the last 30
 * minutes, newest first, with the person else none, the current page, the
 * pages of the visit and the source), the visitors active in the last 5
 * minutes, and its event stream: a visit sent to the events endpoint is
 * announced within 5 seconds, a burst of visits as at most a notice per
 * 500 ms, and streams beyond the cap are refused (503) until one closes.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { openLiveStream } from '../helpers/live.js';
import { storeKinds } from '../helpers/stores.js';
import { createSiteKey, identify, pageView, postEvents } from '../helpers/tracking.js';
import { LiveHub } from '../../src/services/live/live-hub.js';
import { MemoryLiveBus } from '../../src/services/live/live-bus.js';

interface Visit {
  visitor_id: string;
  person: { name: string | null; email: string | null } | null;
  current_page: string | null;
  pages: number;
  source: string | null;
  last_at: string;
}

describe.each(storeKinds())('C9.2: the Live page on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let session: DashboardSession;
  let siteKey: string;
  const hub = new LiveHub(new MemoryLiveBus(), { maxStreamsPerWorkspace: 3 });
  const headers = () => ({ cookie: session.cookie, 'x-csrf-token': session.csrf });
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

  beforeAll(async () => {
    t = await createTestApp(kind, { live: hub });
    base = await t.listen();
    const workspace = await t.createWorkspace('Live');
    session = await signIn(base, await member(t, workspace.id, 'viewer'));
    siteKey = (await createSiteKey(t, workspace)).key;
  });
  afterAll(async () => {
    await t?.close();
    await hub.close();
  });

  const live = async () => {
    const answer = await dashboard(base, session, 'GET', '/live');
    expect(answer.status).toBe(200);
    return answer.body.data as { active_visitors: number; visits: Visit[] };
  };

  it('lists the visits of the last 30 minutes newest first, with who, the current page, the pages and the source; counts the active of the last 5', async () => {
    const [old, earlier, known, anonymous] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const sent = await postEvents(base, siteKey, [
      pageView(old, '/too-old', { ts: minutesAgo(31) }),
      pageView(earlier, '/earlier', { ts: minutesAgo(10) }),
      pageView(known, '/pricing?utm_source=news', { ts: minutesAgo(2) }),
      pageView(known, '/signup', { ts: minutesAgo(1) }),
      identify(known, { email: 'ada@example.com', name: 'Ada Lovelace' }, { ts: minutesAgo(1) }),
      pageView(anonymous, '/', { ts: minutesAgo(0.5) }),
    ]);
    expect(sent.status).toBe(202);
    const { active_visitors, visits } = await live();
    expect(visits.map((visit) => visit.visitor_id)).toEqual([anonymous, known, earlier]);
    expect(visits[0]).toMatchObject({ person: null, pages: 1, source: 'website' });
    expect(visits[0]!.current_page).toMatch(/\/$/);
    expect(visits[1]).toMatchObject({ person: { name: 'Ada Lovelace', email: 'ada@example.com' }, pages: 2, source: 'campaign' });
    expect(visits[1]!.current_page).toMatch(/\/signup$/);
    expect(active_visitors).toBe(2);
  });

  it('announces a new visit on the stream within 5 seconds, and the visit is then listed', async () => {
    const stream = await openLiveStream(base, headers());
    try {
      expect(stream.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 600));
      const before = stream.received;
      const visitor = randomUUID();
      expect((await postEvents(base, siteKey, [pageView(visitor, '/streamed')])).status).toBe(202);
      await stream.waitBeyond(before, 5000);
      expect((await live()).visits[0]).toMatchObject({ visitor_id: visitor });
    } finally {
      await stream.close();
    }
  });

  it('coalesces a burst: 20 batches in a row are at most one notice at once and one at the end of 500 ms', async () => {
    const stream = await openLiveStream(base, headers());
    try {
      await new Promise((resolve) => setTimeout(resolve, 600));
      const before = stream.received;
      const started = Date.now();
      for (let index = 0; index < 20; index += 1) {
        expect((await postEvents(base, siteKey, [pageView(randomUUID(), `/burst-${index}`)])).status).toBe(202);
      }
      const elapsed = Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 700));
      const notices = stream.received - before;
      expect(notices).toBeGreaterThanOrEqual(1);
      expect(notices).toBeLessThanOrEqual(Math.ceil(elapsed / 500) + 1);
    } finally {
      await stream.close();
    }
  });

  it('refuses a stream beyond the cap of a workspace with 503, and takes one again once a stream closed', async () => {
    const open = [];
    for (let index = 0; index < 3; index += 1) open.push(await openLiveStream(base, headers()));
    expect(open.map((stream) => stream.status)).toEqual([200, 200, 200]);
    expect(hub.open).toBe(3);
    const refused = await fetch(`${base}/dashboard/api/live/stream`, { headers: headers() });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await refused.json()).toMatchObject({ error: 'service_unavailable' });
    await open.pop()!.close();
    const until = Date.now() + 5000;
    while (hub.open > 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(hub.open).toBe(2);
    const again = await openLiveStream(base, headers());
    expect(again.status).toBe(200);
    for (const stream of [...open, again]) await stream.close();
  });

  it('without a session the stream is 401', async () => {
    const answer = await fetch(`${base}/dashboard/api/live/stream`);
    expect(answer.status).toBe(401);
  });
});
