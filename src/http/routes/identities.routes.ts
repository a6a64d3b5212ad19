/**
 * /api/v1/identities: list, create, read and update visitor identities, and
 * read an identity's activity and personalities.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PATCH_MEDIA_TYPES } from '../plugins/request-guards.js';
import { workspaceOf } from '../request-context.js';
import { createdRange, errorResponses, IdParams, listBody, pageOf } from '../schemas/common.js';
import {
  ActivityListEnvelope,
  ActivityQuery,
  IDENTITY_CREATE_READ_ONLY,
  IDENTITY_UPDATE_READ_ONLY,
  IdentityCreateBody,
  IdentityEnvelope,
  IdentityListEnvelope,
  IdentityListQuery,
  IdentityUpdateBody,
  PersonalityListEnvelope,
} from '../schemas/identities.schemas.js';

export const identitiesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/identities',
    {
      schema: {
        tags: ['identities'],
        summary: 'List identities',
        description: 'Newest first (created_at, then id, descending). Filters combine.',
        querystring: IdentityListQuery,
        response: { 200: IdentityListEnvelope, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { query } = request;
      const page = pageOf(query);
      const result = await workspaceOf(request).identities.list({
          email: query.email,
          visitorId: query.visitor_id?.toLowerCase(),
          isFavorite: query.is_favorite,
          ...createdRange(query),
        },
        page,
      );
      return listBody(result, page);
    },
  );

  app.post(
    '/identities',
    {
      config: { readOnlyFields: IDENTITY_CREATE_READ_ONLY },
      schema: {
        tags: ['identities'],
        summary: 'Create an identity',
        body: IdentityCreateBody,
        response: { 201: IdentityEnvelope, ...errorResponses(400, 413, 415) },
      },
    },
    async (request, reply) => {
      const identity = await workspaceOf(request).identities.create(request.body);
      reply.code(201).header('location', `/api/v1/identities/${identity.id}`);
      return { data: identity };
    },
  );

  app.get(
    '/identities/:id',
    {
      schema: {
        tags: ['identities'],
        summary: 'Get an identity',
        description: 'An addition to the spec, which lists PATCH but no GET for one identity.',
        params: IdParams,
        response: { 200: IdentityEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await workspaceOf(request).identities.get(request.params.id) }),
  );

  app.patch(
    '/identities/:id',
    {
      config: { readOnlyFields: IDENTITY_UPDATE_READ_ONLY },
      schema: {
        tags: ['identities'],
        summary: 'Update an identity',
        params: IdParams,
        consumes: PATCH_MEDIA_TYPES,
        body: IdentityUpdateBody,
        response: { 200: IdentityEnvelope, ...errorResponses(400, 404, 413, 415) },
      },
    },
    async (request) => {
      const mode = request.mergePatch ? 'merge' : 'replace';
      const identity = await workspaceOf(request).identities.update(request.params.id,
        request.body,
        mode,
      );
      return { data: identity };
    },
  );

  app.get(
    '/identities/:id/activity',
    {
      schema: {
        tags: ['identities'],
        summary: 'List the activity of an identity',
        params: IdParams,
        querystring: ActivityQuery,
        response: { 200: ActivityListEnvelope, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const result = await workspaceOf(request).identities.activity(request.params.id, page);
      return listBody(result, page);
    },
  );

  app.get(
    '/identities/:id/personalities',
    {
      schema: {
        tags: ['identities'],
        summary: 'List the personalities of an identity',
        description: 'Personalities whose visitor_id is the identity\'s, newest first; no pagination.',
        params: IdParams,
        response: { 200: PersonalityListEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => ({
      data: await workspaceOf(request).identities.personalities(request.params.id),
    }),
  );
};
