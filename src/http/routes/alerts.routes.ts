/**
 * /api/v1/alerts (CONTRACT C10.1–C10.3): a workspace's alert rules. Any
 * API key of the workspace manages them, as it manages webhooks; in the
 * dashboard only admins do.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { cursorPage } from '../pagination.js';
import { workspaceOf } from '../request-context.js';
import {
  AlertCreateBody,
  AlertDeliverySchema,
  AlertSchema,
  AlertUpdateBody,
  ALERT_CREATE_EXAMPLE,
  ALERT_DELIVERY_EXAMPLE,
  ALERT_EXAMPLE,
  ALERT_UPDATE_EXAMPLE,
} from '../schemas/alerts.schemas.js';
import { DataEnvelope, errorResponses, IdParams, ListEnvelope, PageQuery } from '../schemas/common.js';
import { page, withExample } from '../schemas/examples.js';

const ListQuery = Type.Object({ ...PageQuery }, { additionalProperties: true });

export const alertsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/alerts',
    {
      schema: {
        operationId: 'createAlert',
        tags: ['alerts'],
        summary: 'Create an alert',
        description:
          'Tells a person when something happens: a trigger (a segment entered, a score reached, a page viewed, a company returning, a conversion), optional filters (company known, countries, minimum score) and a destination (a Slack incoming webhook, email recipients, or one of your webhooks as an `alert.triggered` event). It fires at most once per person (or company) within `cooldown_minutes` (default 1440). A field a trigger or destination type does not take, or one it needs and lacks, is 400 naming it; a list or webhook of another workspace is 403; a Slack URL on a loopback or private address is 400.',
        body: withExample(AlertCreateBody, ALERT_CREATE_EXAMPLE),
        response: {
          201: withExample(DataEnvelope(AlertSchema), { data: ALERT_EXAMPLE }, 'The alert created'),
          ...errorResponses(400, 403, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const created = await workspaceOf(request).alerts.create(request.body);
      reply.code(201).header('location', `/api/v1/alerts/${created.id}`);
      return { data: created };
    },
  );

  app.get(
    '/alerts',
    {
      schema: {
        operationId: 'listAlerts',
        tags: ['alerts'],
        summary: 'List alerts',
        description: 'The alerts of your workspace, newest first.',
        querystring: ListQuery,
        response: { 200: withExample(ListEnvelope(AlertSchema), page(ALERT_EXAMPLE), 'A page of alerts'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const paging = await cursorPage(request, {});
      return paging.finish(await workspaceOf(request).alerts.list(paging.page), reply);
    },
  );

  app.get(
    '/alerts/:id',
    {
      schema: {
        operationId: 'getAlert',
        tags: ['alerts'],
        summary: 'Get an alert',
        description: 'One alert of your workspace.',
        params: IdParams,
        response: { 200: withExample(DataEnvelope(AlertSchema), { data: ALERT_EXAMPLE }, 'The alert'), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await workspaceOf(request).alerts.get(request.params.id) }),
  );

  app.patch(
    '/alerts/:id',
    {
      schema: {
        operationId: 'updateAlert',
        tags: ['alerts'],
        summary: 'Update an alert',
        description: 'Changes the fields present; a trigger, filters or destination given replaces the old one whole.',
        params: IdParams,
        body: withExample(AlertUpdateBody, ALERT_UPDATE_EXAMPLE),
        response: {
          200: withExample(DataEnvelope(AlertSchema), { data: ALERT_EXAMPLE }, 'The alert after the update'),
          ...errorResponses(400, 403, 404, 413, 415),
        },
      },
    },
    async (request) => ({ data: await workspaceOf(request).alerts.update(request.params.id, request.body) }),
  );

  app.delete(
    '/alerts/:id',
    {
      schema: {
        operationId: 'deleteAlert',
        tags: ['alerts'],
        summary: 'Delete an alert',
        description: 'Deletes the alert and its deliveries (pending ones are not sent).',
        params: IdParams,
        response: { 204: Type.Null({ description: 'deleted' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await workspaceOf(request).alerts.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/alerts/:id/deliveries',
    {
      schema: {
        operationId: 'listAlertDeliveries',
        tags: ['alerts'],
        summary: "List an alert's deliveries",
        description: 'Newest first: each firing (and test) of the alert, its destination, its status and every attempt. A failed attempt is retried with backoff for 25 hours (as webhooks, C8.5).',
        params: IdParams,
        querystring: ListQuery,
        response: { 200: withExample(ListEnvelope(AlertDeliverySchema), page(ALERT_DELIVERY_EXAMPLE), 'A page of deliveries'), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const paging = await cursorPage(request, {});
      return paging.finish(await workspaceOf(request).alerts.deliveries(request.params.id, paging.page), reply);
    },
  );

  app.post(
    '/alerts/:id/test',
    {
      schema: {
        operationId: 'testAlert',
        tags: ['alerts'],
        summary: 'Send a test alert',
        description: 'Queues a sample message (marked as a test) to the alert\'s destination at once, whatever its cooldown and whether it is enabled; it is delivered and logged like any other.',
        params: IdParams,
        response: {
          202: withExample(
            DataEnvelope(Type.Object({ queued: Type.Integer(), delivery_id: Type.String() }, { additionalProperties: false })),
            { data: { queued: 1, delivery_id: ALERT_DELIVERY_EXAMPLE.id } },
            'The test is queued',
          ),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const queued = await workspaceOf(request).alerts.test(request.params.id);
      reply.code(202);
      return { data: queued };
    },
  );
};
