/**
 * /dashboard/api/search: the search box of every dashboard page (CONTRACT
 * C9.1), for every member of the workspace (viewers included), bound to the
 * session's workspace by the session gate.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { workspaceOf } from '../../request-context.js';
import { errorResponses } from '../../schemas/common.js';
import { SearchEnvelope, SearchQuery } from '../../schemas/search.schemas.js';

export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/search',
    { schema: { querystring: SearchQuery, response: { 200: SearchEnvelope, ...errorResponses(400) } } },
    async (request) => ({ data: await workspaceOf(request).search.search(request.query.q) }),
  );
};
