/**
 * GET /t.js (CONTRACT C5.2; the path is configurable: TRACKER_SCRIPT_PATH):
 * the tracker as built by `npm run build` (dist/tracker/t.js), with the
 * configured events path put in. Served as text/javascript, gzipped for
 * clients that accept it, cacheable for 10 minutes and then revalidated by
 * its ETag (the URL is not content-hashed, so a new version reaches sites
 * within minutes), and loadable from any site, also under
 * Cross-Origin-Embedder-Policy. No key and no rate limit: it is the same
 * public file for everyone.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import type { FastifyPluginAsync } from 'fastify';
import type { TrackingConfig } from '../../config.js';
import { HttpError } from '../errors.js';

/** dist/tracker/t.js, from src/http/routes or dist/http/routes alike */
export const TRACKER_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'dist', 'tracker', 't.js');
export const EVENTS_PATH_PLACEHOLDER = '%%LEADLIGHT_EVENTS_PATH%%';
const MAX_AGE_S = 600;

export interface TrackerScript {
  body: Buffer;
  gzipped: Buffer;
  etag: string;
}

/** The built tracker sending to `eventsPath`; undefined when it has not been built. */
export function trackerScript(eventsPath: string, file = TRACKER_FILE): TrackerScript | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const body = Buffer.from(text.replace(EVENTS_PATH_PLACEHOLDER, eventsPath));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { body, gzipped: zlib.gzipSync(body, { level: 9 }), etag };
}

export interface TrackerRouteOptions {
  tracking: Pick<TrackingConfig, 'scriptPath' | 'eventsPath'>;
  /** told once when the tracker has not been built */
  onMissing?: () => void;
}

/** Whether Accept-Encoding lists gzip with a weight above zero. */
function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const weight = parameters.find((parameter) => parameter.startsWith('q='));
    return coding === 'gzip' && (weight === undefined || Number(weight.slice(2)) > 0);
  });
}

export const trackerRoutes: FastifyPluginAsync<TrackerRouteOptions> = async (app, { tracking, onMissing }) => {
  const script = trackerScript(tracking.eventsPath);
  if (script === undefined) onMissing?.();

  app.get(tracking.scriptPath, { schema: { hide: true } }, async (request, reply) => {
    if (script === undefined) throw new HttpError('not_found', 'the tracker script has not been built (npm run build)');
    reply
      .header('cache-control', `public, max-age=${MAX_AGE_S}`)
      .header('etag', script.etag)
      .header('vary', 'Accept-Encoding')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('access-control-allow-origin', '*')
      .header('x-content-type-options', 'nosniff')
      .type('text/javascript; charset=utf-8');
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === script.etag)) {
      return reply.code(304).send();
    }
    if (acceptsGzip(request.headers['accept-encoding'])) return reply.header('content-encoding', 'gzip').send(script.gzipped);
    return reply.send(script.body);
  });
};
