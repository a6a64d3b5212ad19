/**
 * What one line of an import file may hold, per resource (CONTRACT C2.3): the
 * fields of the spec's resource tables, with `id` and timestamps optional, and
 * how a valid line becomes a row, with the same defaults as the API.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { NewActivity } from '../../repositories/activity.repository.js';
import type { NewIdentity } from '../../repositories/identities.repository.js';
import type { Repositories } from '../../repositories/index.js';
import type { NewLead, PendingCounts } from '../../repositories/leads.repository.js';
import type { NewMember } from '../../repositories/users.repository.js';
import { JsonObjectSchema, LIMITS, Nullable, Uuid } from '../../schemas/fields.js';
import { canonicalInstant } from '../../schemas/instants.js';
import { PersonalityTraitsSchema, type Company, type Personality, type VisitorList } from '../../schemas/resources.js';
import { INSTANT_FORMAT } from '../../schemas/validator.js';
import { canonicalId, newId } from '../ids.js';

export const IMPORT_RESOURCES = ['leads', 'identities', 'activity', 'personalities', 'companies', 'lists', 'users'] as const;
export type ImportResource = (typeof IMPORT_RESOURCES)[number];

const Instant = () => Type.String({ format: INSTANT_FORMAT });
const Text = (maxLength: number = LIMITS.text) => Nullable(Type.String({ maxLength }));
const Opt = Type.Optional;

/** References a line makes to other resources of the workspace, checked before writing. */
export interface References {
  identities: string[];
  companies: string[];
}

export interface ResourceSpec<Line, Row> {
  schema: TSchema;
  /** fields checked against the workspace: a line naming an unknown one is invalid */
  references(line: Line): References;
  toRow(line: Line, now: string): Row;
  /** writes rows; returns how many were written */
  insert(repos: Repositories, workspaceId: string, rows: Row[], run: ImportRun): Promise<number>;
  /** completes the import, in its transaction, once every row is written */
  finish?(repos: Repositories, workspaceId: string, run: ImportRun): Promise<void>;
  /** the subset of `rows` whose given id is already taken */
  taken(repos: Repositories, workspaceId: string, rows: Row[]): Promise<Set<Row>>;
}

function takenIn(table: 'leads' | 'identities' | 'activity' | 'personalities' | 'companies' | 'lists') {
  return async <Row extends { id: string }>(repos: Repositories, workspaceId: string, rows: Row[]) => {
    const existing = await repos[table].existingIds(workspaceId, rows.map((row) => row.id));
    return new Set(rows.filter((row) => existing.has(row.id)));
  };
}

/** What one import carries from batch to batch. */
export interface ImportRun {
  leadCounts: PendingCounts;
}

const none: References = { identities: [], companies: [] };
/** lines are validated before they become rows, so their instants are valid */
const stamp = (value: string | undefined, fallback: string) => (value === undefined ? fallback : canonicalInstant(value));
const idOf = (id: string | undefined) => (id === undefined ? newId() : canonicalId(id));
const optionalId = (id: string | null | undefined) => (id === undefined || id === null ? null : canonicalId(id));

const LeadLine = Type.Object(
  {
    id: Opt(Uuid()),
    workspace_id: Opt(Uuid({ description: 'ignored: --workspace decides' })),
    visitor_id: Opt(Uuid()),
    code: Opt(Text(LIMITS.code)),
    source: Opt(Text(LIMITS.source)),
    created_at: Opt(Instant()),
    updated_at: Opt(Instant()),
    properties: Opt(JsonObjectSchema()),
    location: Opt(JsonObjectSchema()),
    identity_id: Opt(Nullable(Uuid())),
    session_id: Opt(Nullable(Uuid())),
    summary: Opt(Nullable(JsonObjectSchema())),
    company_id: Opt(Nullable(Uuid())),
  },
  { additionalProperties: false },
);

