/**
 * The events endpoint (CONTRACT C5.3): `POST /e` (the path is configurable:
 * TRACKER_EVENTS_PATH) and its CORS preflight. Outside /api/v1 and its API
 * keys: a batch names its site key in the body. Bodies are JSON sent as
 * `application/json` or `text/plain` (what sendBeacon and a preflight-free
 * fetch send), at most 512 KiB. The order of checks: the address's rate
 * limit (before the body is read), the body, the site key (401), its origins
 * (403), the key's rate limit (429), then the events, judged whole (400).
 * Every answer to a request with an Origin carries
 * Access-Control-Allow-Origin, so the tracker can read it.
 */
import type { FastifyError, FastifyPluginAsync, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import type { TrackingConfig } from '../../config.js';
import type { RefusedBy } from '../../observability/app-metrics.js';
import type { RateLimiter } from '../../rate-limit/rate-limiter.js';
import type { Services } from '../../services/index.js';
import { normalizeAddress } from '../../services/tracking/addresses.js';
import { originAllowed } from '../../services/tracking/origins.js';
import { HttpError, invalidBody } from '../errors.js';
import { rateLimited, setRateHeaders } from '../plugins/gate.js';
import { sendError, toHttpError } from '../plugins/error-handler.js';
import { EVENT_ERROR_RESPONSES, EventBatchBody, EventCountsEnvelope } from '../schemas/ingest.schemas.js';

export const MAX_EVENTS_BODY = 512 * 1024;
export const INGEST_MEDIA_TYPES = ['application/json', 'text/plain'];
/** how long a browser may reuse a preflight's answer (Chromium caps it at 2 hours) */
const PREFLIGHT_MAX_AGE_S = 86_400;

export interface IngestRouteOptions {
  services: Pick<Services, 'siteKeys' | 'ingest'>;
  limiter: RateLimiter;
  tracking: Pick<TrackingConfig, 'eventsPath' | 'ingestLimit' | 'ingestAddressLimit'>;
  clock: () => number;
  onRateLimited?: (refusedBy: RefusedBy) => void;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const unauthorizedSite = () => new HttpError('unauthorized', 'Invalid or missing site key');

function unsupported(): HttpError {
  const accepted = INGEST_MEDIA_TYPES.join(' or ');
  return new HttpError('unsupported_media_type', `Content-Type must be ${accepted}`, { accepted });
}

/** The body as a JSON object: UTF-8 JSON, whichever of the two media types carried it. */
function parseBatch(request: FastifyRequest, raw: Buffer): Record<string, unknown> {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') throw unsupported();
  const encoding = request.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    throw new HttpError('unsupported_media_type', `Content-Encoding ${encoding} is not supported; send the body uncompressed`, {
      accepted_encoding: 'identity',
    });
  }
  if (raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf) throw invalidBody('request body must not start with a byte order mark (RFC 8259)');
  let value: unknown;
  try {
    value = secureJson.parse(utf8.decode(raw), null, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw invalidBody('request body is not valid UTF-8 JSON (or uses the reserved keys __proto__ or constructor.prototype)');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalidBody('request body must be a JSON object');
  return value as Record<string, unknown>;
}

export const ingestRoutes: FastifyPluginAsync<IngestRouteOptions> = async (app, options) => {
  const { services, limiter, tracking, clock, onRateLimited } = options;
  const path = tracking.eventsPath;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(INGEST_MEDIA_TYPES, { parseAs: 'buffer', bodyLimit: MAX_EVENTS_BODY }, (request, raw, done) => {
    try {
      done(null, parseBatch(request, raw as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  app.setErrorHandler((error, request, reply) => {
    const code = (error as FastifyError).code;
    const httpError =
      code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || code === 'FST_ERR_CTP_INVALID_CONTENT_TYPE'
        ? unsupported()
        : code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? new HttpError('payload_too_large', 'request body is larger than 512 KiB', { max_bytes: MAX_EVENTS_BODY })
          : toHttpError(error, request);
    // an answer of our own (an overload 503: counted by the overload warning) is not a failure to log
    if (httpError.statusCode >= 500 && !(error instanceof HttpError)) request.log.error({ err: error }, 'request failed');
    return sendError(reply, httpError);
  });

  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin !== undefined) {
      reply.header('access-control-allow-origin', origin);
      reply.header('vary', 'Origin');
    }
    if (request.method === 'OPTIONS') return;
    const decision = await limiter.consume(`ingest-address:${request.ip}`, tracking.ingestAddressLimit);
    setRateHeaders(reply, decision, 'address');
    if (!decision.allowed) {
      onRateLimited?.('ingest_address');
      throw rateLimited(decision);
    }
  });

  app.options(path, { schema: { hide: true } }, async (_request, reply) => {
    reply
      .header('access-control-allow-methods', 'POST')
      .header('access-control-allow-headers', 'content-type')
      .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_S))
      .code(204);
    return reply.send();
  });

  app.post(
    path,
    {
      bodyLimit: MAX_EVENTS_BODY,
      // The body schema documents; the batch is judged by the ingest service (ingest.schemas.ts).
      validatorCompiler: () => () => true,
      schema: {
        operationId: 'sendEvents',
        tags: ['tracking'],
        summary: 'Send tracked events',
        description:
          'What the browser tracker (`/t.js`) sends: a batch of 1 to 100 events with a publishable site key in the body, as `application/json` or `text/plain` (what `navigator.sendBeacon` sends). No API key. The batch is judged whole: one invalid event refuses it (400, naming `events[i].field`) and nothing is written. An event whose `id` the workspace already has is counted as a duplicate; requests from bots are accepted and ignored. Cross-origin: `OPTIONS` answers the preflight, and the key\'s allowed origins are enforced here (403).',
        security: [],
        consumes: INGEST_MEDIA_TYPES,
        body: EventBatchBody,
        response: { 202: EventCountsEnvelope, ...EVENT_ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const body = request.body as Record<string, unknown> | undefined;
      if (body === undefined) throw invalidBody('request body must be a JSON object with key and events');
      const key = typeof body.key === 'string' ? await services.siteKeys.authenticate(body.key) : undefined;
      if (key === undefined) throw unauthorizedSite();
      if (!originAllowed(key.origins, request.headers.origin)) {
        throw new HttpError('forbidden', 'this site key does not accept events from this origin', { origin: request.headers.origin });
      }
      const decision = await limiter.consume(`site:${key.id}`, tracking.ingestLimit);
      setRateHeaders(reply, decision, 'site');
      if (!decision.allowed) {
        onRateLimited?.('site');
        throw rateLimited(decision);
      }
      const counts = await services.ingest.receive(key.workspace_id, body, {
        receivedAt: clock(),
        address: normalizeAddress(request.ip),
        userAgent: request.headers['user-agent'],
        clientHints: typeof request.headers['sec-ch-ua'] === 'string' ? request.headers['sec-ch-ua'] : undefined,
      });
      try {
        await services.siteKeys.recordUse(key);
      } catch (error) {
        request.log.warn({ err: error }, 'could not record site key use');
      }
      // an answer of counts, nothing of anyone's data: `no-cache` rather than the
      // API's `no-store`, which would also keep it from a browser's developer tools
      reply.code(202).header('cache-control', 'no-cache');
      return { data: counts };
    },
  );
};
