/**
 * The tables as Kysely sees them. Column types are what both stores accept on
 * write; what comes back differs by store (JSON as text or object, booleans as
 * 0/1 or true/false), so repositories read rows through the store's Codec.
 *
 * Every tenant table carries workspace_id, and its primary key starts with it,
 * so that the tables can be distributed by workspace (docs/scaling.md).
 */
import type { ColumnType } from 'kysely';
import type { WorkspaceId } from '../tenancy/workspace-id.js';

/** JSON text on SQLite, jsonb on PostgreSQL; written as JSON text on both. */
export type JsonColumn = ColumnType<unknown, string, string>;
export type NullableJsonColumn = ColumnType<unknown, string | null, string | null>;
/** 0/1 on SQLite, boolean on PostgreSQL. */
export type BoolColumn = ColumnType<unknown, number | boolean, number | boolean>;
/** ISO 8601 text (YYYY-MM-DDTHH:mm:ss.sssZ) on both stores, timestamptz on PostgreSQL. */
export type Timestamp = string;
/**
 * The workspace a row belongs to: read as a WorkspaceId, written only from
 * one (a tenant scope's own), never changed by an update.
 */
export type WorkspaceColumn = ColumnType<WorkspaceId, WorkspaceId, never>;

export interface WorkspacesTable {
  /** the one place a WorkspaceId is made: read from here, created as text */
  id: ColumnType<WorkspaceId, string, never>;
  name: string;
  created_at: Timestamp;
  prod_last_use: Timestamp | null;
  dev_last_use: Timestamp | null;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: WorkspaceColumn;
  type: 'production' | 'development';
  name: string | null;
  key_hash: string;
  hint: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  replaces: string | null;
}

export interface LeadsTable {
  workspace_id: WorkspaceColumn;
  id: string;
  visitor_id: string;
  code: string | null;
  source: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  properties: JsonColumn;
  location: JsonColumn;
  identity_id: string | null;
  session_id: string | null;
  summary: NullableJsonColumn;
  company_id: string | null;
  /** what the scorer last wrote into summary (C6.2): keys a client changed since are kept */
  summary_auto: NullableJsonColumn;
}

export interface IdentitiesTable {
  workspace_id: WorkspaceColumn;
  id: string;
  visitor_id: string;
  email: string | null;
  /** lower-cased email, for the case-insensitive filter; never returned */
  email_normalized: string | null;
  name: string | null;
  traits: JsonColumn;
  first_seen: Timestamp;
  last_seen: Timestamp;
  ip: string | null;
  city: string | null;
  country: string | null;
  is_favorite: BoolColumn;
  created_at: Timestamp;
  /** the company its email (or its visitor's network) names (C6.1); never returned with the identity */
  company_id: string | null;
}

export interface IdentityActivityTable {
  workspace_id: WorkspaceColumn;
  id: string;
  identity_id: string;
  type: string;
  who: string | null;
  what: string | null;
  source: string | null;
  created_at: Timestamp;
}

export interface PersonalitiesTable {
  workspace_id: WorkspaceColumn;
  id: string;
  visitor_id: string;
  score: number;
  personality: JsonColumn;
  features: JsonColumn;
  learning_percentage: number;
  created_at: Timestamp;
}

export interface CompaniesTable {
  workspace_id: WorkspaceColumn;
  id: string;
  name: string;
  /** lower-cased name, for the case-insensitive substring filter; never returned */
  name_normalized: string;
  domain: string | null;
  /** lower-cased domain, for the case-insensitive exact filter; never returned */
  domain_normalized: string | null;
  description: string | null;
  employees: string | null;
  main_industry: string | null;
  created_at: Timestamp;
  /** which fields an automatic source wrote, `{field: "domain"|"network"|"website"|"provider"}` (C6.7); null is {} */
  auto_fields: NullableJsonColumn;
  /** the latest visit of any of its visitors (C6.9, C9.4) */
  last_seen: Timestamp | null;
  /** its account score, 0–100, kept by the intelligence worker (C6.9); null before the first */
  account_score: number | null;
}

