/**
 * /dashboard/api/company-rules: the workspace's company rules in the
 * settings (CONTRACT C6.8, C7.4), through the same CompanyRulesService as
 * /api/v1, bound to the session's workspace (another workspace's rule is
 * 404, as an unknown one). Anyone who reads the workspace sees the rules;
 * admins add and delete them.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { workspaceOf } from '../../request-context.js';
import { DataEnvelope, errorResponses, IdParams, ListEnvelope, listBody, PageQuery, pageOf } from '../../schemas/common.js';
import { CompanyRuleCreateBody, CompanyRuleSchema } from '../../schemas/company-rules.schemas.js';

const admin = { dashboardAccess: 'admin' } as const;
const ListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const companyRuleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/company-rules',
    { schema: { querystring: ListQuery, response: { 200: ListEnvelope(CompanyRuleSchema), ...errorResponses(400) } } },
    async (request) => {
      const page = pageOf(request.query);
      return listBody(await workspaceOf(request).companyRules.list(page), page);
    },
  );

  app.post(
    '/company-rules',
    { config: admin, schema: { body: CompanyRuleCreateBody, response: { 201: DataEnvelope(CompanyRuleSchema), ...errorResponses(400, 403, 409) } } },
    async (request, reply) => {
      const created = await workspaceOf(request).companyRules.create(request.body);
      reply.code(201);
      return { data: created };
    },
  );

  app.delete(
    '/company-rules/:id',
    { config: admin, schema: { params: IdParams, response: { 204: Type.Null(), ...errorResponses(403, 404) } } },
    async (request, reply) => {
      await workspaceOf(request).companyRules.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
