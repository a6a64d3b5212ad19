/**
 * /dashboard/api/live: the Live page (CONTRACT C9.2) for every member of the
 * workspace. `GET /live` reads the visits of the last 30 minutes (one read
 * shared by the workspace's pages until the next change, at most 1 s); `GET
 * /live/stream` is a server-sent event stream that sends `event: visits`
 * whenever the workspace's visits changed (at most one every 500 ms: the
 * hub coalesces), so the page reads them again without reloading. A stream
 * sends a heartbeat comment every 15 s, is capped per process and per
 * workspace (503 beyond), skips notices while its client is not reading,
 * gives its admission slot back once open (a page open for an hour must not
 * take one of the few slots the requests doing work share), and is
 * forgotten as soon as its connection closes.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HttpError } from '../../errors.js';
import { workspaceOf } from '../../request-context.js';
import { errorResponses } from '../../schemas/common.js';
import { LiveEnvelope, LiveStreamResponse } from '../../schemas/live.schemas.js';
import type { LiveHub } from '../../../services/live/live-hub.js';
import { SharedReads } from '../../../services/live/shared-reads.js';
import type { LiveSnapshot } from '../../../services/tenant/live.service.js';

export const HEARTBEAT_MS = 15_000;
/** how long one read of the page serves the pages that ask for it while nothing changed (shared-reads.ts) */
const SHARED_READ_MS = 1000;
/** a client this far behind (bytes not yet taken) gets no more notices until it catches up */
const MAX_BUFFERED = 16_384;

export const liveRoutes: FastifyPluginAsyncTypebox<{ hub: LiveHub; heartbeatMs?: number }> = async (app, { hub, heartbeatMs = HEARTBEAT_MS }) => {
  const snapshots = new SharedReads<LiveSnapshot>(SHARED_READ_MS);
  app.get('/live', { schema: { response: { 200: LiveEnvelope } } }, async (request) => {
    const workspace = workspaceOf(request);
    return { data: await snapshots.get(workspace.id, hub.generation(workspace.id), () => workspace.live.snapshot()) };
  });

  app.get('/live/stream', { schema: { response: { 200: LiveStreamResponse, ...errorResponses(503) } } }, async (request, reply) => {
    const raw = reply.raw;
    let write: (text: string) => void = () => undefined;
    const unsubscribe = hub.subscribe(
      workspaceOf(request).id,
      () => write('event: visits\ndata: {}\n\n'),
      () => raw.end(),
    );
    if (unsubscribe === undefined) {
      throw new HttpError('service_unavailable', 'Too many live streams are open on this server; try again shortly', undefined, { 'retry-after': '30' });
    }
    reply.hijack();
    // the stream's work (the session, the subscription) is done: an open page must not hold an admission slot
    request.releaseSlot();
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    write = (text) => {
      if (!raw.destroyed && raw.writableLength < MAX_BUFFERED) raw.write(text);
    };
    write('retry: 2000\n: connected\n\n');
    const heartbeat = setInterval(() => write(': heartbeat\n\n'), heartbeatMs);
    const close = () => {
      clearInterval(heartbeat);
      unsubscribe();
    };
    // the response's close: the connection ended (the request's own close comes once a GET is read)
    raw.once('close', close);
  });
};