/** Companies whose enrichment is due at `due_at` (C6.7), claimed by a worker with a lease. */
export interface EnrichmentQueueTable {
  workspace_id: WorkspaceColumn;
  company_id: string;
  due_at: Timestamp;
  claim: string | null;
  claimed_until: Timestamp | null;
  /** failed attempts in a row */
  failures: ColumnType<number, number, number>;
  last_attempt_at: Timestamp | null;
  last_error: string | null;
  /** the last attempt whose every source answered */
  enriched_at: Timestamp | null;
}

export interface VisitorListsTable {
  workspace_id: WorkspaceColumn;
  id: string;
  name: string;
  description: string | null;
  /** always a #RRGGBB since migration 0008 (C6.4) */
  color: string;
  created_at: Timestamp;
  /** a rule segment's rule (C6.4); null for a static list */
  rule: NullableJsonColumn;
}

/** The identities in a list: added by API (static lists) or by the rule's evaluation (C6.4). */
export interface ListMembersTable {
  workspace_id: WorkspaceColumn;
  list_id: string;
  identity_id: string;
  identity_created_at: Timestamp;
  added_at: Timestamp;
}

/** Visitors whose score, personality and segments are due at `due_at`, claimed by a worker with a lease. */
export interface IntelligenceDueTable {
  workspace_id: WorkspaceColumn;
  visitor_id: string;
  due_at: Timestamp;
  claim: string | null;
  claimed_until: Timestamp | null;
}

/** A workspace's settings of lead intelligence: ideal customer, page-kind patterns (JSON). */
export interface WorkspaceSettingsTable {
  workspace_id: WorkspaceColumn;
  intelligence: JsonColumn;
  updated_at: Timestamp;
}

/** People, shared across workspaces (a user with the same email is one user). */
export interface UsersTable {
  id: string;
  email: string;
  email_normalized: string;
  name: string | null;
  avatar: string | null;
  username: string | null;
  language: string | null;
  created_at: Timestamp;
}

export interface WorkspaceMembersTable {
  workspace_id: WorkspaceColumn;
  user_id: string;
  role: string;
  joined_at: Timestamp;
}

/** Leads created per workspace, bucket ('*' for all, '=' + source) and UTC day (YYYY-MM-DD). */
export interface LeadCountsTable {
  workspace_id: WorkspaceColumn;
  bucket: string;
  day: string;
  count: ColumnType<number, number, number>;
}

/** Page views per UTC day and page (host and path): the overview's top pages without scanning events. */
export interface PageCountsTable {
  workspace_id: WorkspaceColumn;
  day: string;
  /** the page URL's host (with its port, if any), lower case */
  host: string;
  /** the page URL's path, as the URL parser gives it (no query, no fragment) */
  path: string;
  views: ColumnType<number, number, number>;
}

/** A person's dashboard password: an argon2id PHC string (C7.2). */
export interface UserPasswordsTable {
  user_id: string;
  password_hash: string;
  updated_at: Timestamp;
}

/** A dashboard session (C7.3): the SHA-256 of its cookie's token, its person, and the workspace it looks at. */
export interface UserSessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  /** changes when the person switches workspace, always to one of their memberships */
  workspace_id: ColumnType<WorkspaceId, WorkspaceId, WorkspaceId>;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
}

