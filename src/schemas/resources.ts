/**
 * The resources exactly as the spec lists their fields. These schemas serialize
 * every response (so no internal column can leak) and become the components of
 * the OpenAPI document.
 */
import { Type, type Static } from '@sinclair/typebox';
import { JsonFieldSchema, JsonObjectSchema, Nullable, Timestamp, Uuid } from './fields.js';

export const LeadSchema = Type.Object(
  {
    id: Uuid(),
    visitor_id: Uuid(),
    workspace_id: Uuid(),
    code: Nullable(Type.String()),
    source: Nullable(Type.String()),
    created_at: Timestamp(),
    updated_at: Timestamp(),
    properties: JsonFieldSchema(),
    location: JsonFieldSchema(),
    identity_id: Nullable(Uuid()),
    session_id: Nullable(Uuid()),
    summary: Nullable(JsonFieldSchema()),
    company_id: Nullable(Uuid()),
  },
  { $id: 'Lead', additionalProperties: false },
);
/** A lead as returned: its JSON fields may hold the stored text (StoredJson). */
export type Lead = Static<typeof LeadSchema>;

export const IdentitySchema = Type.Object(
  {
    id: Uuid(),
    workspace_id: Uuid(),
    visitor_id: Uuid(),
    email: Nullable(Type.String()),
    name: Nullable(Type.String()),
    traits: JsonObjectSchema(),
    first_seen: Timestamp(),
    last_seen: Timestamp(),
    ip: Nullable(Type.String()),
    city: Nullable(Type.String()),
    country: Nullable(Type.String()),
    is_favorite: Type.Boolean(),
    created_at: Timestamp(),
  },
  { $id: 'Identity', additionalProperties: false },
);
export type Identity = Static<typeof IdentitySchema>;

export const ActivitySchema = Type.Object(
  {
    id: Uuid(),
    type: Type.String({ description: 'kind of activity, for example page_view' }),
    who: Nullable(Type.String({ description: 'display name of the actor' })),
    what: Nullable(Type.String({ description: 'description of the action' })),
    source: Nullable(Type.String({ description: 'where the activity came from' })),
    created_at: Timestamp(),
  },
  { $id: 'Activity', additionalProperties: false },
);
export type Activity = Static<typeof ActivitySchema>;

export const PersonalityTraitsSchema = Type.Object(
  { type: Type.String(), traits: Type.Array(Type.String()) },
  { additionalProperties: true },
);

export const PersonalitySchema = Type.Object(
  {
    id: Uuid(),
    visitor_id: Uuid(),
    score: Type.Number(),
    personality: PersonalityTraitsSchema,
    features: JsonObjectSchema(),
    learning_percentage: Type.Number({ description: 'decimal fraction, 0 to 1' }),
    created_at: Timestamp(),
  },
  { $id: 'Personality', additionalProperties: false },
);
export type Personality = Static<typeof PersonalitySchema>;

export const CompanySchema = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    domain: Nullable(Type.String()),
    description: Nullable(Type.String()),
    employees: Nullable(Type.String({ description: 'size range label such as 51-200' })),
    main_industry: Nullable(Type.String()),
    created_at: Timestamp(),
  },
  { $id: 'Company', additionalProperties: false },
);
export type Company = Static<typeof CompanySchema>;

export const VisitorListSchema = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    description: Nullable(Type.String()),
    color: Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#RRGGBB; a color of the fixed palette when the list was made without one (README, "API notes")' }),
    created_at: Timestamp(),
  },
  { $id: 'VisitorList', additionalProperties: false },
);
export type VisitorList = Static<typeof VisitorListSchema>;

export const WorkspaceUserSchema = Type.Object(
  {
    id: Uuid(),
    email: Type.String(),
    name: Nullable(Type.String()),
    avatar: Nullable(Type.String({ description: 'URL of the avatar image' })),
    username: Nullable(Type.String()),
    language: Nullable(Type.String()),
    created_at: Timestamp(),
    workspace_role: Type.String({ description: 'admin, member or viewer' }),
    joined_at: Timestamp(),
  },
  { $id: 'WorkspaceUser', additionalProperties: false },
);
export type WorkspaceUser = Static<typeof WorkspaceUserSchema>;

export const PaginationSchema = Type.Object(
  {
    limit: Type.Integer({ description: 'page size used' }),
    offset: Type.Integer({ description: 'number of results skipped' }),
    total: Type.Integer({ description: 'number of items matching the filters' }),
  },
  { $id: 'Pagination', additionalProperties: false },
);
export type Pagination = Static<typeof PaginationSchema>;

/** A note on a lead (C9.3); `author.name` is the author's name when the note was written. */
export const LeadNoteSchema = Type.Object(
  {
    id: Uuid(),
    body: Type.String({ description: 'the text of the note, as written (1 to 10,000 characters)' }),
    author: Type.Object(
      {
        type: Type.Union([Type.Literal('user'), Type.Literal('api_key')], { description: 'a dashboard user or an API key' }),
        id: Uuid({ description: 'the user id or the API key id' }),
        name: Type.String({ description: "the user's name (else email), or the key's name (else its type and hint), when the note was written" }),
      },
      { additionalProperties: false },
    ),
    created_at: Timestamp(),
  },
  { $id: 'LeadNote', additionalProperties: false },
);
export type LeadNote = Static<typeof LeadNoteSchema>;

export const RESOURCE_SCHEMAS = [
  LeadSchema,
  IdentitySchema,
  ActivitySchema,
  PersonalitySchema,
  CompanySchema,
  VisitorListSchema,
  WorkspaceUserSchema,
  PaginationSchema,
  LeadNoteSchema,
] as const;
