/**
 * How the OpenAPI document describes the events endpoint (CONTRACT C5.3):
 * the batch `{key, events}` and its answer. The route documents the body
 * with this schema but does not validate with it: the batch is judged whole
 * by schemas/tracked-events.ts, after the site key, so that the order of
 * checks and the `events[3].url` details stay exactly as the contract says.
 */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_EVENTS, TrackedEventSchema } from '../../schemas/tracked-events.js';
import { errorResponse, type ErrorSchema } from './common.js';
import { EVENTS_EXAMPLE, withExample } from './examples.js';

export const EventBatchBody = withExample(
  Type.Object(
    {
      key: Type.String({ description: 'the site key (ll_site_…) the events are sent with; publishable' }),
      events: Type.Array(TrackedEventSchema, { minItems: 1, maxItems: MAX_EVENTS }),
    },
    { additionalProperties: false },
  ),
  EVENTS_EXAMPLE,
);

export const EventCountsEnvelope = withExample(
  Type.Object(
    {
      data: Type.Object(
        {
          accepted: Type.Integer({ description: 'events stored' }),
          duplicates: Type.Integer({ description: 'events whose id the workspace already had (nothing changed)' }),
          ignored: Type.Integer({ description: 'events from bots, or older than 7 days' }),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
  { data: { accepted: 2, duplicates: 0, ignored: 0 } },
  'The batch was judged valid: what became of its events',
);

export const EVENT_ERROR_RESPONSES = {
  400: errorResponse(400, 'An invalid event, or a body that is not a batch of 1 to 100 events: nothing was written (invalid_request)'),
  401: errorResponse(401, 'Missing, unknown or revoked site key (unauthorized)'),
  403: errorResponse(403, 'The site key does not accept events from this Origin (forbidden)'),
  413: errorResponse(413, 'Body larger than 512 KiB (payload_too_large)'),
  415: errorResponse(415, 'Content-Type other than application/json or text/plain (unsupported_media_type)'),
  429: errorResponse(429, "The site key's or the client address's rate limit is exceeded (rate_limit_exceeded)"),
  500: errorResponse(500),
  503: errorResponse(503),
};

/** The errors of the events endpoint as the document shows them (openapi.ts puts them in). */
export const EVENT_ERROR_EXAMPLES: Record<number, Static<typeof ErrorSchema>> = {
  400: {
    error: 'invalid_request',
    message: 'events[1].name is required for conversion events',
    details: { fields: { 'events[1].name': 'is required for conversion events' } },
  },
  401: { error: 'unauthorized', message: 'Invalid or missing site key' },
  403: {
    error: 'forbidden',
    message: 'this site key does not accept events from this origin',
    details: { origin: 'https://elsewhere.example' },
  },
  413: { error: 'payload_too_large', message: 'request body is larger than 512 KiB', details: { max_bytes: 524288 } },
  415: {
    error: 'unsupported_media_type',
    message: 'Content-Type must be application/json or text/plain',
    details: { accepted: 'application/json or text/plain' },
  },
};
