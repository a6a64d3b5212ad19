/**
 * /api/v1/leads: list, create, read and update leads.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PATCH_MEDIA_TYPES } from '../plugins/request-guards.js';
import { workspaceOf } from '../request-context.js';
import { leadEnvelope, leadListEnvelope, leadSerializers } from '../serializers/lead.serializer.js';
import { createdRange, errorResponses, IdParams, listBody, pageOf } from '../schemas/common.js';
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
        tags: ['leads'],
        summary: 'List leads',
        description: 'Newest first (created_at, then id, descending). Filters combine.',
        querystring: LeadListQuery,
        response: { 200: LeadListEnvelope, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { query } = request;
      const page = pageOf(query);
      const result = await workspaceOf(request).leads.list({ source: query.source, code: query.code, ...createdRange(query) },
        page,
      );
      return listBody(result, page);
    },
  );

  app.post(
    '/leads',
    {
      config: { readOnlyFields: LEAD_CREATE_READ_ONLY },
      serializerCompiler: leadSerializers(leadEnvelope),
      schema: {
        tags: ['leads'],
        summary: 'Create a lead',
        body: LeadCreateBody,
        response: { 201: LeadEnvelope, ...errorResponses(400, 403, 413, 415) },
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
        tags: ['leads'],
        summary: 'Get a lead',
        params: IdParams,
        response: { 200: LeadEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await workspaceOf(request).leads.get(request.params.id) }),
  );

  app.patch(
    '/leads/:id',
    {
      config: { readOnlyFields: LEAD_UPDATE_READ_ONLY },
      serializerCompiler: leadSerializers(leadEnvelope),
      schema: {
        tags: ['leads'],
        summary: 'Update a lead',
        description:
          'Only the fields present change. With application/json an object field replaces the stored one; with application/merge-patch+json it is merged (RFC 7396). updated_at is refreshed.',
        params: IdParams,
        consumes: PATCH_MEDIA_TYPES,
        body: LeadUpdateBody,
        response: { 200: LeadEnvelope, ...errorResponses(400, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const mode = request.mergePatch ? 'merge' : 'replace';
      const lead = await workspaceOf(request).leads.update(request.params.id, request.body, mode);
      return { data: lead };
    },
  );
};
