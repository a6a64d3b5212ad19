/**
 * /dashboard/api: the segment builder (CONTRACT C9.6). Every member of the
 * workspace may count the people a draft rule matches and read the values a
 * condition may choose from (nothing is written); members and admins save a
 * segment (create a list, change its name or rule), as the lists API lets a
 * key do. Each calls the same services as /api/v1, bound to the session's
 * workspace by the session gate.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { JsonObject } from '../../../schemas/json.js';
import { PATCH_MEDIA_TYPES } from '../../plugins/request-guards.js';
import { workspaceOf } from '../../request-context.js';
import { errorResponses, IdParams } from '../../schemas/common.js';
import { ListCreateBody, ListUpdateBody, VisitorListEnvelope } from '../../schemas/lists.schemas.js';
import { DraftCountBody, DraftCountEnvelope, SuggestionEnvelope, SuggestionQuery } from '../../schemas/segments.schemas.js';


export const segmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/segments/count',
    { schema: { body: DraftCountBody, response: { 200: DraftCountEnvelope, ...errorResponses(400, 413, 415) } } },
    async (request) => ({ data: await workspaceOf(request).segmentDrafts.count(request.body.rule) }),
  );

  app.get(
    '/segments/suggestions',
    { schema: { querystring: SuggestionQuery, response: { 200: SuggestionEnvelope, ...errorResponses(400) } } },
    async (request) => ({ data: await workspaceOf(request).segmentDrafts.suggestions(request.query.of) }),
  );

  app.post(
    '/lists',
    {
      config: { dashboardAccess: 'member' },
      schema: { body: ListCreateBody, response: { 201: VisitorListEnvelope, ...errorResponses(400, 403, 413, 415) } },
    },
    async (request, reply) => {
      const { rule, ...fields } = request.body;
      const list = await workspaceOf(request).lists.create({ ...fields, rule: rule as JsonObject | null | undefined });
      reply.code(201);
      return { data: list };
    },
  );

  app.patch(
    '/lists/:id',
    {
      config: { dashboardAccess: 'member' },
      schema: {
        params: IdParams,
        consumes: PATCH_MEDIA_TYPES,
        body: ListUpdateBody,
        response: { 200: VisitorListEnvelope, ...errorResponses(400, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { rule, ...fields } = request.body;
      return { data: await workspaceOf(request).lists.update(request.params.id, { ...fields, rule: rule as JsonObject | null | undefined }) };
    },
  );
};
