/**
 * /api/v1/leads: list, create, read and update leads.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { PATCH_MEDIA_TYPES } from '../plugins/request-guards.js';
import type { Lead, Pagination } from '../../schemas/resources.js';
import { workspaceOf } from '../request-context.js';
import { leadEnvelope, leadListEnvelope, leadSerializers } from '../serializers/lead.serializer.js';
import { cursorPage } from '../pagination.js';
import { createdRange, errorResponses, IdParams } from '../schemas/common.js';
import { LEAD_CREATE_EXAMPLE, LEAD_EXAMPLE, LEAD_UPDATE_EXAMPLE, page, withExample } from '../schemas/examples.js';
import {
  LEAD_CREATE_READ_ONLY,
  LEAD_UPDATE_READ_ONLY,
  LeadCreateBody,
  LeadEnvelope,
  LeadListEnvelope,
  LeadListQuery,
  LeadUpdateBody,
} from '../schemas/leads.schemas.js';

export const leadsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/leads',
    {
      serializerCompiler: leadSerializers(leadListEnvelope),
      schema: {
        operationId: 'listLeads',
        tags: ['leads'],
        summary: 'List leads',
        description:
          'The leads of your workspace, a page at a time, newest first (created_at, then id, descending) unless `sort` says otherwise (`created_at`, `-score`, `score`; leads without a numeric `summary.score` last in both score orders). Filters combine; `pagination.total` counts every lead matching them. The `Link` cursor keeps the order and the filters.',
        querystring: LeadListQuery,
        response: { 200: withExample(LeadListEnvelope, page(LEAD_EXAMPLE), 'A page of leads'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { query } = request;
      const filters = { source: query.source, code: query.code, ...createdRange(query) };
      const sort = query.sort ?? '-created_at';
      // the cursor is bound to the order too (the default left out: cursors made before sort existed stay valid)
      const paging = await cursorPage(request, { ...filters, sort: sort === '-created_at' ? undefined : sort });
      const result = await workspaceOf(request).leads.listText(filters, paging.page, sort);
      const keys = new Map(result.items.map((lead, index) => [lead, result.keys[index]]));
      const page = await paging.finish(result, reply, (lead) => keys.get(lead) ?? { at: lead.created_at, id: lead.id });
      // the serializer copies a LeadText as it is (lead.serializer.ts); the schema's type does not know it
      return page as { data: Lead[]; pagination: Pagination };
    },
  );

  app.post(
    '/leads',
    {
      config: { readOnlyFields: LEAD_CREATE_READ_ONLY },
      serializerCompiler: leadSerializers(leadEnvelope),
      schema: {
        operationId: 'createLead',
        tags: ['leads'],
        summary: 'Create a lead',
        description:
          'Every field is optional: `visitor_id` is generated when absent, `properties` and `location` default to `{}`, the others to null. `identity_id` and `company_id` must name resources of your workspace (403 otherwise). Answers 201 with the lead and its `Location`.',
        body: withExample(LeadCreateBody, LEAD_CREATE_EXAMPLE),
        response: { 201: withExample(LeadEnvelope, { data: LEAD_EXAMPLE }, 'The lead created'), ...errorResponses(400, 403, 413, 415) },
      },
    },
    async (request, reply) => {
      const lead = await workspaceOf(request).leads.create(request.body);
      reply.code(201).header('location', `/api/v1/leads/${lead.id}`);
      return { data: lead };
    },
  );

  app.get(
    '/leads/:id',
    {
      serializerCompiler: leadSerializers(leadEnvelope),
      schema: {
        operationId: 'getLead',
        tags: ['leads'],
        summary: 'Get a lead',
        description: 'One lead of your workspace by id. An id of another workspace is 404, like an unknown one.',
        params: IdParams,
        response: { 200: withExample(LeadEnvelope, { data: LEAD_EXAMPLE }, 'The lead'), ...errorResponses(404) },
      },
    },
    // the serializer copies a LeadText as it is (lead.serializer.ts); the schema's type does not know it
    async (request) => ({ data: (await workspaceOf(request).leads.getText(request.params.id)) as Lead }),
  );

  app.delete(
    '/leads/:id',
    {
      schema: {
        operationId: 'deleteLead',
        tags: ['leads'],
        summary: 'Delete a lead',
        description:
          'Deletes the lead (204, no body). Lead totals stay exact. Deleting it again, or an id of another workspace, is 404.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'deleted' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await workspaceOf(request).leads.delete(request.params.id);
      request.log.info({ audit: 'lead.deleted', workspace_id: workspaceOf(request).id, key_id: request.apiKey?.id, lead_id: request.params.id }, 'audit: lead deleted');
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/leads/:id',
    {
      config: { readOnlyFields: LEAD_UPDATE_READ_ONLY },
      serializerCompiler: leadSerializers(leadEnvelope),
      schema: {
        operationId: 'updateLead',
        tags: ['leads'],
        summary: 'Update a lead',
        description:
          'Only the fields present change. With application/json an object field replaces the stored one; with application/merge-patch+json it is merged (RFC 7396: a null member removes that key). `updated_at` is refreshed.',
        params: IdParams,
        consumes: PATCH_MEDIA_TYPES,
        body: withExample(LeadUpdateBody, LEAD_UPDATE_EXAMPLE),
        response: { 200: withExample(LeadEnvelope, { data: LEAD_EXAMPLE }, 'The lead after the update'), ...errorResponses(400, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const mode = request.mergePatch ? 'merge' : 'replace';
      const lead = await workspaceOf(request).leads.update(request.params.id, request.body, mode);
      return { data: lead };
    },
  );
};
