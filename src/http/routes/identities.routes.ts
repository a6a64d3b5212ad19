/**
 * /api/v1/identities: list, create, read and update visitor identities, and
 * read an identity's activity and personalities.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PATCH_MEDIA_TYPES } from '../plugins/request-guards.js';
import { workspaceOf } from '../request-context.js';
import { cursorPage } from '../pagination.js';
import { createdRange, errorResponses, IdParams } from '../schemas/common.js';
import {
  ACTIVITY_EXAMPLE,
  IDENTITY_CREATE_EXAMPLE,
  IDENTITY_EXAMPLE,
  IDENTITY_UPDATE_EXAMPLE,
  page,
  PERSONALITY_EXAMPLE,
  withExample,
} from '../schemas/examples.js';
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
        operationId: 'listIdentities',
        tags: ['identities'],
        summary: 'List identities',
        description:
          'The visitor identities of your workspace, newest first (created_at, then id, descending). Filters combine; `email` matches exactly, ignoring case.',
        querystring: IdentityListQuery,
        response: { 200: withExample(IdentityListEnvelope, page(IDENTITY_EXAMPLE), 'A page of identities'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { query } = request;
      const filters = {
        email: query.email,
        visitorId: query.visitor_id?.toLowerCase(),
        isFavorite: query.is_favorite,
        ...createdRange(query),
      };
      const paging = await cursorPage(request, filters);
      return paging.finish(await workspaceOf(request).identities.list(filters, paging.page), reply);
    },
  );

  app.post(
    '/identities',
    {
      config: { readOnlyFields: IDENTITY_CREATE_READ_ONLY },
      schema: {
        operationId: 'createIdentity',
        tags: ['identities'],
        summary: 'Create an identity',
        description:
          'A known person: `email`, `name`, `traits` and optionally the `visitor_id` of their browser (generated when absent). `first_seen` and `last_seen` start at the creation time. Answers 201 with the identity and its `Location`.',
        body: withExample(IdentityCreateBody, IDENTITY_CREATE_EXAMPLE),
        response: { 201: withExample(IdentityEnvelope, { data: IDENTITY_EXAMPLE }, 'The identity created'), ...errorResponses(400, 413, 415) },
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
        operationId: 'getIdentity',
        tags: ['identities'],
        summary: 'Get an identity',
        description: 'One identity of your workspace by id (an addition to the spec, which lists PATCH but no GET for one identity).',
        params: IdParams,
        response: { 200: withExample(IdentityEnvelope, { data: IDENTITY_EXAMPLE }, 'The identity'), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await workspaceOf(request).identities.get(request.params.id) }),
  );

  app.patch(
    '/identities/:id',
    {
      config: { readOnlyFields: IDENTITY_UPDATE_READ_ONLY },
      schema: {
        operationId: 'updateIdentity',
        tags: ['identities'],
        summary: 'Update an identity',
        description:
          '`name`, `traits` and `is_favorite`; only the fields present change. `traits` is replaced with application/json and merged with application/merge-patch+json (RFC 7396).',
        params: IdParams,
        consumes: PATCH_MEDIA_TYPES,
        body: withExample(IdentityUpdateBody, IDENTITY_UPDATE_EXAMPLE),
        response: { 200: withExample(IdentityEnvelope, { data: IDENTITY_EXAMPLE }, 'The identity after the update'), ...errorResponses(400, 404, 413, 415) },
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
        operationId: 'listIdentityActivity',
        tags: ['identities'],
        summary: 'List the activity of an identity',
        description: 'What the person did (page views, events, conversions, identifications), newest first, a page at a time.',
        params: IdParams,
        querystring: ActivityQuery,
        response: { 200: withExample(ActivityListEnvelope, page(ACTIVITY_EXAMPLE), 'A page of activity entries'), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const paging = await cursorPage(request, {});
      return paging.finish(await workspaceOf(request).identities.activity(request.params.id, paging.page), reply);
    },
  );

  app.get(
    '/identities/:id/personalities',
    {
      schema: {
        operationId: 'listIdentityPersonalities',
        tags: ['identities'],
        summary: 'List the personalities of an identity',
        description: 'The behavioural profiles computed for the identity\'s visitor, newest first; all of them, without pagination.',
        params: IdParams,
        response: { 200: withExample(PersonalityListEnvelope, { data: [PERSONALITY_EXAMPLE] }, 'Every personality of the identity'), ...errorResponses(404) },
      },
    },
    async (request) => ({
      data: await workspaceOf(request).identities.personalities(request.params.id),
    }),
  );
};
