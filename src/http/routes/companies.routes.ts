/**
 * /api/v1/companies: list and read companies, and the identities linked to one (C6.1).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { workspaceOf } from '../request-context.js';
import { cursorPage } from '../pagination.js';
import { errorResponses, IdParams } from '../schemas/common.js';
import { COMPANY_EXAMPLE, IDENTITY_EXAMPLE, page, withExample } from '../schemas/examples.js';
import { CompanyEnvelope, CompanyIdentitiesEnvelope, CompanyIdentitiesQuery, CompanyListEnvelope, CompanyListQuery } from '../schemas/companies.schemas.js';

export const companiesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/companies',
    {
      schema: {
        operationId: 'listCompanies',
        tags: ['companies'],
        summary: 'List companies',
        description:
          'The companies of your workspace, newest first. `name` matches a case-insensitive substring (`%` and `_` are literal), `domain` exactly, ignoring case.',
        querystring: CompanyListQuery,
        response: { 200: withExample(CompanyListEnvelope, page(COMPANY_EXAMPLE), 'A page of companies'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { query } = request;
      const filters = { name: query.name, domain: query.domain };
      const paging = await cursorPage(request, filters);
      return paging.finish(await workspaceOf(request).companies.list(filters, paging.page), reply);
    },
  );

  app.get(
    '/companies/:id',
    {
      schema: {
        operationId: 'getCompany',
        tags: ['companies'],
        summary: 'Get a company',
        description: 'One company of your workspace by id.',
        params: IdParams,
        response: { 200: withExample(CompanyEnvelope, { data: COMPANY_EXAMPLE }, 'The company'), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await workspaceOf(request).companies.get(request.params.id) }),
  );

  app.get(
    '/companies/:id/identities',
    {
      schema: {
        operationId: 'listCompanyIdentities',
        tags: ['companies'],
        summary: 'List the identities linked to a company',
        description: 'Identities whose business email (or network) names the company (CONTRACT C6.1), newest first.',
        params: IdParams,
        querystring: CompanyIdentitiesQuery,
        response: { 200: withExample(CompanyIdentitiesEnvelope, page(IDENTITY_EXAMPLE), 'A page of the company\'s identities'), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const paging = await cursorPage(request, {});
      return paging.finish(await workspaceOf(request).companies.identities(request.params.id, paging.page), reply);
    },
  );
};
