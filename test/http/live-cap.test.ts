/**
 * C9.2 and MAX_CONNECTIONS, over real HTTP on both stores: an open Live
 * stream holds a connection, so a process lets streams take at most half of
 * the connections it accepts (README "Live"); the next stream is refused 503
 * with Retry-After while the API keeps its half. The caps' edges are pinned
 * by liveLimitsFor itself.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { DEFAULT_HTTP_LIMITS } from '../../src/config.js';
import { DEFAULT_LIVE_LIMITS, liveLimitsFor } from '../../src/services/live/live-hub.js';
import { GENEROUS_LIMITS, GENEROUS_TRACKING, createTestApp, type TestApp } from '../helpers/app.js';
import { dashboard, member, signIn, type DashboardSession } from '../helpers/dashboard.js';
import { openLiveStream, type LiveStream } from '../helpers/live.js';
import { storeKinds } from '../helpers/stores.js';

const MAX_CONNECTIONS = 21;
const STREAMS = 10;

describe('liveLimitsFor: half of MAX_CONNECTIONS, at most the defaults', () => {
  it.each([
    [1, 0, 0],
    [2, 1, 1],
    [21, 10, 10],
    [1_024, 512, 512],
    [2_000, 1_000, 1_000],
    [2_002, 1_001, 1_000],
    [3_999, 1_999, 1_000],
    [4_000, 2_000, 1_000],
    [4_001, 2_000, 1_000],
    [1_000_000, 2_000, 1_000],
  ])('MAX_CONNECTIONS %i: %i streams, %i per workspace', (maxConnections, streams, perWorkspace) => {
    expect(liveLimitsFor(maxConnections)).toEqual({ coalesceMs: DEFAULT_LIVE_LIMITS.coalesceMs, maxStreams: streams, maxStreamsPerWorkspace: perWorkspace });
  });
});

describe.each(storeKinds())('C9.2: Live streams take at most half of MAX_CONNECTIONS on %s', (kind) => {
  let t: TestApp;
  let app: FastifyInstance;
  let base: string;
  let session: DashboardSession;
  const streams: LiveStream[] = [];
  const headers = () => ({ cookie: session.cookie, 'x-csrf-token': session.csrf });

  beforeAll(async () => {
    t = await createTestApp(kind);
    app = await buildApp({
      config: { rateLimits: GENEROUS_LIMITS, trustProxy: false, tracking: GENEROUS_TRACKING, http: { ...DEFAULT_HTTP_LIMITS, maxConnections: MAX_CONNECTIONS } },
      database: t.db.database,
    });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    const workspace = await t.createWorkspace('Live cap');
    session = await signIn(base, await member(t, workspace.id, 'viewer'));
  });
  afterAll(async () => {
    for (const stream of streams) await stream.close();
    await app?.close();
    await t?.close();
  });

  it(`with MAX_CONNECTIONS ${MAX_CONNECTIONS}, ${STREAMS} streams open, the next is refused 503 with Retry-After, the page still answers, and a closed stream frees its place`, async () => {
    for (let index = 0; index < STREAMS; index += 1) streams.push(await openLiveStream(base, headers()));
    expect(streams.map((stream) => stream.status)).toEqual(Array.from({ length: STREAMS }, () => 200));

    const refused = await fetch(`${base}/dashboard/api/live/stream`, { headers: headers() });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await refused.json()).toMatchObject({ error: 'service_unavailable' });

    expect((await dashboard(base, session, 'GET', '/live')).status).toBe(200);

    // the server forgets a stream when it sees its connection close, which can come a moment after the client's abort
    await streams.pop()!.close();
    const deadline = Date.now() + 2_000;
    let again = await openLiveStream(base, headers());
    while (again.status === 503 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await openLiveStream(base, headers());
    }
    streams.push(again);
    expect(again.status).toBe(200);
  });
});
