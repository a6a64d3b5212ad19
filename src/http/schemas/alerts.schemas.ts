/**
 * The shapes of alerts (CONTRACT C10.1, C10.2) on /api/v1 and in the
 * dashboard's API: the alert as answered, the bodies that make and change
 * one, and a delivery of its log. A trigger or destination is an object with
 * a `type` and that type's fields; which fields a type needs is told by the
 * service, naming the field (C3.5).
 */
import { Type } from '@sinclair/typebox';
import { Nullable } from '../../schemas/fields.js';
import { DESTINATION_TYPES, MAX_COOLDOWN_MINUTES, MAX_EMAIL_RECIPIENTS, TRIGGER_TYPES } from '../../services/alerts/model.js';

export const AlertTriggerSchema = Type.Object(
  {
    type: Type.Unsafe<(typeof TRIGGER_TYPES)[number]>(Type.String({ enum: [...TRIGGER_TYPES] })),
    list_id: Type.Optional(Type.String({ maxLength: 64, description: 'segment_entered: a list or segment of your workspace' })),
    score: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'score_reached: fires when a lead score reaches this (C6.2, 0–100)' })),
    path: Type.Optional(
      Type.String({ minLength: 1, maxLength: 500, description: 'page_viewed: a path glob (`*` any characters, `?` one), such as /pricing*' }),
    ),
    after_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, description: 'company_returned: a known company visits again after this many days away' })),
  },
  {
    additionalProperties: false,
    description:
      'segment_entered {list_id}, score_reached {score}, page_viewed {path} (by a person, or a visitor whose company is known), company_returned {after_days}, conversion {}',
  },
);

export const AlertFiltersSchema = Type.Object(
  {
    company_known: Type.Optional(Type.Boolean({ description: 'true: only visitors whose company is known' })),
    countries: Type.Optional(Type.Array(Type.String({ minLength: 2, maxLength: 2 }), { maxItems: 250, description: 'ISO 3166-1 alpha-2 codes of the visitor\'s country' })),
    min_score: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'only people or companies with at least this score' })),
  },
  { additionalProperties: false },
);

export const AlertDestinationSchema = Type.Object(
  {
    type: Type.Unsafe<(typeof DESTINATION_TYPES)[number]>(Type.String({ enum: [...DESTINATION_TYPES] })),
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'slack: an incoming webhook URL; not a loopback or private address' })),
    to: Type.Optional(
      Type.Array(Type.String({ format: 'email', maxLength: 320 }), { minItems: 1, maxItems: MAX_EMAIL_RECIPIENTS, description: 'email: the recipients' }),
    ),
    webhook_id: Type.Optional(Type.String({ maxLength: 64, description: 'webhook: one of your webhooks; it receives an alert.triggered event' })),
  },
  { additionalProperties: false, description: 'slack {url}, email {to}, webhook {webhook_id}' },
);

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Cooldown = Type.Integer({
  minimum: 1,
  maximum: MAX_COOLDOWN_MINUTES,
  description: 'at most one firing per person (or company) within this many minutes; default 1440',
});

export const AlertSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    trigger: AlertTriggerSchema,
    filters: AlertFiltersSchema,
    destination: AlertDestinationSchema,
    cooldown_minutes: Type.Integer(),
    enabled: Type.Boolean(),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { additionalProperties: false },
);

export const AlertCreateBody = Type.Object(
  {
    name: Name,
    trigger: AlertTriggerSchema,
    filters: Type.Optional(AlertFiltersSchema),
    destination: AlertDestinationSchema,
    cooldown_minutes: Type.Optional(Cooldown),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const AlertUpdateBody = Type.Object(
  {
    name: Type.Optional(Name),
    trigger: Type.Optional(AlertTriggerSchema),
    filters: Type.Optional(AlertFiltersSchema),
    destination: Type.Optional(AlertDestinationSchema),
    cooldown_minutes: Type.Optional(Cooldown),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const AlertLogEntry = Type.Object(
  { attempt: Type.Integer(), at: Type.String(), duration_ms: Type.Integer(), error: Nullable(Type.String()) },
  { additionalProperties: false },
);

export const AlertDeliverySchema = Type.Object(
  {
    id: Type.String(),
    alert_id: Type.String(),
    subject: Type.String({ description: 'who it fired for: identity:<id>, company:<id> or visitor:<id> (test: a sample)' }),
    destination: AlertDestinationSchema,
    test: Type.Boolean({ description: 'true: sent by POST /alerts/{id}/test' }),
    status: Type.String({ description: 'pending, delivered or failed (given up)' }),
    attempts: Type.Integer(),
    next_attempt_at: Nullable(Type.String()),
    last_error: Nullable(Type.String()),
    created_at: Type.String(),
    delivered_at: Nullable(Type.String()),
    log: Type.Array(AlertLogEntry),
  },
  { additionalProperties: false },
);

const EXAMPLE_ID = '0190f6a2-a1b2-7c3d-8e4f-5a6b7c8d9e0f';
const LIST_ID = '0190f6a2-7055-7b7d-9e4f-6c0a3d5e9fb6';

export const ALERT_CREATE_EXAMPLE = {
  name: 'Pricing page by a known company',
  trigger: { type: 'page_viewed', path: '/pricing*' },
  filters: { company_known: true, countries: ['US', 'DE'], min_score: 30 },
  destination: { type: 'slack', url: 'https://hooks.slack.com/services/T000/B000/XXXX' },
};

export const ALERT_UPDATE_EXAMPLE = { trigger: { type: 'segment_entered', list_id: LIST_ID }, cooldown_minutes: 60 };

export const ALERT_EXAMPLE = {
  id: EXAMPLE_ID,
  ...ALERT_CREATE_EXAMPLE,
  cooldown_minutes: 1440,
  enabled: true,
  created_at: '2026-03-02T09:14:07.512Z',
  updated_at: '2026-03-02T09:14:07.512Z',
};

export const ALERT_DELIVERY_EXAMPLE = {
  id: '0190f6a2-a1b2-7c3d-8e4f-5a6b7c8d9e1a',
  alert_id: EXAMPLE_ID,
  subject: 'identity:0190f6a2-6e33-7f5b-9c2d-4a8e1b3c7d94',
  destination: ALERT_CREATE_EXAMPLE.destination,
  test: false,
  status: 'delivered',
  attempts: 1,
  next_attempt_at: null,
  last_error: null,
  created_at: '2026-03-02T10:01:00.000Z',
  delivered_at: '2026-03-02T10:01:00.412Z',
  log: [{ attempt: 1, at: '2026-03-02T10:01:00.412Z', duration_ms: 184, error: null }],
};
