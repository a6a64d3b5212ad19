/**
 * Response schemas of the Live page's endpoints (CONTRACT C9.2): the visits
 * of the last 30 minutes with the visitors active in the last 5, and the
 * stream of notices (server-sent events) that tells the page to read them
 * again.
 */
import { Type } from '@sinclair/typebox';
import { Nullable, Timestamp, Uuid } from '../../schemas/fields.js';

const LiveVisit = Type.Object(
  {
    visitor_id: Uuid(),
    session_id: Uuid(),
    started_at: Timestamp(),
    last_at: Timestamp({ description: 'the time of the visit’s latest event' }),
    person: Nullable(Type.Object({ id: Uuid(), name: Nullable(Type.String()), email: Nullable(Type.String()) }, { additionalProperties: false })),
    company: Nullable(Type.Object({ id: Uuid(), name: Type.String() }, { additionalProperties: false })),
    country: Nullable(Type.String()),
    current_page: Nullable(Type.String({ description: 'the URL of the visitor’s latest page view' })),
    pages: Type.Integer({ minimum: 0, description: 'page views in the visit' }),
    source: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

export const LiveEnvelope = Type.Object(
  {
    data: Type.Object(
      {
        active_visitors: Type.Integer({ minimum: 0, description: 'visitors whose latest event is within the last 5 minutes' }),
        visits: Type.Array(LiveVisit, { description: 'the visits of the last 30 minutes, newest first (at most 100)' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const LiveStreamResponse = Type.String({ description: 'text/event-stream: an event `visits` whenever the workspace’s visits changed, comments as heartbeats' });
