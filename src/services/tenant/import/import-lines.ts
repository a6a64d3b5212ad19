/**
 * What one line of an import file may hold, per resource (CONTRACT C2.3): the
 * resource's input schema (the API's request body where there is one:
 * schemas/inputs.ts) plus `id` and the timestamps, and how a valid line
 * becomes a row, through the services' own row builders where they exist.
 */
import { Type, type Static, type TProperties, type TSchema } from '@sinclair/typebox';
import type { TenantRepositories } from '../../../repositories/index.js';
import type { PeopleRepository } from '../../../repositories/operator/people.repository.js';
import type { NewActivity } from '../../../repositories/tenant/activity.repository.js';
import type { NewIdentity } from '../../../repositories/tenant/identities.repository.js';
import type { PendingCounts } from '../../../repositories/tenant/lead-counts.repository.js';
import type { NewLead } from '../../../repositories/tenant/leads.repository.js';
import { LIMITS, Uuid } from '../../../schemas/fields.js';
import {
  ActivityInput,
  CompanyInput,
  IdentityCreateInput,
  LeadCreateInput,
  MemberInput,
  NullableText,
  PersonalityInput,
  VisitorListInput,
} from '../../../schemas/inputs.js';
import { canonicalInstant } from '../../../schemas/instants.js';
import { normalizeEmail } from '../../../schemas/normalize.js';
import type { Company, Personality, VisitorList } from '../../../schemas/resources.js';
import { INSTANT_FORMAT } from '../../../schemas/validator.js';
import { canonicalId, newId } from '../../ids.js';
import { buildIdentity } from '../identities.service.js';
import { buildLead } from '../leads.service.js';
import { addMembers, type NewMember } from '../users.service.js';
import { paletteColor } from '../../../schemas/list-colors.js';

export const IMPORT_RESOURCES = ['leads', 'identities', 'activity', 'personalities', 'companies', 'lists', 'users'] as const;
export type ImportResource = (typeof IMPORT_RESOURCES)[number];

const Opt = Type.Optional;
const Instant = () => Type.String({ format: INSTANT_FORMAT });

/** `input`'s fields plus what an import line may add (an id, timestamps, fields the server sets). */
function line<I extends TProperties, E extends TProperties>(input: { properties: I }, extra: E) {
  return Type.Object({ ...input.properties, ...extra }, { additionalProperties: false });
}

/** References a line makes to other resources of the workspace, checked before writing. */
export interface References {
  identities: string[];
  companies: string[];
}

/** What one import carries from batch to batch. */
export interface ImportRun {
  leadCounts: PendingCounts;
  /** when the import started: what it marks visitors due at */
  at: string;
}

export interface ResourceSpec<Line, Row> {
  schema: TSchema;
  /** fields checked against the workspace: a line naming an unknown one is invalid */
  references(line: Line): References;
  toRow(line: Line, now: string): Row;
  /** writes rows; returns how many were written */
  insert(repos: TenantRepositories, people: PeopleRepository, rows: Row[], run: ImportRun): Promise<number>;
  /** completes the import, in its transaction, once every row is written */
  finish?(repos: TenantRepositories, run: ImportRun): Promise<void>;
  /** the subset of `rows` whose given id is already taken */
  taken(repos: TenantRepositories, people: PeopleRepository, rows: Row[]): Promise<Set<Row>>;
  /** whether the workspace holds any row of the resource; when it holds none, no given id can be taken */
  hadRows?(repos: TenantRepositories): Promise<boolean>;
  /**
   * row fields written as JSON text through the codec, which may reach
   * `insert` as StoredJson: serialized on the parsing thread (parsed-wire.ts)
   */
  jsonFields?: readonly string[];
}

function takenIn(table: 'leads' | 'identities' | 'activity' | 'personalities' | 'companies' | 'lists') {
  return async <Row extends { id: string }>(repos: TenantRepositories, _people: PeopleRepository, rows: Row[]) => {
    const existing = await repos[table].existingIds(rows.map((row) => row.id));
    return new Set(rows.filter((row) => existing.has(row.id)));
  };
}

const none: References = { identities: [], companies: [] };
/** lines are validated before they become rows, so their instants are valid */
const stamp = (value: string | undefined, fallback: string) => (value === undefined ? fallback : canonicalInstant(value));
const idOf = (id: string | undefined) => (id === undefined ? newId() : canonicalId(id));

const LeadLine = line(LeadCreateInput, {
  id: Opt(Uuid()),
  workspace_id: Opt(Uuid({ description: 'ignored: --workspace decides' })),
  created_at: Opt(Instant()),
  updated_at: Opt(Instant()),
});

