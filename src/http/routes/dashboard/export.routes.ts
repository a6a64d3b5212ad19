/**
 * The dashboard's Export CSV (CONTRACT C9.7, C11.5) of leads, people and
 * companies: the API's exports (routes/export.routes.ts), the same service
 * and formats, for the session's workspace; every member may read them.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../schemas/common.js';
import { CompanyExportQuery, EXPORTS, IdentityExportQuery, LeadExportQuery } from '../export.routes.js';

export const exportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/leads/export', { schema: { querystring: LeadExportQuery, response: errorResponses(400) } }, async (request, reply) =>
    EXPORTS.leads(request, reply),
  );
  app.get('/identities/export', { schema: { querystring: IdentityExportQuery, response: errorResponses(400) } }, async (request, reply) =>
    EXPORTS.identities(request, reply),
  );
  app.get('/companies/export', { schema: { querystring: CompanyExportQuery, response: errorResponses(400) } }, async (request, reply) =>
    EXPORTS.companies(request, reply),
  );
};
