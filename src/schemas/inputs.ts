/**
 * What a client may write, per resource: the request bodies of the API, and
 * the fields of an import line beyond what the server sets. The HTTP routes
 * validate bodies with these schemas and `leadlight import` builds its line
 * schemas from them (services/tenant/import/import-lines.ts), so a line is
 * checked exactly like a request body, by construction.
 */
import { Type, type Static } from '@sinclair/typebox';
import { JsonObjectSchema, LIMITS, Nullable, Uuid } from './fields.js';
import { PersonalityTraitsSchema } from './resources.js';

const Opt = Type.Optional;
/** Free text that may be null. */
export const NullableText = (maxLength: number = LIMITS.text) => Nullable(Type.String({ maxLength }));

export const LeadCreateInput = Type.Object(
  {
    visitor_id: Opt(Uuid({ description: 'generated when absent' })),
    code: Opt(NullableText(LIMITS.code)),
    source: Opt(NullableText(LIMITS.source)),
    properties: Opt(JsonObjectSchema()),
    location: Opt(JsonObjectSchema()),
    identity_id: Opt(Nullable(Uuid({ description: 'an identity of your workspace' }))),
    session_id: Opt(Nullable(Uuid())),
    company_id: Opt(Nullable(Uuid({ description: 'a company of your workspace' }))),
    summary: Opt(Nullable(JsonObjectSchema())),
  },
  { additionalProperties: false },
);
export type LeadCreateInput = Static<typeof LeadCreateInput>;

export const LeadUpdateInput = Type.Object(
  {
    properties: Opt(JsonObjectSchema()),
    location: Opt(JsonObjectSchema()),
    summary: Opt(Nullable(JsonObjectSchema())),
    company_id: Opt(Nullable(Uuid({ description: 'a company of your workspace, or null' }))),
  },
  {
    additionalProperties: false,
    description:
      'application/json replaces each object field present; application/merge-patch+json merges it by RFC 7396',
  },
);
export type LeadUpdateInput = Static<typeof LeadUpdateInput>;

const PersonName = NullableText(LIMITS.name);

export const IdentityCreateInput = Type.Object(
  {
    email: Opt(Nullable(Type.String({ format: 'email', maxLength: LIMITS.email }))),
    name: Opt(PersonName),
    traits: Opt(JsonObjectSchema()),
    visitor_id: Opt(Uuid({ description: 'generated when absent' })),
  },
  { additionalProperties: false },
);
export type IdentityCreateInput = Static<typeof IdentityCreateInput>;

export const IdentityUpdateInput = Type.Object(
  {
    name: Opt(PersonName),
    traits: Opt(JsonObjectSchema()),
    is_favorite: Opt(Type.Boolean()),
  },
  {
    additionalProperties: false,
    description: 'application/json replaces traits; application/merge-patch+json merges it by RFC 7396',
  },
);
export type IdentityUpdateInput = Static<typeof IdentityUpdateInput>;

export const CompanyInput = Type.Object(
  {
    name: Type.String({ maxLength: LIMITS.name }),
    domain: Opt(NullableText(LIMITS.name)),
    description: Opt(NullableText()),
    employees: Opt(NullableText(64)),
    main_industry: Opt(NullableText(LIMITS.name)),
  },
  { additionalProperties: false },
);
export type CompanyInput = Static<typeof CompanyInput>;

export const VisitorListInput = Type.Object(
  {
    name: Type.String({ maxLength: LIMITS.name }),
    description: Opt(NullableText()),
    color: Opt(Nullable(Type.String({ pattern: '^#[0-9A-Fa-f]{6}$' }))),
  },
  { additionalProperties: false },
);
export type VisitorListInput = Static<typeof VisitorListInput>;

export const ActivityInput = Type.Object(
  {
    identity_id: Uuid(),
    type: Type.String({ maxLength: LIMITS.name }),
    who: Opt(NullableText()),
    what: Opt(NullableText()),
    source: Opt(NullableText(LIMITS.source)),
  },
  { additionalProperties: false },
);
export type ActivityInput = Static<typeof ActivityInput>;

export const PersonalityInput = Type.Object(
  {
    visitor_id: Uuid(),
    score: Type.Number(),
    personality: PersonalityTraitsSchema,
    features: Opt(JsonObjectSchema()),
    learning_percentage: Type.Number(),
  },
  { additionalProperties: false },
);
export type PersonalityInput = Static<typeof PersonalityInput>;

export const MemberInput = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: LIMITS.email }),
    name: Opt(NullableText(LIMITS.name)),
    avatar: Opt(NullableText()),
    username: Opt(NullableText(LIMITS.name)),
    language: Opt(NullableText(35)),
    workspace_role: Type.String({ maxLength: 64 }),
  },
  { additionalProperties: false },
);
export type MemberInput = Static<typeof MemberInput>;
