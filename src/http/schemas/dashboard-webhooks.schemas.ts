/**
 * Request and response schemas of the dashboard's webhooks (CONTRACT C7.4,
 * C8.5): endpoints as the settings list them (no secret), the creation that
 * answers the `whsec_` secret once, enabling and disabling, the deliveries
 * of one endpoint, and the event catalogue the create form offers. The
 * same fields as /api/v1/webhooks; hidden from the public OpenAPI document
 * like every /dashboard/api schema.
 */
import { Type } from '@sinclair/typebox';
import { Nullable, Timestamp, Uuid } from '../../schemas/fields.js';
import { WEBHOOK_EVENTS } from '../../services/webhooks/events.js';

const Opt = Type.Optional;
const Page = Type.Object({ limit: Type.Integer(), offset: Type.Integer(), total: Type.Integer() }, { additionalProperties: false });

const EndpointFields = {
  id: Uuid(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  enabled: Type.Boolean(),
  status: Type.Union([Type.Literal('active'), Type.Literal('failing')], { description: 'failing after repeated failed deliveries' }),
  created_at: Timestamp(),
  updated_at: Timestamp(),
};

export const EndpointSchema = Type.Object(EndpointFields, { additionalProperties: false });
export const EndpointEnvelope = Type.Object({ data: EndpointSchema }, { additionalProperties: false });
export const EndpointListEnvelope = Type.Object({ data: Type.Array(EndpointSchema), pagination: Page }, { additionalProperties: false });
export const CreatedEndpointEnvelope = Type.Object(
  { data: Type.Object({ ...EndpointFields, secret: Type.String({ description: 'whsec_…: shown this once' }) }, { additionalProperties: false }) },
  { additionalProperties: false },
);

const EventList = Type.Array(Type.String({ enum: [...WEBHOOK_EVENTS] }), { minItems: 1, maxItems: WEBHOOK_EVENTS.length * 2 });
const Url = Type.String({ minLength: 1, maxLength: 2000 });
const Description = Nullable(Type.String({ maxLength: 500 }));

export const EndpointCreateBody = Type.Object({ url: Url, events: EventList, description: Opt(Description) }, { additionalProperties: false });
export const EndpointUpdateBody = Type.Object(
  { url: Opt(Url), events: Opt(EventList), description: Opt(Description), enabled: Opt(Type.Boolean()) },
  { additionalProperties: false },
);

export const DeliveryListQuery = Type.Object(
  { limit: Opt(Type.Integer({ minimum: 1 })), offset: Opt(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })) },
  { additionalProperties: true },
);
const DeliverySchema = Type.Object(
  {
    id: Uuid(),
    webhook_id: Uuid(),
    message_id: Type.String(),
    event_type: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
    attempts: Type.Integer(),
    next_attempt_at: Nullable(Timestamp()),
    last_response_code: Nullable(Type.Integer()),
    last_duration_ms: Nullable(Type.Integer()),
    last_error: Nullable(Type.String()),
    created_at: Timestamp(),
    delivered_at: Nullable(Timestamp()),
  },
  { additionalProperties: false },
);
export const DeliveryListEnvelope = Type.Object({ data: Type.Array(DeliverySchema), pagination: Page }, { additionalProperties: false });

export const TestQueuedEnvelope = Type.Object({ data: Type.Object({ queued: Type.Integer() }, { additionalProperties: false }) }, { additionalProperties: false });

export const EventCatalogueEnvelope = Type.Object(
  { data: Type.Array(Type.Object({ type: Type.String(), summary: Type.String(), description: Type.String() }, { additionalProperties: false })) },
  { additionalProperties: false },
);
