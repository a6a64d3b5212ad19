/**
 * /api/v1/companies: list and read companies.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { workspaceOf } from '../request-context.js';
import { errorResponses, IdParams, listBody, pageOf } from '../schemas/common.js';
import { CompanyEnvelope, CompanyListEnvelope, CompanyListQuery } from '../schemas/companies.schemas.js';

export const companiesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/companies',
    {
      schema: {
        tags: ['companies'],
        summary: 'List companies',
        querystring: CompanyListQuery,
        response: { 200: CompanyListEnvelope, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { query } = request;
      const page = pageOf(query);
      const result = await workspaceOf(request).companies.list({ name: query.name, domain: query.domain },
        page,
      );
      return listBody(result, page);
    },
  );

  app.get(
    '/companies/:id',
    {
      schema: {
        tags: ['companies'],
        summary: 'Get a company',
        params: IdParams,
        response: { 200: CompanyEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await workspaceOf(request).companies.get(request.params.id) }),
  );
};
