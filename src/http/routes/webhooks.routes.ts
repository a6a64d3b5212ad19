/**
 * /api/v1/webhooks (CONTRACT C8.5): manage endpoints, read their delivery
 * log, send a test event. The signing secret is answered once, by POST.
 * C11.2: send one delivery again at once, or replay every event since a time.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../../schemas/fields.js';
import { WEBHOOK_EVENTS } from '../../services/webhooks/events.js';
import { cursorPage } from '../pagination.js';
import { workspaceOf } from '../request-context.js';
import { DataEnvelope, errorResponses, IdParams, ListEnvelope, PageQuery } from '../schemas/common.js';
import {
  DELIVERY_EXAMPLE,
  page,
  WEBHOOK_CREATE_EXAMPLE,
  WEBHOOK_CREATED_EXAMPLE,
  WEBHOOK_EXAMPLE,
  WEBHOOK_UPDATE_EXAMPLE,
  withExample,
} from '../schemas/examples.js';

const EventList = Type.Array(Type.String({ enum: [...WEBHOOK_EVENTS] }), {
  minItems: 1,
  maxItems: WEBHOOK_EVENTS.length * 2,
  description: `event types: ${WEBHOOK_EVENTS.join(', ')}`,
});
const Url = Type.String({ minLength: 1, maxLength: 2000, description: 'http(s) URL; not a loopback or private address' });
const Description = Nullable(Type.String({ maxLength: 500 }));

const WebhookSchema = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    description: Nullable(Type.String()),
    enabled: Type.Boolean(),
    status: Type.String({ description: 'active, or failing after repeated failed deliveries' }),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { additionalProperties: false },
);
const CreatedWebhookSchema = Type.Object(
  { ...WebhookSchema.properties, secret: Type.String({ description: 'whsec_…: shown this once; signs every delivery' }) },
  { additionalProperties: false },
);
const LogEntry = Type.Object(
  {
    attempt: Type.Integer(),
    at: Type.String(),
    response_code: Nullable(Type.Integer()),
    duration_ms: Type.Integer(),
    error: Nullable(Type.String()),
  },
  { additionalProperties: false },
);
const DeliverySchema = Type.Object(
  {
    id: Type.String(),
    webhook_id: Type.String(),
    message_id: Type.String({ description: 'the webhook-id header, the same on every attempt' }),
    event_type: Type.String(),
    status: Type.String({ description: 'pending, delivered or failed (given up)' }),
    attempts: Type.Integer(),
    next_attempt_at: Nullable(Type.String()),
    last_response_code: Nullable(Type.Integer()),
    last_duration_ms: Nullable(Type.Integer()),
    last_error: Nullable(Type.String()),
    created_at: Type.String(),
    delivered_at: Nullable(Type.String()),
    log: Type.Array(LogEntry),
  },
  { additionalProperties: false },
);

const CreateBody = Type.Object(
  { url: Url, events: EventList, description: Type.Optional(Description), enabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
const UpdateBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(EventList),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const ListQuery = Type.Object({ ...PageQuery }, { additionalProperties: true });
const DeliveryParams = Type.Object({
  id: Type.String({ description: 'UUID of the webhook endpoint' }),
  delivery_id: Type.String({ description: 'UUID of the delivery' }),
});
const ReplayBody = Type.Object(
  { since: Timestamp({ description: 'replay every event from this instant on (at most 30 days ago)' }) },
  { additionalProperties: false },
);

export const webhooksRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/webhooks',
    {
      schema: {
        operationId: 'createWebhook',
        tags: ['webhooks'],
        summary: 'Create a webhook endpoint',
        description:
          'Subscribes a URL to event types. Answers the endpoint with its signing secret (whsec_…), shown this once: keep it to verify the `webhook-signature` of every delivery. A URL on a loopback or private address is 400 (unless the server runs with WEBHOOK_ALLOW_PRIVATE=1).',
        body: withExample(CreateBody, WEBHOOK_CREATE_EXAMPLE),
        response: {
          201: withExample(DataEnvelope(CreatedWebhookSchema), { data: WEBHOOK_CREATED_EXAMPLE }, 'The endpoint created, with its secret'),
          ...errorResponses(400, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const created = await workspaceOf(request).webhooks.create(request.body);
      reply.code(201).header('location', `/api/v1/webhooks/${created.id}`);
      return { data: created };
    },
  );

  app.get(
    '/webhooks',
    {
      schema: {
        operationId: 'listWebhooks',
        tags: ['webhooks'],
        summary: 'List webhook endpoints',
        description: 'The webhook endpoints of your workspace, newest first (without their secrets).',
        querystring: ListQuery,
        response: { 200: withExample(ListEnvelope(WebhookSchema), page(WEBHOOK_EXAMPLE), 'A page of endpoints'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const paging = await cursorPage(request, {});
      return paging.finish(await workspaceOf(request).webhooks.list(paging.page), reply);
    },
  );

  app.get(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'getWebhook',
        tags: ['webhooks'],
        summary: 'Get a webhook endpoint',
        description: 'One endpoint, with its status (`failing` after repeated failed deliveries); not its secret.',
        params: IdParams,
        response: { 200: withExample(DataEnvelope(WebhookSchema), { data: WEBHOOK_EXAMPLE }, 'The endpoint'), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await workspaceOf(request).webhooks.get(request.params.id) }),
  );

  app.patch(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'updateWebhook',
        tags: ['webhooks'],
        summary: 'Update a webhook endpoint',
        description: 'Changes the URL, the event types, the description or `enabled`; only the fields present change.',
        params: IdParams,
        body: withExample(UpdateBody, WEBHOOK_UPDATE_EXAMPLE),
        response: {
          200: withExample(DataEnvelope(WebhookSchema), { data: WEBHOOK_EXAMPLE }, 'The endpoint after the update'),
          ...errorResponses(400, 404, 413, 415),
        },
      },
    },
    async (request) => ({ data: await workspaceOf(request).webhooks.update(request.params.id, request.body) }),
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'deleteWebhook',
        tags: ['webhooks'],
        summary: 'Delete a webhook endpoint',
        description: 'Deletes the endpoint and its deliveries (pending ones are not sent).',
        params: IdParams,
        response: { 204: Type.Null({ description: 'deleted' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await workspaceOf(request).webhooks.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        tags: ['webhooks'],
        summary: "List an endpoint's deliveries",
        description: 'Newest first: each event sent to the endpoint, its status and every attempt (response code, duration, error).',
        params: IdParams,
        querystring: ListQuery,
        response: { 200: withExample(ListEnvelope(DeliverySchema), page(DELIVERY_EXAMPLE), 'A page of deliveries'), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const paging = await cursorPage(request, {});
      return paging.finish(await workspaceOf(request).webhooks.deliveries(request.params.id, paging.page), reply);
    },
  );

  app.post(
    '/webhooks/:id/test',
    {
      schema: {
        operationId: 'testWebhook',
        tags: ['webhooks'],
        summary: 'Send a test event',
        description: 'Queues a webhook.test event for this endpoint; it is delivered like any other.',
        params: IdParams,
        response: {
          202: withExample(
            DataEnvelope(Type.Object({ queued: Type.Integer() }, { additionalProperties: false })),
            { data: { queued: 1 } },
            'The test event is queued',
          ),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const queued = await workspaceOf(request).webhooks.test(request.params.id);
      reply.code(202);
      return { data: queued };
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:delivery_id/retry',
    {
      schema: {
        operationId: 'retryWebhookDelivery',
        tags: ['webhooks'],
        summary: 'Send a delivery again',
        description:
          'Makes the delivery due at once, whatever its status (delivered, failed or pending): it is sent again within a second with the same `webhook-id` and body, and its attempt joins the log. Answers the delivery as queued.',
        params: DeliveryParams,
        response: {
          202: withExample(DataEnvelope(DeliverySchema), { data: { ...DELIVERY_EXAMPLE, status: 'pending' } }, 'The delivery, due now'),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const retried = await workspaceOf(request).webhooks.retry(request.params.id, request.params.delivery_id);
      reply.code(202);
      return { data: retried };
    },
  );

  app.post(
    '/webhooks/:id/replay',
    {
      schema: {
        operationId: 'replayWebhook',
        tags: ['webhooks'],
        summary: 'Replay events to an endpoint',
        description:
          'Queues again, oldest first, every event since `since` of the types the endpoint subscribes to, from the changes feed (`GET /api/v1/changes`): each with its own `webhook-id` and body, as first sent, so a receiver that deduplicates by `webhook-id` applies each once. `since` more than 30 days ago (the feed keeps 30 days) is 400. Answers how many deliveries were queued.',
        params: IdParams,
        body: withExample(ReplayBody, { since: '2026-03-01T00:00:00.000Z' }),
        response: {
          202: withExample(
            DataEnvelope(Type.Object({ queued: Type.Integer() }, { additionalProperties: false })),
            { data: { queued: 42 } },
            'The events are queued',
          ),
          ...errorResponses(400, 404, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const queued = await workspaceOf(request).webhooks.replay(request.params.id, request.body.since);
      reply.code(202);
      return { data: queued };
    },
  );
};
