/**
 * C9.2 and admission control (issue 24, perf-live), over real HTTP on both
 * stores: an open Live stream gives its admission slot back once it is
 * open. Before, each open page held one of the few slots (16 by default)
 * for as long as it stayed open, so the 17th page, and every request doing
 * work beside them, waited for a slot and was refused 503. Here the server
 * has 2 slots: as many streams as slots, and one more, open; the Live page,
 * the events endpoint and the notice still answer.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { DEFAULT_ADMISSION } from '../../src/config.js';
import { GENEROUS_LIMITS, GENEROUS_TRACKING, createTestApp, type TestApp } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { openLiveStream, type LiveStream } from '../helpers/live.js';
import { storeKinds } from '../helpers/stores.js';
import { createSiteKey, pageView, postEvents } from '../helpers/tracking.js';

const SLOTS = 2;

describe.each(storeKinds())('C9.2: open Live streams hold no admission slot on %s', (kind) => {
  let t: TestApp;
  let app: FastifyInstance;
  let base: string;
  let session: DashboardSession;
  let siteKey: string;
  const streams: LiveStream[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    app = await buildApp({
      config: {
        rateLimits: GENEROUS_LIMITS,
        trustProxy: false,
        tracking: GENEROUS_TRACKING,
        admission: { ...DEFAULT_ADMISSION, maxEventLoopDelayMs: 0, maxEventLoopUtilization: 0, maxInFlight: SLOTS, queueTimeoutMs: 1000 },
      },
      database: t.db.database,
    });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    const workspace = await t.createWorkspace('Live slots');
    session = await signIn(base, await member(t, workspace.id, 'viewer'));
    siteKey = (await createSiteKey(t, workspace)).key;
  });
  afterAll(async () => {
    for (const stream of streams) await stream.close();
    await app?.close();
    await t?.close();
  });

  it('with 2 slots, 3 streams open; the page and the events endpoint answer beside them, and the visit is announced', async () => {
    const headers = { cookie: session.cookie, 'x-csrf-token': session.csrf };
    for (let index = 0; index <= SLOTS; index += 1) streams.push(await openLiveStream(base, headers));
    expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200]);
    expect(app.fairGate.inFlight).toBe(0);

    expect((await dashboard(base, session, 'GET', '/live')).status).toBe(200);
    const before = streams.map((stream) => stream.received);
    const sent = await postEvents(base, siteKey, [pageView(randomUUID(), '/pricing')]);
    expect(sent.status).toBe(202);
    await Promise.all(streams.map((stream, index) => stream.waitBeyond(before[index]!, 5000)));
    expect(app.fairGate.inFlight).toBe(0);
  });
});
