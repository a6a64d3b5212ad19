/**
 * /api/v1/users: list and read the members of the caller's workspace.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { workspaceOf } from '../request-context.js';
import { errorResponses, IdParams, listBody, pageOf } from '../schemas/common.js';
import { UserEnvelope, UserListEnvelope, UserListQuery } from '../schemas/users.schemas.js';

export const usersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users',
    {
      schema: {
        tags: ['users'],
        summary: 'List workspace users',
        description: 'Members of your workspace, most recently joined first.',
        querystring: UserListQuery,
        response: { 200: UserListEnvelope, ...errorResponses(400) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const result = await workspaceOf(request).users.list({ role: request.query.role }, page);
      return listBody(result, page);
    },
  );

  app.get(
    '/users/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'Get a workspace user',
        params: IdParams,
        response: { 200: UserEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await workspaceOf(request).users.get(request.params.id) }),
  );
};
