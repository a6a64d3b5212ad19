/**
 * /api/v1/company-rules (CONTRACT C6.8): a workspace's rules naming the
 * company of an AS number, a CIDR range or a domain, or no company. Any API
 * key of the workspace manages them, as it manages webhooks; in the
 * dashboard only admins do (docs/intelligence.md, "Company rules").
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { cursorPage } from '../pagination.js';
import { workspaceOf } from '../request-context.js';
import { DataEnvelope, errorResponses, IdParams, ListEnvelope, PageQuery } from '../schemas/common.js';
import { CompanyRuleCreateBody, CompanyRuleSchema } from '../schemas/company-rules.schemas.js';
import { COMPANY_RULE_CREATE_EXAMPLE, COMPANY_RULE_EXAMPLE, page, withExample } from '../schemas/examples.js';

const ListQuery = Type.Object({ ...PageQuery }, { additionalProperties: true });

export const companyRulesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/company-rules',
    {
      schema: {
        operationId: 'createCompanyRule',
        tags: ['company rules'],
        summary: 'Create a company rule',
        description:
          'Maps an AS number, a CIDR range or a domain to one of your companies (`company_id`), or marks it as no company (`"not_a_company": true`). A rule wins over every automatic source (email, network, reverse DNS): the leads it names carry `properties.company_match` `{"source":"rule","confidence":1,…}`. It applies to events received after it, within 60 seconds. A CIDR range wins over an AS number, a domain over its parent domains. A bad AS number, range or domain is 400 naming the field; a company of another workspace is 403; a second rule for the same match is 409.',
        body: withExample(CompanyRuleCreateBody, COMPANY_RULE_CREATE_EXAMPLE),
        response: {
          201: withExample(DataEnvelope(CompanyRuleSchema), { data: COMPANY_RULE_EXAMPLE }, 'The rule created'),
          ...errorResponses(400, 403, 409, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const created = await workspaceOf(request).companyRules.create(request.body);
      reply.code(201).header('location', `/api/v1/company-rules/${created.id}`);
      return { data: created };
    },
  );

  app.get(
    '/company-rules',
    {
      schema: {
        operationId: 'listCompanyRules',
        tags: ['company rules'],
        summary: 'List company rules',
        description: 'The company rules of your workspace, newest first.',
        querystring: ListQuery,
        response: { 200: withExample(ListEnvelope(CompanyRuleSchema), page(COMPANY_RULE_EXAMPLE), 'A page of rules'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const paging = await cursorPage(request, {});
      return paging.finish(await workspaceOf(request).companyRules.list(paging.page), reply);
    },
  );

  app.get(
    '/company-rules/:id',
    {
      schema: {
        operationId: 'getCompanyRule',
        tags: ['company rules'],
        summary: 'Get a company rule',
        description: 'One company rule of your workspace.',
        params: IdParams,
        response: { 200: withExample(DataEnvelope(CompanyRuleSchema), { data: COMPANY_RULE_EXAMPLE }, 'The rule'), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await workspaceOf(request).companyRules.get(request.params.id) }),
  );

  app.delete(
    '/company-rules/:id',
    {
      schema: {
        operationId: 'deleteCompanyRule',
        tags: ['company rules'],
        summary: 'Delete a company rule',
        description: 'Deletes the rule: events received after it are matched by the automatic sources again (within 60 seconds). Leads already made keep their company.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'deleted' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await workspaceOf(request).companyRules.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
