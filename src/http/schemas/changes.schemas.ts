/**
 * The schemas of GET /api/v1/changes (CONTRACT C11.1): its query (limit,
 * cursor, types) and its answer, events of the webhooks' shape with their id.
 */
import { Type } from '@sinclair/typebox';
import { WEBHOOK_EVENTS } from '../../services/webhooks/events.js';
import { EXAMPLE_IDS, LEAD_EXAMPLE } from './examples.js';

export const ChangesQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, description: 'page size, default 50; above 100 it is lowered to 100' })),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description: 'continue after the page that gave this cursor (its Link rel="next" or rel="poll"); store it to resume later',
      }),
    ),
    types: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description: `comma-separated event types to list (default every type): ${WEBHOOK_EVENTS.join(', ')}`,
      }),
    ),
  },
  { additionalProperties: true },
);

export const ChangeEventSchema = Type.Object(
  {
    id: Type.String({ description: 'the event id: the webhook-id header of its webhook deliveries' }),
    type: Type.String({ description: 'the event type, as in the webhooks' }),
    timestamp: Type.String({ description: 'when the change happened (ISO 8601)' }),
    data: Type.Object({}, { additionalProperties: true, description: "the event's data, as in its webhook payload" }),
  },
  { additionalProperties: false },
);

export const ChangesEnvelope = Type.Object({ data: Type.Array(ChangeEventSchema) }, { additionalProperties: false });

export const CHANGES_EXAMPLE = {
  data: [
    { id: 'msg_2bKq9Xv4Lw8Tz1Nc7Hd3Fp6Rj0Ym5Ua2', type: 'lead.created', timestamp: LEAD_EXAMPLE.created_at, data: LEAD_EXAMPLE },
    {
      id: 'msg_7Hd3Fp6Rj0Ym5Ua22bKq9Xv4Lw8Tz1Nc',
      type: 'list.member_added',
      timestamp: LEAD_EXAMPLE.created_at,
      data: { list_id: EXAMPLE_IDS.list, identity_id: EXAMPLE_IDS.identity },
    },
  ],
};