const leads: ResourceSpec<Static<typeof LeadLine>, NewLead> = {
  schema: LeadLine,
  references: (line) => ({
    identities: line.identity_id ? [canonicalId(line.identity_id)] : [],
    companies: line.company_id ? [canonicalId(line.company_id)] : [],
  }),
  toRow(line, now) {
    const createdAt = stamp(line.created_at, now);
    return {
      id: idOf(line.id),
      visitor_id: idOf(line.visitor_id),
      code: line.code ?? null,
      source: line.source ?? null,
      created_at: createdAt,
      updated_at: stamp(line.updated_at, createdAt),
      properties: line.properties ?? {},
      location: line.location ?? {},
      identity_id: optionalId(line.identity_id),
      session_id: optionalId(line.session_id),
      summary: line.summary ?? null,
      company_id: optionalId(line.company_id),
    };
  },
  // counts are gathered over the whole import and written once at the end
  insert: (repos, workspaceId, rows, run) => repos.leads.insertMany(workspaceId, rows, run.leadCounts),
  finish: (repos, workspaceId, run) => repos.leads.applyCounts(workspaceId, run.leadCounts),
  taken: takenIn('leads'),
};

const IdentityLine = Type.Object(
  {
    id: Opt(Uuid()),
    workspace_id: Opt(Uuid()),
    visitor_id: Opt(Uuid()),
    email: Opt(Nullable(Type.String({ format: 'email', maxLength: LIMITS.email }))),
    name: Opt(Text(LIMITS.name)),
    traits: Opt(JsonObjectSchema()),
    first_seen: Opt(Instant()),
    last_seen: Opt(Instant()),
    ip: Opt(Text(64)),
    city: Opt(Text(LIMITS.name)),
    country: Opt(Text(LIMITS.name)),
    is_favorite: Opt(Type.Boolean()),
    created_at: Opt(Instant()),
  },
  { additionalProperties: false },
);

const identities: ResourceSpec<Static<typeof IdentityLine>, NewIdentity> = {
  schema: IdentityLine,
  references: () => none,
  toRow(line, now) {
    const createdAt = stamp(line.created_at, now);
    return {
      id: idOf(line.id),
      visitor_id: idOf(line.visitor_id),
      email: line.email ?? null,
      name: line.name ?? null,
      traits: line.traits ?? {},
      first_seen: stamp(line.first_seen, createdAt),
      last_seen: stamp(line.last_seen, createdAt),
      ip: line.ip ?? null,
      city: line.city ?? null,
      country: line.country ?? null,
      is_favorite: line.is_favorite ?? false,
      created_at: createdAt,
    };
  },
  insert: (repos, workspaceId, rows) => repos.identities.insertMany(workspaceId, rows),
  taken: takenIn('identities'),
};

const ActivityLine = Type.Object(
  {
    id: Opt(Uuid()),
    identity_id: Uuid(),
    type: Type.String({ maxLength: LIMITS.name }),
    who: Opt(Text()),
    what: Opt(Text()),
    source: Opt(Text(LIMITS.source)),
    created_at: Opt(Instant()),
  },
  { additionalProperties: false },
);

const activity: ResourceSpec<Static<typeof ActivityLine>, NewActivity> = {
  schema: ActivityLine,
  references: (line) => ({ identities: [canonicalId(line.identity_id)], companies: [] }),
  toRow: (line, now) => ({
    id: idOf(line.id),
    identity_id: canonicalId(line.identity_id),
    type: line.type,
    who: line.who ?? null,
    what: line.what ?? null,
    source: line.source ?? null,
    created_at: stamp(line.created_at, now),
  }),
  insert: (repos, workspaceId, rows) => repos.activity.insertMany(workspaceId, rows),
  taken: takenIn('activity'),
};

const PersonalityLine = Type.Object(
  {
    id: Opt(Uuid()),
    visitor_id: Uuid(),
    score: Type.Number(),
    personality: PersonalityTraitsSchema,
    features: Opt(JsonObjectSchema()),
    learning_percentage: Type.Number(),
    created_at: Opt(Instant()),
  },
  { additionalProperties: false },
);

