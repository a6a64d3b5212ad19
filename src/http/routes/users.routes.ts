/**
 * /api/v1/users: list and read the members of the caller's workspace.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { workspaceOf } from '../request-context.js';
import { cursorPage } from '../pagination.js';
import { errorResponses, IdParams } from '../schemas/common.js';
import { page, USER_EXAMPLE, withExample } from '../schemas/examples.js';
import { UserEnvelope, UserListEnvelope, UserListQuery } from '../schemas/users.schemas.js';

export const usersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users',
    {
      schema: {
        operationId: 'listUsers',
        tags: ['users'],
        summary: 'List workspace users',
        description: 'The members of your workspace with their role, most recently joined first (joined_at, then id, descending).',
        querystring: UserListQuery,
        response: { 200: withExample(UserListEnvelope, page(USER_EXAMPLE), 'A page of members'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const filters = { role: request.query.role };
      const paging = await cursorPage(request, filters);
      const result = await workspaceOf(request).users.list(filters, paging.page);
      return paging.finish(result, reply, (user) => ({ at: user.joined_at, id: user.id }));
    },
  );

  app.get(
    '/users/:id',
    {
      schema: {
        operationId: 'getUser',
        tags: ['users'],
        summary: 'Get a workspace user',
        description: 'One member of your workspace by id; a user who is not a member is 404.',
        params: IdParams,
        response: { 200: withExample(UserEnvelope, { data: USER_EXAMPLE }, 'The member'), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await workspaceOf(request).users.get(request.params.id) }),
  );
};