/** One-time links that set a password: invitations (7 days) and resets. */
export interface AccountTokensTable {
  token_hash: string;
  user_id: string;
  kind: 'invite' | 'reset';
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** Failed sign-ins by key ('account:<email>' or 'address:<ip>'), for throttling (C7.3). */
export interface SignInFailuresTable {
  key: string;
  at: Timestamp;
}

/** A publishable key that can only send events (CONTRACT C5.1); stored as it is. */
export interface SiteKeysTable {
  id: string;
  workspace_id: WorkspaceColumn;
  name: string | null;
  key: string;
  /** JSON array of allowed origins; empty = any */
  origins: JsonColumn;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

/** The random salt of one UTC day (YYYY-MM-DD) for cookieless visitor ids (C5.4); deleted after 48 hours. */
export interface TrackingSaltsTable {
  day: string;
  salt: string;
  created_at: Timestamp;
}

/** The append-only event log (C5.3); partitioned by month of occurred_at on PostgreSQL. */
export interface EventsTable {
  workspace_id: WorkspaceColumn;
  occurred_at: Timestamp;
  id: string;
  received_at: Timestamp;
  visitor_id: string;
  session_id: string;
  type: 'page' | 'identify' | 'track' | 'conversion';
  name: string | null;
  url: string | null;
  /** the path of url, for reports by page */
  path: string | null;
  title: string | null;
  referrer: string | null;
  code: string | null;
  /** properties (track, conversion) or traits (identify) */
  data: NullableJsonColumn;
  /** as IP_STORAGE keeps it */
  ip: string | null;
  city: string | null;
  country: string | null;
}

/** The event ids a workspace has received within the acceptance window: ingestion is idempotent by id. */
export interface EventIdsTable {
  workspace_id: WorkspaceColumn;
  id: string;
  occurred_at: Timestamp;
}

/** What is known about one visitor, kept up to date as its events arrive (nothing rescans the log). */
export interface VisitorsTable {
  workspace_id: WorkspaceColumn;
  id: string;
  identity_id: string | null;
  identified_at: Timestamp | null;
  first_seen: Timestamp;
  last_seen: Timestamp;
  /** the visitor's latest session */
  session_id: string;
  session_started_at: Timestamp;
  session_last_at: Timestamp;
  last_url: string | null;
  last_ip: string | null;
  last_city: string | null;
  last_country: string | null;
  events: ColumnType<number, number, number>;
  page_views: ColumnType<number, number, number>;
  sessions: ColumnType<number, number, number>;
  created_at: Timestamp;
  /** running aggregates (src/intelligence/aggregates.ts), JSON */
  aggregates: NullableJsonColumn;
  /** the network of the visitor's latest events (class, AS, organisation, company), JSON */
  network: NullableJsonColumn;
  /** the company its visits name: its identity's, else its network's (C6.9) */
  company_id: string | null;
}

/** A workspace's rule naming the company of an AS number, a CIDR range or a domain, or no company (C6.8). */
export interface CompanyRulesTable {
  workspace_id: WorkspaceColumn;
  id: string;
  /** asn, cidr or domain */
  match_kind: string;
  /** the decimal AS number, the canonical CIDR, or the lower-case domain */
  match_value: string;
  company_id: string | null;
  not_a_company: BoolColumn;
  created_at: Timestamp;
}

/** A visitor whose address is due for a reverse DNS lookup (C6.6), claimed with a lease. */
export interface ReverseDnsDueTable {
  workspace_id: WorkspaceColumn;
  visitor_id: string;
  address: string;
  due_at: Timestamp;
  claim: string | null;
  claimed_until: Timestamp | null;
}

/** What an address's PTR lookup answered and when (C6.6): shared by every workspace, kept a day. */
export interface ReverseDnsCacheTable {
  address: string;
  /** the first PTR name; null when there was none or the lookup failed */
  name: string | null;
  checked_at: Timestamp;
}

/** A visitor's run of events with no gap over 30 minutes, at most 24 hours long (C5.4). */
export interface SessionsTable {
  workspace_id: WorkspaceColumn;
  id: string;
  visitor_id: string;
  started_at: Timestamp;
  last_at: Timestamp;
  landing_page: string | null;
  referrer: string | null;
  /** the utm_* parameters of the landing page */
  utm: JsonColumn;
  /** campaign, referral or website (C5.7) */
  source: string;
  events: ColumnType<number, number, number>;
  page_views: ColumnType<number, number, number>;
  user_agent: string | null;
}

/** The first answer to a POST with an Idempotency-Key (C8.2), kept for its lifetime. */
export interface IdempotencyKeysTable {
  workspace_id: WorkspaceColumn;
  key: string;
  /** SHA-256 of the method, route and body */
  request_hash: string;
  /** running: claimed; applied: its write committed; completed: its answer is stored */
  state: 'running' | 'applied' | 'completed';
  /** the claim of the request running it; a claim whose lease ran out can be taken over */
  lock_token: string;
  locked_until: Timestamp;
  response_status: number | null;
  /** JSON object of the headers replayed (location, content-type) */
  response_headers: string | null;
  response_body: string | null;
  created_at: Timestamp;
}

/** Secrets shared by every process of an installation (the cursor signing key), made by migration 0006. */
export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: Timestamp;
}

/** A workspace's webhook endpoint (C8.5). */
export interface WebhooksTable {
  workspace_id: WorkspaceColumn;
  id: string;
  url: string;
  /** JSON array of event types */
  events: JsonColumn;
  description: string | null;
  enabled: BoolColumn;
  /** whsec_ + base64 of the signing key */
  secret: string;
  status: 'active' | 'failing';
  consecutive_failures: ColumnType<number, number, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The webhook outbox: one event for one endpoint, with its attempts (C8.5). */
export interface WebhookDeliveriesTable {
  workspace_id: WorkspaceColumn;
  id: string;
  webhook_id: string;
  message_id: string;
  event_type: string;
  /** the body sent, as JSON text */
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: ColumnType<number, number, number>;
  next_attempt_at: Timestamp;
  locked_until: Timestamp | null;
  last_response_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  /** JSON array of attempts: {attempt, at, response_code, duration_ms, error} */
  log: string;
  created_at: Timestamp;
  delivered_at: Timestamp | null;
}

export interface Schema {
  workspaces: WorkspacesTable;
  api_keys: ApiKeysTable;
  leads: LeadsTable;
  lead_counts: LeadCountsTable;
  page_counts: PageCountsTable;
  identities: IdentitiesTable;
  identity_activity: IdentityActivityTable;
  personalities: PersonalitiesTable;
  companies: CompaniesTable;
  visitor_lists: VisitorListsTable;
  users: UsersTable;
  workspace_members: WorkspaceMembersTable;
  user_passwords: UserPasswordsTable;
  user_sessions: UserSessionsTable;
  account_tokens: AccountTokensTable;
  sign_in_failures: SignInFailuresTable;
  site_keys: SiteKeysTable;
  tracking_salts: TrackingSaltsTable;
  events: EventsTable;
  event_ids: EventIdsTable;
  visitors: VisitorsTable;
  sessions: SessionsTable;
  idempotency_keys: IdempotencyKeysTable;
  server_secrets: ServerSecretsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  list_members: ListMembersTable;
  intelligence_due: IntelligenceDueTable;
  workspace_settings: WorkspaceSettingsTable;
  company_rules: CompanyRulesTable;
  reverse_dns_due: ReverseDnsDueTable;
  reverse_dns_cache: ReverseDnsCacheTable;
  enrichment_queue: EnrichmentQueueTable;
}

/** Tables of one workspace's data: reached only through a tenant scope (repositories/tenant-scope.ts). */
export const TENANT_TABLES = [
  'leads',
  'lead_counts',
  'page_counts',
  'identities',
  'identity_activity',
  'personalities',
  'companies',
  'visitor_lists',
  'workspace_members',
  'events',
  'event_ids',
  'visitors',
  'sessions',
  'idempotency_keys',
  'webhooks',
  'webhook_deliveries',
  'list_members',
  'intelligence_due',
  'workspace_settings',
  'company_rules',
  'reverse_dns_due',
  'enrichment_queue',
] as const;
export type TenantTable = (typeof TENANT_TABLES)[number];

/**
 * Tables whose rows name a workspace but are operator data: a request learns
 * its workspace from an API key, a site key or a dashboard session, so those
 * lookups cannot filter by one.
 */
export const OPERATOR_WORKSPACE_TABLES = ['api_keys', 'site_keys', 'user_sessions'] as const;

/** Every table with a workspace_id column must be in one of the two lists (checked by the compiler). */
type TablesWithWorkspace = { [T in keyof Schema]: 'workspace_id' extends keyof Schema[T] ? T : never }[keyof Schema];
type Unlisted = Exclude<TablesWithWorkspace, TenantTable | (typeof OPERATOR_WORKSPACE_TABLES)[number]>;
export const EVERY_WORKSPACE_TABLE_IS_LISTED: [Unlisted] extends [never] ? true : Unlisted = true;
