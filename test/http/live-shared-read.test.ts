/**
 * C9.2 over real HTTP on both stores (issue 24, perf-live): the Live page's
 * read is shared by the workspace's pages until the next change, and never
 * outlives one. A visit this process took is listed by the read right after
 * its 202; a visit another process took (a second app over the same store,
 * whose notice comes over the bus) is listed by the read the notice causes,
 * even when an older read of the page is less than a second old.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { openLiveStream } from '../helpers/live.js';
import { storeKinds } from '../helpers/stores.js';
import { createSiteKey, pageView, postEvents } from '../helpers/tracking.js';
import { LiveHub } from '../../src/services/live/live-hub.js';
import { MemoryLiveBus } from '../../src/services/live/live-bus.js';

describe.each(storeKinds())('C9.2: one read of the Live page per change on %s', (kind) => {
  let t: TestApp;
  let other: TestApp;
  let base: string;
  let otherBase: string;
  let session: DashboardSession;
  let siteKey: string;
  let workspaceId: string;
  const hub = new LiveHub(new MemoryLiveBus());

  beforeAll(async () => {
    t = await createTestApp(kind, { live: hub });
    other = await createTestApp(kind, { db: t.db });
    base = await t.listen();
    otherBase = await other.listen();
    const workspace = await t.createWorkspace('Shared reads');
    workspaceId = workspace.id;
    session = await signIn(base, await member(t, workspace.id, 'viewer'));
    siteKey = (await createSiteKey(t, workspace)).key;
  });
  afterAll(async () => {
    await other?.app.close();
    await t?.close();
    await hub.close();
  });

  const listed = async () => {
    const answer = await dashboard(base, session, 'GET', '/live');
    expect(answer.status).toBe(200);
    return (answer.body.data as { visits: { visitor_id: string }[] }).visits.map((visit) => visit.visitor_id);
  };

  it('a visit this process took is listed by the read right after its 202', async () => {
    const visitor = randomUUID();
    expect(await listed()).not.toContain(visitor);
    expect((await postEvents(base, siteKey, [pageView(visitor, '/pricing')])).status).toBe(202);
    expect(await listed()).toContain(visitor);
  });

  it("a visit another process took is listed by the read its notice causes, though this process's last read is younger than a second", async () => {
    const visitor = randomUUID();
    const stream = await openLiveStream(base, { cookie: session.cookie, 'x-csrf-token': session.csrf });
    try {
      expect(await listed()).not.toContain(visitor);
      expect((await postEvents(otherBase, siteKey, [pageView(visitor, '/docs')])).status).toBe(202);
      // the other process's notice, as Redis would bring it
      const before = stream.received;
      hub.bus.publish(workspaceId);
      await stream.waitBeyond(before, 5000);
      expect(await listed()).toContain(visitor);
    } finally {
      await stream.close();
    }
  });
});
