/**
 * GET /api/v1/changes (CONTRACT C11.1): the workspace's changes feed, oldest
 * first. While more follow, `Link: <…>; rel="next"`; the last page carries
 * `Link: <…>; rel="poll"` instead, a cursor to ask again later. Cursors are
 * signed like every list cursor (C8.3), bound to the workspace and the
 * `types` filter, and never expire while the events they follow are kept.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { FeedPosition } from '../../repositories/tenant/changes.repository.js';
import { parseTypes } from '../../services/tenant/changes.service.js';
import { HttpError } from '../errors.js';
import { workspaceOf } from '../request-context.js';
import { CHANGES_EXAMPLE, ChangesEnvelope, ChangesQuery } from '../schemas/changes.schemas.js';
import { errorResponses, pageOf } from '../schemas/common.js';
import { withExample } from '../schemas/examples.js';

const DIGITS = /^\d{1,20}$/;

function binding(request: FastifyRequest, types: readonly string[] | undefined) {
  return { workspaceId: workspaceOf(request).id, endpoint: 'GET /changes', filters: JSON.stringify(types === undefined ? null : [...types].sort()) };
}

/** The request's URL with `cursor` set. */
function urlWith(request: FastifyRequest, cursor: string): string {
  const [path, search] = request.url.split('?', 2) as [string, string | undefined];
  const params = new URLSearchParams(search ?? '');
  params.set('cursor', cursor);
  return `${request.protocol}://${request.host}${path}?${params.toString()}`;
}

export const changesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/changes',
    {
      schema: {
        operationId: 'listChanges',
        tags: ['changes'],
        summary: 'List changes',
        description:
          "Every change of your workspace in the last 30 days as an event of the webhooks' shape (`{id, type, timestamp, data}`; `id` is the webhook-id of its deliveries), oldest first. `types` keeps only some event types. Follow `Link: rel=\"next\"` while it is there; the last page carries `Link: rel=\"poll\"`: store its cursor and ask it again later to get only what changed since. A reader that resumes from a stored cursor never misses nor repeats a change, whatever the writers do.",
        querystring: ChangesQuery,
        response: { 200: withExample(ChangesEnvelope, CHANGES_EXAMPLE, 'A page of changes'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      if ((request.query as Record<string, unknown>).offset !== undefined) {
        const message = 'the changes feed has no offset: follow its Link cursors';
        throw new HttpError('invalid_request', message, { parameters: { offset: message } });
      }
      const types = parseTypes(request.query.types);
      const { limit } = pageOf(request.query);
      const bound = binding(request, types);
      let after: FeedPosition | undefined;
      if (request.query.cursor !== undefined) {
        const keyset = await app.cursors.decode(request.query.cursor, bound);
        if (keyset === undefined || !DIGITS.test(keyset.at) || !DIGITS.test(keyset.id)) {
          const message = 'cursor is invalid, or was made for another workspace or types';
          throw new HttpError('invalid_request', message, { parameters: { cursor: message } });
        }
        after = { xid: keyset.at, position: keyset.id };
      }
      const page = await workspaceOf(request).changes.list(after, types, limit);
      const cursor = await app.cursors.encode({ at: page.last.xid, id: page.last.position }, bound);
      reply.header('link', `<${urlWith(request, cursor)}>; rel="${page.more ? 'next' : 'poll'}"`);
      return { data: page.items as never };
    },
  );
};
