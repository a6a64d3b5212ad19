/**
 * Request and response schemas of the lead routes (spec: Endpoints; CONTRACT
 * C4.1, C4.2).
 */
import { Type } from '@sinclair/typebox';
import { JsonObjectSchema, LIMITS, Nullable, Ref, Uuid } from '../../schemas/fields.js';
import { LeadSchema } from '../../schemas/resources.js';
import { INSTANT_FORMAT } from '../validation.js';
import { DataEnvelope, ListEnvelope, PageQuery } from './common.js';

export const CreatedAfter = Type.String({
  format: INSTANT_FORMAT,
  description: 'only items created strictly after this instant (ISO 8601; a date alone is 00:00Z)',
});
export const CreatedBefore = Type.String({
  format: INSTANT_FORMAT,
  description: 'only items created strictly before this instant (ISO 8601; a date alone is 00:00Z)',
});

export const LeadListQuery = Type.Object(
  {
    ...PageQuery,
    source: Type.Optional(Type.String({ description: 'exact source' })),
    code: Type.Optional(Type.String({ description: 'exact code' })),
    created_after: Type.Optional(CreatedAfter),
    created_before: Type.Optional(CreatedBefore),
  },
  { additionalProperties: true },
);

export const LeadCreateBody = Type.Object(
  {
    visitor_id: Type.Optional(Uuid({ description: 'generated when absent' })),
    code: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.code }))),
    source: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.source }))),
    properties: Type.Optional(JsonObjectSchema()),
    location: Type.Optional(JsonObjectSchema()),
    identity_id: Type.Optional(Nullable(Uuid({ description: 'an identity of your workspace' }))),
    session_id: Type.Optional(Nullable(Uuid())),
    company_id: Type.Optional(Nullable(Uuid({ description: 'a company of your workspace' }))),
    summary: Type.Optional(Nullable(JsonObjectSchema())),
  },
  { additionalProperties: false },
);

export const LEAD_CREATE_READ_ONLY = ['id', 'workspace_id', 'created_at', 'updated_at'] as const;

export const LeadUpdateBody = Type.Object(
  {
    properties: Type.Optional(JsonObjectSchema()),
    location: Type.Optional(JsonObjectSchema()),
    summary: Type.Optional(Nullable(JsonObjectSchema())),
    company_id: Type.Optional(Nullable(Uuid({ description: 'a company of your workspace, or null' }))),
  },
  {
    additionalProperties: false,
    description:
      'application/json replaces each object field present; application/merge-patch+json merges it by RFC 7396',
  },
);

export const LEAD_UPDATE_READ_ONLY = [
  'id',
  'workspace_id',
  'visitor_id',
  'code',
  'source',
  'created_at',
  'updated_at',
  'identity_id',
  'session_id',
] as const;

export const LeadEnvelope = DataEnvelope(Ref(LeadSchema));
export const LeadListEnvelope = ListEnvelope(Ref(LeadSchema));
