/**
 * Request and response schemas of the identity routes (spec: Endpoints;
 * CONTRACT C4.3 to C4.6).
 */
import { Type } from '@sinclair/typebox';
import { JsonObjectSchema, LIMITS, Nullable, Ref, Uuid } from '../../schemas/fields.js';
import { ActivitySchema, IdentitySchema, PersonalitySchema } from '../../schemas/resources.js';
import { DataEnvelope, ListEnvelope, PageQuery } from './common.js';
import { CreatedAfter, CreatedBefore } from './leads.schemas.js';

export const IdentityListQuery = Type.Object(
  {
    ...PageQuery,
    email: Type.Optional(Type.String({ description: 'exact email, case-insensitive' })),
    visitor_id: Type.Optional(Uuid()),
    is_favorite: Type.Optional(Type.Boolean({ description: 'true or false' })),
    created_after: Type.Optional(CreatedAfter),
    created_before: Type.Optional(CreatedBefore),
  },
  { additionalProperties: true },
);

const Name = Nullable(Type.String({ maxLength: LIMITS.name }));

export const IdentityCreateBody = Type.Object(
  {
    email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: LIMITS.email }))),
    name: Type.Optional(Name),
    traits: Type.Optional(JsonObjectSchema()),
    visitor_id: Type.Optional(Uuid({ description: 'generated when absent' })),
  },
  { additionalProperties: false },
);

export const IDENTITY_CREATE_READ_ONLY = [
  'id',
  'workspace_id',
  'first_seen',
  'last_seen',
  'ip',
  'city',
  'country',
  'is_favorite',
  'created_at',
] as const;

export const IdentityUpdateBody = Type.Object(
  {
    name: Type.Optional(Name),
    traits: Type.Optional(JsonObjectSchema()),
    is_favorite: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: false,
    description: 'application/json replaces traits; application/merge-patch+json merges it by RFC 7396',
  },
);

export const IDENTITY_UPDATE_READ_ONLY = [
  'id',
  'workspace_id',
  'visitor_id',
  'email',
  'first_seen',
  'last_seen',
  'ip',
  'city',
  'country',
  'created_at',
] as const;

export const IdentityEnvelope = DataEnvelope(Ref(IdentitySchema));
export const IdentityListEnvelope = ListEnvelope(Ref(IdentitySchema));
export const ActivityListEnvelope = ListEnvelope(Ref(ActivitySchema));
export const PersonalityListEnvelope = Type.Object(
  { data: Type.Array(Ref(PersonalitySchema)) },
  { additionalProperties: false },
);
export const ActivityQuery = Type.Object({ ...PageQuery }, { additionalProperties: true });
