/**
 * /dashboard/api/alerts: the workspace's alerts in Settings → Alerts
 * (CONTRACT C10.1, C7.4), through the same AlertsService as /api/v1,
 * bound to the session's workspace (another workspace's alert is 404, as
 * an unknown one). Everyone who reads the workspace sees the alerts and
 * their deliveries; admins create, change, delete and test them.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { workspaceOf } from '../../request-context.js';
import { AlertCreateBody, AlertDeliverySchema, AlertSchema, AlertUpdateBody } from '../../schemas/alerts.schemas.js';
import { errorResponses, IdParams, listBody, pageOf } from '../../schemas/common.js';
import { DeliveryListQuery } from '../../schemas/dashboard-webhooks.schemas.js';

const admin = { dashboardAccess: 'admin' } as const;
const Page = Type.Object({ limit: Type.Integer(), offset: Type.Integer(), total: Type.Integer() }, { additionalProperties: false });
const AlertEnvelope = Type.Object({ data: AlertSchema }, { additionalProperties: false });
const AlertListEnvelope = Type.Object({ data: Type.Array(AlertSchema), pagination: Page }, { additionalProperties: false });
const DeliveryListEnvelope = Type.Object({ data: Type.Array(AlertDeliverySchema), pagination: Page }, { additionalProperties: false });
const TestQueued = Type.Object({ data: Type.Object({ queued: Type.Integer(), delivery_id: Type.String() }, { additionalProperties: false }) }, { additionalProperties: false });

export const alertRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/alerts', { schema: { querystring: DeliveryListQuery, response: { 200: AlertListEnvelope, ...errorResponses(400) } } }, async (request) => {
    const page = pageOf(request.query);
    return listBody(await workspaceOf(request).alerts.list(page), page);
  });

  app.post(
    '/alerts',
    { config: admin, schema: { body: AlertCreateBody, response: { 201: AlertEnvelope, ...errorResponses(400, 403) } } },
    async (request, reply) => {
      const created = await workspaceOf(request).alerts.create(request.body);
      reply.code(201);
      return { data: created };
    },
  );

  app.patch(
    '/alerts/:id',
    { config: admin, schema: { params: IdParams, body: AlertUpdateBody, response: { 200: AlertEnvelope, ...errorResponses(400, 403, 404) } } },
    async (request) => ({ data: await workspaceOf(request).alerts.update(request.params.id, request.body) }),
  );

  app.delete(
    '/alerts/:id',
    { config: admin, schema: { params: IdParams, response: { 204: { type: 'null' }, ...errorResponses(403, 404) } } },
    async (request, reply) => {
      await workspaceOf(request).alerts.delete(request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/alerts/:id/test',
    { config: admin, schema: { params: IdParams, response: { 202: TestQueued, ...errorResponses(403, 404) } } },
    async (request, reply) => {
      const queued = await workspaceOf(request).alerts.test(request.params.id);
      reply.code(202);
      return { data: queued };
    },
  );

  app.get(
    '/alerts/:id/deliveries',
    { schema: { params: IdParams, querystring: DeliveryListQuery, response: { 200: DeliveryListEnvelope, ...errorResponses(400, 404) } } },
    async (request) => {
      const page = pageOf(request.query);
      return listBody(await workspaceOf(request).alerts.deliveries(request.params.id, page), page);
    },
  );
};
