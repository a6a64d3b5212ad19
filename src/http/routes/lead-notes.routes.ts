/**
 * /api/v1/leads/{id}/notes: the notes on a lead (CONTRACT C9.3), written by
 * the API key that calls (its name kept as the author's), newest first.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../services/index.js';
import { workspaceOf } from '../request-context.js';
import { cursorPage } from '../pagination.js';
import { Type } from '@sinclair/typebox';
import { errorResponses, IdParams } from '../schemas/common.js';
import { EXAMPLE_IDS, NOTE_CREATE_EXAMPLE, NOTE_EXAMPLE, page, withExample } from '../schemas/examples.js';
import { NoteCreateBody, NoteEnvelope, NoteListEnvelope, NoteListQuery } from '../schemas/lead-notes.schemas.js';

export const leadNotesRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const keyNote = { ...NOTE_EXAMPLE, author: { type: 'api_key', id: EXAMPLE_IDS.apiKey, name: 'CRM sync' } };

  app.get(
    '/leads/:id/notes',
    {
      schema: {
        operationId: 'listLeadNotes',
        tags: ['leads'],
        summary: "List a lead's notes",
        description:
          'The notes on one lead of your workspace, newest first (created_at, then id, descending), a page at a time, with `Link` cursors. A lead of another workspace is 404, like an unknown one.',
        params: IdParams,
        querystring: NoteListQuery,
        response: { 200: withExample(NoteListEnvelope, page(NOTE_EXAMPLE), 'A page of notes'), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const paging = await cursorPage(request, {});
      return paging.finish(await workspaceOf(request).leadNotes.list(request.params.id, paging.page), reply);
    },
  );

  app.post(
    '/leads/:id/notes',
    {
      schema: {
        operationId: 'createLeadNote',
        tags: ['leads'],
        summary: 'Add a note to a lead',
        description:
          'Adds a note (1 to 10,000 characters) to one lead of your workspace; its author is the calling API key (`type: "api_key"`, named by the key\'s name, else its type and last four characters, as it was then). Answers 201 with the note. Sends `note.created`. Notes are deleted with their lead, and so with the erasure of its person.',
        params: IdParams,
        body: withExample(NoteCreateBody, NOTE_CREATE_EXAMPLE),
        response: { 201: withExample(NoteEnvelope, { data: keyNote }, 'The note added'), ...errorResponses(400, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const key = request.apiKey;
      if (key === null) throw new Error('the API gate sets the key');
      const author = { type: 'api_key' as const, id: key.id, name: await services.apiKeys.displayName(key.id) };
      const note = await workspaceOf(request).leadNotes.create(request.params.id, request.body.body, author);
      reply.code(201).header('location', `/api/v1/leads/${request.params.id.toLowerCase()}/notes/${note.id}`);
      return { data: note };
    },
  );

  app.get(
    '/leads/:id/notes/:note_id',
    {
      schema: {
        operationId: 'getLeadNote',
        tags: ['leads'],
        summary: 'Get a note',
        description: "One note on one lead of your workspace. A note of another lead or another workspace's is 404, like an unknown one.",
        params: Type.Object({ id: Type.String({ description: 'UUID of the lead' }), note_id: Type.String({ description: 'UUID of the note' }) }),
        response: { 200: withExample(NoteEnvelope, { data: NOTE_EXAMPLE }, 'The note'), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await workspaceOf(request).leadNotes.get(request.params.id, request.params.note_id) }),
  );
};
