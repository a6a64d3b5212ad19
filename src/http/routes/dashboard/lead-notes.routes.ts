/**
 * /dashboard/api/leads/{id}/notes: the notes on a lead in the lead page
 * (CONTRACT C9.3), through the same service as /api/v1. Everyone who reads
 * the workspace reads them; a member writes them, as the signed-in user
 * (C7.4: viewers read only).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sessionOf } from '../../dashboard/session-gate.js';
import { workspaceOf } from '../../request-context.js';
import { errorResponses, IdParams, listBody, pageOf } from '../../schemas/common.js';
import { NoteCreateBody, NoteEnvelope, NoteListEnvelope, NoteListQuery } from '../../schemas/lead-notes.schemas.js';

export const leadNoteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/leads/:id/notes',
    { schema: { params: IdParams, querystring: NoteListQuery, response: { 200: NoteListEnvelope, ...errorResponses(400, 404) } } },
    async (request) => {
      const page = pageOf(request.query);
      return listBody(await workspaceOf(request).leadNotes.list(request.params.id, page), page);
    },
  );

  app.post(
    '/leads/:id/notes',
    {
      config: { dashboardAccess: 'member' },
      schema: { params: IdParams, body: NoteCreateBody, response: { 201: NoteEnvelope, ...errorResponses(400, 404, 413, 415) } },
    },
    async (request, reply) => {
      const { person } = sessionOf(request);
      const author = { type: 'user' as const, id: person.id, name: person.name ?? person.email };
      const note = await workspaceOf(request).leadNotes.create(request.params.id, request.body.body, author);
      reply.code(201);
      return { data: note };
    },
  );
};