const personalities: ResourceSpec<Static<typeof PersonalityLine>, Personality> = {
  schema: PersonalityLine,
  references: () => none,
  toRow: (line, now) => ({
    id: idOf(line.id),
    visitor_id: canonicalId(line.visitor_id),
    score: line.score,
    personality: line.personality,
    features: line.features ?? {},
    learning_percentage: line.learning_percentage,
    created_at: stamp(line.created_at, now),
  }),
  insert: (repos, workspaceId, rows) => repos.personalities.insertMany(workspaceId, rows),
  taken: takenIn('personalities'),
};

const CompanyLine = Type.Object(
  {
    id: Opt(Uuid()),
    name: Type.String({ maxLength: LIMITS.name }),
    domain: Opt(Text(LIMITS.name)),
    description: Opt(Text()),
    employees: Opt(Text(64)),
    main_industry: Opt(Text(LIMITS.name)),
    created_at: Opt(Instant()),
  },
  { additionalProperties: false },
);

const companies: ResourceSpec<Static<typeof CompanyLine>, Company> = {
  schema: CompanyLine,
  references: () => none,
  toRow: (line, now) => ({
    id: idOf(line.id),
    name: line.name,
    domain: line.domain ?? null,
    description: line.description ?? null,
    employees: line.employees ?? null,
    main_industry: line.main_industry ?? null,
    created_at: stamp(line.created_at, now),
  }),
  insert: (repos, workspaceId, rows) => repos.companies.insertMany(workspaceId, rows),
  taken: takenIn('companies'),
};

const ListLine = Type.Object(
  {
    id: Opt(Uuid()),
    name: Type.String({ maxLength: LIMITS.name }),
    description: Opt(Text()),
    color: Opt(Nullable(Type.String({ pattern: '^#[0-9A-Fa-f]{6}$' }))),
    created_at: Opt(Instant()),
  },
  { additionalProperties: false },
);

const lists: ResourceSpec<Static<typeof ListLine>, VisitorList> = {
  schema: ListLine,
  references: () => none,
  toRow: (line, now) => ({
    id: idOf(line.id),
    name: line.name,
    description: line.description ?? null,
    color: line.color ?? null,
    created_at: stamp(line.created_at, now),
  }),
  insert: (repos, workspaceId, rows) => repos.lists.insertMany(workspaceId, rows),
  taken: takenIn('lists'),
};

const UserLine = Type.Object(
  {
    id: Opt(Uuid()),
    email: Type.String({ format: 'email', maxLength: LIMITS.email }),
    name: Opt(Text(LIMITS.name)),
    avatar: Opt(Text()),
    username: Opt(Text(LIMITS.name)),
    language: Opt(Text(35)),
    created_at: Opt(Instant()),
    workspace_role: Type.String({ maxLength: 64 }),
    joined_at: Opt(Instant()),
  },
  { additionalProperties: false },
);

const users: ResourceSpec<Static<typeof UserLine>, NewMember> = {
  schema: UserLine,
  references: () => none,
  toRow(line, now) {
    const createdAt = stamp(line.created_at, now);
    return {
      id: idOf(line.id),
      email: line.email,
      name: line.name ?? null,
      avatar: line.avatar ?? null,
      username: line.username ?? null,
      language: line.language ?? null,
      created_at: createdAt,
      workspace_role: line.workspace_role,
      joined_at: stamp(line.joined_at, now),
    };
  },
  insert: async (repos, workspaceId, rows) => (await repos.users.upsertMembers(workspaceId, rows)).length,
  taken: async (repos, _workspaceId, rows) => {
    const owners = await repos.users.emailsOfIds(rows.map((row) => row.id));
    return new Set(rows.filter((row) => {
      const owner = owners.get(row.id);
      return owner !== undefined && owner !== row.email.toLowerCase();
    }));
  },
};

export const RESOURCE_SPECS: Record<ImportResource, ResourceSpec<never, unknown>> = {
  leads,
  identities,
  activity,
  personalities,
  companies,
  lists,
  users,
} as unknown as Record<ImportResource, ResourceSpec<never, unknown>>;
