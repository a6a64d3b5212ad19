/**
 * /api/v1/lists: visitor lists (segments, CONTRACT C6.4): list, create,
 * read, change and delete them, read a list's rule, list its identities,
 * and add or remove identities of a static list.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { JsonObject } from '../../schemas/json.js';
import { PATCH_MEDIA_TYPES } from '../plugins/request-guards.js';
import { workspaceOf } from '../request-context.js';
import { cursorPage } from '../pagination.js';
import { errorResponses, IdParams } from '../schemas/common.js';
import {
  ListCreateBody,
  ListIdentitiesEnvelope,
  ListMemberParams,
  ListMembersAddedEnvelope,
  ListMembersBody,
  ListRuleEnvelope,
  ListUpdateBody,
  VisitorListEnvelope,
  VisitorListListEnvelope,
  VisitorListQuery,
} from '../schemas/lists.schemas.js';
import { IDENTITY_EXAMPLE, LIST_CREATE_EXAMPLE, LIST_EXAMPLE, LIST_MEMBERS_EXAMPLE, LIST_RULE_EXAMPLE, LIST_UPDATE_EXAMPLE, page, withExample } from '../schemas/examples.js';

export const listsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/lists',
    {
      schema: {
        operationId: 'listLists',
        tags: ['lists'],
        summary: 'List visitor lists',
        description: 'The visitor lists (segments) of your workspace, newest first, a page at a time.',
        querystring: VisitorListQuery,
        response: { 200: withExample(VisitorListListEnvelope, page(LIST_EXAMPLE), 'A page of visitor lists'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const paging = await cursorPage(request, {});
      return paging.finish(await workspaceOf(request).lists.list(paging.page), reply);
    },
  );

  app.post(
    '/lists',
    {
      schema: {
        operationId: 'createList',
        tags: ['lists'],
        summary: 'Create a visitor list (a segment with a rule, or a static list)',
        description:
          'A list with a `rule` is a segment: identities that meet the rule join it, and leave it, within 60 seconds of the events that change it (CONTRACT C6.4). Without a rule it is static: add and remove identities by id.',
        body: withExample(ListCreateBody, LIST_CREATE_EXAMPLE),
        response: { 201: withExample(VisitorListEnvelope, { data: LIST_EXAMPLE }, 'The list created'), ...errorResponses(400, 413, 415) },
      },
    },
    async (request, reply) => {
      const { rule, ...fields } = request.body;
      const list = await workspaceOf(request).lists.create({ ...fields, rule: rule as JsonObject | null | undefined });
      reply.code(201).header('location', `/api/v1/lists/${list.id}`);
      return { data: list };
    },
  );

  app.get(
    '/lists/:id',
    {
      schema: {
        operationId: 'getList',
        tags: ['lists'],
        summary: 'Get a visitor list',
        description: 'One visitor list of your workspace; its rule is at `/lists/{id}/rule`.',
        params: IdParams,
        response: { 200: withExample(VisitorListEnvelope, { data: LIST_EXAMPLE }, 'The list'), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await workspaceOf(request).lists.get(request.params.id) }),
  );

  app.patch(
    '/lists/:id',
    {
      schema: {
        operationId: 'updateList',
        tags: ['lists'],
        summary: 'Change a visitor list (its rule too)',
        description: 'Changes the fields given. A new rule empties the segment, which fills again by the new rule; `rule: null` makes it a static list that keeps its members.',
        params: IdParams,
        consumes: PATCH_MEDIA_TYPES,
        body: withExample(ListUpdateBody, LIST_UPDATE_EXAMPLE),
        response: { 200: withExample(VisitorListEnvelope, { data: LIST_EXAMPLE }, 'The list as changed'), ...errorResponses(400, 404, 413, 415) },
      },
    },
    async (request) => {
      const { rule, ...fields } = request.body;
      return { data: await workspaceOf(request).lists.update(request.params.id, { ...fields, rule: rule as JsonObject | null | undefined }) };
    },
  );

  app.delete(
    '/lists/:id',
    {
      schema: {
        operationId: 'deleteList',
        tags: ['lists'],
        summary: 'Delete a visitor list',
        description: 'Deletes the list and its memberships; the identities stay.',
        params: IdParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await workspaceOf(request).lists.delete(request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/lists/:id/rule',
    {
      schema: {
        operationId: 'getListRule',
        tags: ['lists'],
        summary: "Get a visitor list's rule",
        description: 'The rule of a segment, or null for a static list (list objects keep the fields of the spec).',
        params: IdParams,
        response: { 200: withExample(ListRuleEnvelope, { data: LIST_RULE_EXAMPLE }, "The list's rule, or null"), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await workspaceOf(request).lists.rule(request.params.id) }),
  );

  app.get(
    '/lists/:id/identities',
    {
      schema: {
        operationId: 'listListIdentities',
        tags: ['lists'],
        summary: 'List the identities of a visitor list',
        description: 'The members of the list, newest identity first, a page at a time with the exact total.',
        params: IdParams,
        querystring: VisitorListQuery,
        response: { 200: withExample(ListIdentitiesEnvelope, page(IDENTITY_EXAMPLE), 'A page of the list\'s identities'), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const paging = await cursorPage(request, {});
      return paging.finish(await workspaceOf(request).lists.identities(request.params.id, paging.page), reply);
    },
  );

  app.post(
    '/lists/:id/identities',
    {
      schema: {
        operationId: 'addListIdentities',
        tags: ['lists'],
        summary: 'Add identities to a static list',
        description: 'Adds identities of your workspace by id (another workspace\'s id: 403, C3.7); answers how many were not members yet. A segment (a list with a rule) takes none by hand: 409.',
        params: IdParams,
        body: withExample(ListMembersBody, LIST_MEMBERS_EXAMPLE),
        response: { 200: withExample(ListMembersAddedEnvelope, { data: { added: 1 } }, 'How many were added'), ...errorResponses(400, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => ({ data: { added: await workspaceOf(request).lists.addIdentities(request.params.id, request.body.identity_ids) } }),
  );

  app.delete(
    '/lists/:id/identities/:identity_id',
    {
      schema: {
        operationId: 'removeListIdentity',
        tags: ['lists'],
        summary: 'Remove an identity from a static list',
        description: 'Takes the identity out of the list; a segment (a list with a rule) is 409.',
        params: ListMemberParams,
        response: { 204: { type: 'null', description: 'Removed' }, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await workspaceOf(request).lists.removeIdentity(request.params.id, request.params.identity_id);
      return reply.code(204).send();
    },
  );
};
