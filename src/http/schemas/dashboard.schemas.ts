/**
 * Request and response schemas of the dashboard's own endpoints
 * (/dashboard/api: CONTRACT C7). The dashboard reads and changes resources
 * with the API's resource schemas; what is its own (sessions, keys as
 * settings show them, members with their state, the overview) is here.
 * These routes are hidden from the public OpenAPI document: they serve the
 * dashboard, not API clients, and a session, never a key, opens them.
 */
import { Type } from '@sinclair/typebox';
import { JsonObjectSchema, LIMITS, Nullable, Timestamp, Uuid } from '../../schemas/fields.js';
import { IdentitySchema, WorkspaceUserSchema } from '../../schemas/resources.js';
import { ROLES } from '../../services/operator/roles.js';
import { LeadListEnvelope } from './leads.schemas.js';

const Opt = Type.Optional;
const Role = Type.Union(ROLES.map((role) => Type.Literal(role)));

export const SignInBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: LIMITS.email }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

export const SessionSchema = Type.Object(
  {
    user: Type.Object({ id: Uuid(), email: Type.String(), name: Nullable(Type.String()) }, { additionalProperties: false }),
    workspace: Type.Object({ id: Uuid(), name: Type.String() }, { additionalProperties: false }),
    role: Role,
    workspaces: Type.Array(
      Type.Object({ id: Uuid(), name: Type.String(), role: Type.String() }, { additionalProperties: false }),
    ),
    csrf_token: Type.String({ description: 'send it as X-CSRF-Token with every request that changes something' }),
    expires_at: Timestamp(),
    features: Type.Object({ site_keys: Type.Boolean() }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export const SessionEnvelope = Type.Object({ data: SessionSchema }, { additionalProperties: false });
export const MaybeSessionEnvelope = Type.Object({ data: Type.Union([SessionSchema, Type.Null()]) }, { additionalProperties: false });

export const SwitchWorkspaceBody = Type.Object({ workspace_id: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

export const TokenBody = Type.Object({ token: Type.String({ maxLength: 128 }) }, { additionalProperties: false });
export const RedeemBody = Type.Object(
  { token: Type.String({ maxLength: 128 }), password: Type.String({ maxLength: 1024 }) },
  { additionalProperties: false },
);
export const TokenInfoEnvelope = Type.Object(
  {
    data: Type.Object(
      { email: Type.String(), kind: Type.Union([Type.Literal('invite'), Type.Literal('reset')]), expires_at: Timestamp() },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export const PasswordChangeBody = Type.Object(
  { current_password: Type.String({ maxLength: 1024 }), new_password: Type.String({ maxLength: 1024 }) },
  { additionalProperties: false },
);

export const WorkspaceSettingsEnvelope = Type.Object(
  {
    data: Type.Object(
      {
        id: Uuid(),
        name: Type.String(),
        created_at: Timestamp(),
        prod_last_use: Nullable(Timestamp()),
        dev_last_use: Nullable(Timestamp()),
        time_zone: Type.String({ description: 'the IANA time zone whose 08:00 sends digests (C10.4)' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const KeyType = Type.Union([Type.Literal('production'), Type.Literal('development')]);

export const KeySchema = Type.Object(
  {
    id: Uuid(),
    type: KeyType,
    name: Nullable(Type.String()),
    hint: Type.String({ description: 'the last 4 characters of the key' }),
    created_at: Timestamp(),
    last_used_at: Nullable(Timestamp()),
  },
  { additionalProperties: false },
);
export const KeyListEnvelope = Type.Object({ data: Type.Array(KeySchema) }, { additionalProperties: false });
export const KeyCreateBody = Type.Object(
  { type: KeyType, name: Opt(Nullable(Type.String({ maxLength: LIMITS.name }))) },
  { additionalProperties: false },
);
export const CreatedKeyEnvelope = Type.Object(
  {
    data: Type.Object(
      {
        id: Uuid(),
        workspace_id: Uuid(),
        type: KeyType,
        name: Nullable(Type.String()),
        key: Type.String({ description: 'the secret, shown this once' }),
        created_at: Timestamp(),
        replaces: Opt(Uuid()),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export const RevokedKeyEnvelope = Type.Object(
  { data: Type.Object({ id: Uuid(), revoked_at: Timestamp() }, { additionalProperties: false }) },
  { additionalProperties: false },
);

export const MemberSchema = Type.Object(
  {
    ...WorkspaceUserSchema.properties,
    status: Type.Union([Type.Literal('active'), Type.Literal('invited')], {
      description: 'active: can sign in; invited: has not set a password yet',
    }),
  },
  { additionalProperties: false },
);
export const MemberListEnvelope = Type.Object(
  { data: Type.Array(MemberSchema), pagination: Type.Object({ limit: Type.Integer(), offset: Type.Integer(), total: Type.Integer() }) },
  { additionalProperties: false },
);
export const MemberEnvelope = Type.Object({ data: MemberSchema }, { additionalProperties: false });
export const MemberListQuery = Type.Object(
  {
    limit: Opt(Type.Integer({ minimum: 1 })),
    offset: Opt(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    role: Opt(Type.String()),
  },
  { additionalProperties: true },
);
export const InviteBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: LIMITS.email }),
    role: Role,
    name: Opt(Nullable(Type.String({ maxLength: LIMITS.name }))),
  },
  { additionalProperties: false },
);
const LinkFields = {
  url: Nullable(Type.String({ description: 'a one-time link that sets the password; null when none may be handed out here' })),
  expires_at: Nullable(Timestamp()),
};
export const InvitationEnvelope = Type.Object(
  { data: Type.Object({ member: MemberSchema, invite_url: LinkFields.url, expires_at: LinkFields.expires_at }, { additionalProperties: false }) },
  { additionalProperties: false },
);
export const ResetLinkEnvelope = Type.Object(
  { data: Type.Object({ reset_url: Type.String(), expires_at: Timestamp() }, { additionalProperties: false }) },
  { additionalProperties: false },
);
export const RoleBody = Type.Object({ role: Role }, { additionalProperties: false });

export const DashboardLeadUpdateBody = Type.Object(
  { properties: Opt(JsonObjectSchema()), summary: Opt(Nullable(JsonObjectSchema())) },
  { additionalProperties: false, description: 'a member edits properties and summary (CONTRACT C7.4); each replaces the stored object' },
);

export const TrackingStatusEnvelope = Type.Object(
  {
    data: Type.Object(
      { received_events: Type.Boolean({ description: 'whether the workspace has accepted any tracked event (C9.8)' }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** The dashboard's page of leads (C9.3): the leads, and the people and companies they name, by id. */
export const DashboardLeadListEnvelope = Type.Object(
  {
    ...LeadListEnvelope.properties,
    people: Type.Record(Type.String(), Type.Object({ name: Nullable(Type.String()), email: Nullable(Type.String()) }), {
      description: "each lead's identity by id: the table's Person is its name, else its email, else Anonymous",
    }),
    companies: Type.Record(Type.String(), Type.Object({ name: Type.String() }), { description: "each lead's company by id" }),
  },
  { additionalProperties: false },
);

/** The dashboard's identity: the resource and the company linked to it, named (its page links it: C9.4). */
export const DashboardIdentityEnvelope = Type.Object(
  {
    data: Type.Object(
      {
        ...IdentitySchema.properties,
        company: Nullable(
          Type.Object({ id: Uuid(), name: Type.String() }, { additionalProperties: false, description: 'the company linked to the identity (C6.1), null when none' }),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