const leads: ResourceSpec<Static<typeof LeadLine>, NewLead> = {
  schema: LeadLine,
  references: (line) => ({
    identities: line.identity_id ? [canonicalId(line.identity_id)] : [],
    companies: line.company_id ? [canonicalId(line.company_id)] : [],
  }),
  toRow(line, now) {
    const createdAt = stamp(line.created_at, now);
    return buildLead(line, { id: idOf(line.id), createdAt, updatedAt: stamp(line.updated_at, createdAt) });
  },
  // counts are gathered over the whole import and written once at the end;
  // C6.2: the visitors of the batch that have events are due for scoring, as for a lead made through the API
  async insert(repos, _people, rows, run) {
    const written = await repos.leads.insertMany(rows, run.leadCounts);
    await repos.intelligenceDue.markVisitorsDue(
      rows.map((row) => row.visitor_id),
      run.at,
    );
    return written;
  },
  finish: (repos, run) => repos.leadCounts.add(run.leadCounts),
  taken: takenIn('leads'),
  hadRows: (repos) => repos.leads.hasAny(),
  jsonFields: ['properties', 'location', 'summary'],
};

const IdentityLine = line(IdentityCreateInput, {
  id: Opt(Uuid()),
  workspace_id: Opt(Uuid({ description: 'ignored: --workspace decides' })),
  first_seen: Opt(Instant()),
  last_seen: Opt(Instant()),
  ip: Opt(NullableText(64)),
  city: Opt(NullableText(LIMITS.name)),
  country: Opt(NullableText(LIMITS.name)),
  is_favorite: Opt(Type.Boolean()),
  created_at: Opt(Instant()),
});

const identities: ResourceSpec<Static<typeof IdentityLine>, NewIdentity> = {
  schema: IdentityLine,
  references: () => none,
  toRow(line, now) {
    const createdAt = stamp(line.created_at, now);
    const { id, first_seen, last_seen, ip, city, country, is_favorite } = line;
    return buildIdentity(line, {
      id: idOf(id),
      createdAt,
      firstSeen: stamp(first_seen, createdAt),
      lastSeen: stamp(last_seen, createdAt),
      ip,
      city,
      country,
      isFavorite: is_favorite,
    });
  },
  insert: (repos, _people, rows) => repos.identities.insertMany(rows),
  taken: takenIn('identities'),
  hadRows: (repos) => repos.identities.hasAny(),
};

const ActivityLine = line(ActivityInput, { id: Opt(Uuid()), created_at: Opt(Instant()) });

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
  insert: (repos, _people, rows) => repos.activity.insertMany(rows),
  taken: takenIn('activity'),
  hadRows: (repos) => repos.activity.hasAny(),
};

const PersonalityLine = line(PersonalityInput, { id: Opt(Uuid()), created_at: Opt(Instant()) });

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
  insert: (repos, _people, rows) => repos.personalities.insertMany(rows),
  taken: takenIn('personalities'),
  hadRows: (repos) => repos.personalities.hasAny(),
};

const CompanyLine = line(CompanyInput, { id: Opt(Uuid()), created_at: Opt(Instant()) });

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
  insert: async (repos, _people, rows) => {
    const written = await repos.companies.insertMany(rows);
    // what the import left empty, enrichment fills (C6.7); what it wrote stays
    await repos.enrichmentQueue.scheduleNew(
      rows.filter((row) => row.domain !== null && row.domain !== '').map((row) => row.id),
      new Date().toISOString(),
    );
    return written;
  },
  taken: takenIn('companies'),
  hadRows: (repos) => repos.companies.hasAny(),
};

const ListLine = line(VisitorListInput, { id: Opt(Uuid()), created_at: Opt(Instant()) });

const lists: ResourceSpec<Static<typeof ListLine>, VisitorList> = {
  schema: ListLine,
  references: () => none,
  toRow: (line, now) => {
    const id = idOf(line.id);
    return { id, name: line.name, description: line.description ?? null, color: line.color ?? paletteColor(id), created_at: stamp(line.created_at, now) };
  },
  insert: (repos, _people, rows) => repos.lists.insertMany(rows),
  taken: takenIn('lists'),
  hadRows: (repos) => repos.lists.hasAny(),
};

const UserLine = line(MemberInput, { id: Opt(Uuid()), created_at: Opt(Instant()), joined_at: Opt(Instant()) });

const users: ResourceSpec<Static<typeof UserLine>, NewMember> = {
  schema: UserLine,
  references: () => none,
  toRow: (line, now) => ({
    id: idOf(line.id),
    email: line.email,
    name: line.name ?? null,
    avatar: line.avatar ?? null,
    username: line.username ?? null,
    language: line.language ?? null,
    created_at: stamp(line.created_at, now),
    workspace_role: line.workspace_role,
    joined_at: stamp(line.joined_at, now),
  }),
  insert: async (repos, people, rows) => (await addMembers(repos, people, rows)).length,
  // a given id is taken when it names a person with another email
  taken: async (_repos, people, rows) => {
    const owners = await people.emailsOfIds(rows.map((row) => row.id));
    return new Set(
      rows.filter((row) => {
        const owner = owners.get(row.id);
        return owner !== undefined && owner !== normalizeEmail(row.email);
      }),
    );
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
