/**
 * /api/v1/lists: list visitor lists (segments).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { workspaceOf } from '../request-context.js';
import { errorResponses, listBody, pageOf } from '../schemas/common.js';
import { VisitorListListEnvelope, VisitorListQuery } from '../schemas/lists.schemas.js';

export const listsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/lists',
    {
      schema: {
        tags: ['lists'],
        summary: 'List visitor lists',
        querystring: VisitorListQuery,
        response: { 200: VisitorListListEnvelope, ...errorResponses(400) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      return listBody(await workspaceOf(request).lists.list(page), page);
    },
  );
};
