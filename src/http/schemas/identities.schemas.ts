/**
 * Request and response schemas of the identity routes (spec: Endpoints;
 * CONTRACT C4.3 to C4.6).
 */
import { Type } from '@sinclair/typebox';
import { Ref, Uuid } from '../../schemas/fields.js';
import { IdentityCreateInput, IdentityUpdateInput } from '../../schemas/inputs.js';
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

/** The body of POST /identities: schemas/inputs.ts, shared with the import. */
export const IdentityCreateBody = IdentityCreateInput;

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

export const IdentityUpdateBody = IdentityUpdateInput;

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
