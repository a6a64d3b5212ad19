/**
 * /dashboard/api/webhooks: the workspace's webhook endpoints in the settings
 * (CONTRACT C7.4, C8.5), through the same WebhooksService as /api/v1 and the
 * CLI, bound to the session's workspace (another workspace's endpoint is
 * 404, as an unknown one). Anyone who reads the workspace sees the endpoints,
 * their deliveries and the event catalogue; admins create, enable or
 * disable, delete and test them. The secret is answered once, at creation.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { WEBHOOK_EVENTS as SUBSCRIBABLE } from '../../../services/webhooks/events.js';
import { workspaceOf } from '../../request-context.js';
import { errorResponses, IdParams, listBody, pageOf } from '../../schemas/common.js';
import {
  CreatedEndpointEnvelope,
  DeliveryListEnvelope,
  DeliveryListQuery,
  EndpointCreateBody,
  EndpointEnvelope,
  EndpointListEnvelope,
  EndpointUpdateBody,
  EventCatalogueEnvelope,
  TestQueuedEnvelope,
} from '../../schemas/dashboard-webhooks.schemas.js';
import { WEBHOOK_EVENTS as DOCUMENTED } from '../../schemas/webhook-payloads.schemas.js';

const admin = { dashboardAccess: 'admin' } as const;

/** The event types an endpoint can subscribe to, as the API reference documents them. */
const CATALOGUE = DOCUMENTED.filter((event) => (SUBSCRIBABLE as readonly string[]).includes(event.type)).map(({ type, summary, description }) => ({
  type,
  summary,
  description,
}));

export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/webhook-events', { schema: { response: { 200: EventCatalogueEnvelope, ...errorResponses() } } }, async () => ({ data: CATALOGUE }));

  app.get(
    '/webhooks',
    { schema: { querystring: DeliveryListQuery, response: { 200: EndpointListEnvelope, ...errorResponses(400) } } },
    async (request) => {
      const page = pageOf(request.query);
      return listBody(await workspaceOf(request).webhooks.list(page), page);
    },
  );

  app.post(
    '/webhooks',
    { config: admin, schema: { body: EndpointCreateBody, response: { 201: CreatedEndpointEnvelope, ...errorResponses(400, 403) } } },
    async (request, reply) => {
      const created = await workspaceOf(request).webhooks.create(request.body);
      reply.code(201);
      return { data: created };
    },
  );

  app.patch(
    '/webhooks/:id',
    {
      config: admin,
      schema: { params: IdParams, body: EndpointUpdateBody, response: { 200: EndpointEnvelope, ...errorResponses(400, 403, 404) } },
    },
    async (request) => ({ data: await workspaceOf(request).webhooks.update(request.params.id, request.body) }),
  );

  app.delete(
    '/webhooks/:id',
    { config: admin, schema: { params: IdParams, response: { 204: { type: 'null' }, ...errorResponses(403, 404) } } },
    async (request, reply) => {
      await workspaceOf(request).webhooks.delete(request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/webhooks/:id/test',
    { config: admin, schema: { params: IdParams, response: { 202: TestQueuedEnvelope, ...errorResponses(403, 404) } } },
    async (request, reply) => {
      const queued = await workspaceOf(request).webhooks.test(request.params.id);
      reply.code(202);
      return { data: queued };
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    { schema: { params: IdParams, querystring: DeliveryListQuery, response: { 200: DeliveryListEnvelope, ...errorResponses(400, 404) } } },
    async (request) => {
      const page = pageOf(request.query);
      return listBody(await workspaceOf(request).webhooks.deliveries(request.params.id, page), page);
    },
  );
};
