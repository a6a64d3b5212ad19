/**
 * The calls whose SQL is written down: for every public method of every
 * repository, one call per shape of statement it can run (which filters are
 * present, first or deep page, replace or merge). The types require an entry
 * for every public method, so a new method cannot be added without its SQL
 * appearing in src/queries.
 */
import type { Kysely } from 'kysely';
import type { Codec } from '../../src/db/codec.js';
import type { Schema } from '../../src/db/schema.js';
import { AccountsRepository } from '../../src/repositories/operator/accounts.repository.js';
import { ApiKeysRepository } from '../../src/repositories/operator/api-keys.repository.js';
import { EventPartitionsRepository } from '../../src/repositories/operator/event-partitions.repository.js';
import { MembershipsRepository } from '../../src/repositories/operator/memberships.repository.js';
import { PeopleRepository } from '../../src/repositories/operator/people.repository.js';
import { ReverseDnsCacheRepository } from '../../src/repositories/operator/reverse-dns-cache.repository.js';
import { ServerSecretsRepository } from '../../src/repositories/operator/server-secrets.repository.js';
import { SignInFailuresRepository } from '../../src/repositories/operator/sign-in-failures.repository.js';
import { SiteKeysRepository } from '../../src/repositories/operator/site-keys.repository.js';
import { TrackingSaltsRepository } from '../../src/repositories/operator/tracking-salts.repository.js';
import { UserSessionsRepository } from '../../src/repositories/operator/user-sessions.repository.js';
import { WebhookQueueRepository } from '../../src/repositories/operator/webhook-queue.repository.js';
import { AlertQueueRepository } from '../../src/repositories/operator/alert-queue.repository.js';
import { DigestScheduleRepository } from '../../src/repositories/operator/digest-schedule.repository.js';
import { WorkspacesRepository } from '../../src/repositories/operator/workspaces.repository.js';
import { TenantScope } from '../../src/repositories/scope/tenant-scope.js';
import { AccountActivityRepository } from '../../src/repositories/tenant/account-activity.repository.js';
import { ActivityRepository } from '../../src/repositories/tenant/activity.repository.js';
import { ChangesRepository, FEED_START } from '../../src/repositories/tenant/changes.repository.js';
import { AlertsRepository } from '../../src/repositories/tenant/alerts.repository.js';
import { DigestContentRepository } from '../../src/repositories/tenant/digest-content.repository.js';
import { DigestsRepository } from '../../src/repositories/tenant/digests.repository.js';
import { CompaniesRepository } from '../../src/repositories/tenant/companies.repository.js';
import { CompanyRulesRepository } from '../../src/repositories/tenant/company-rules.repository.js';
import { EnrichmentQueueRepository } from '../../src/repositories/tenant/enrichment-queue.repository.js';
import { ErasureRepository } from '../../src/repositories/tenant/erasure.repository.js';
import { EventsRepository, type LoggedEvent } from '../../src/repositories/tenant/events.repository.js';
import { IdempotencyRepository } from '../../src/repositories/tenant/idempotency.repository.js';
import { IdentitiesRepository } from '../../src/repositories/tenant/identities.repository.js';
import { LeadCountsRepository, PendingCounts } from '../../src/repositories/tenant/lead-counts.repository.js';
import { LeadsRepository, type NewLead } from '../../src/repositories/tenant/leads.repository.js';
import { LeadNotesRepository } from '../../src/repositories/tenant/lead-notes.repository.js';
import { IntelligenceDueRepository } from '../../src/repositories/tenant/intelligence-due.repository.js';
import { ListMembersRepository } from '../../src/repositories/tenant/list-members.repository.js';
import { ListsRepository } from '../../src/repositories/tenant/lists.repository.js';
import { MembersRepository } from '../../src/repositories/tenant/members.repository.js';
import { PageCountsRepository, PendingPageViews } from '../../src/repositories/tenant/page-counts.repository.js';
import { PendingTraffic, TrafficCountsRepository } from '../../src/repositories/tenant/traffic-counts.repository.js';
import { PersonalitiesRepository } from '../../src/repositories/tenant/personalities.repository.js';
import { ReverseDnsDueRepository } from '../../src/repositories/tenant/reverse-dns-due.repository.js';
import { SearchRepository } from '../../src/repositories/tenant/search.repository.js';
import { LiveRepository } from '../../src/repositories/tenant/live.repository.js';
import { ExportRepository } from '../../src/repositories/tenant/export.repository.js';
import { RecordSearchRepository } from '../../src/repositories/tenant/record-search.repository.js';
import type { SearchCondition } from '../../src/repositories/tenant/search-filter.js';
import { SessionsRepository, type Session } from '../../src/repositories/tenant/sessions.repository.js';
import { VisitorsRepository, type Visitor } from '../../src/repositories/tenant/visitors.repository.js';
import { WorkspaceSettingsRepository } from '../../src/repositories/tenant/workspace-settings.repository.js';
import { WebhooksRepository } from '../../src/repositories/tenant/webhooks.repository.js';
import type { WorkspaceId } from '../../src/tenancy/workspace-id.js';
import { STAND_IN_ID } from './recording-dialect.js';

export const WORKSPACE = '0190a0a0-0000-7000-8000-00000000000a' as WorkspaceId;
const ID = STAND_IN_ID;
const AT = '2026-01-01T12:00:00.000Z';
const FIRST_PAGE = { limit: 50, offset: 0 };
const DEEP_PAGE = { limit: 50, offset: 10_000 };
/** a page reached by cursor (C8.3): after a keyset position */
const AFTER_PAGE = { limit: 51, offset: 0, after: { at: '2026-01-01T12:00:00.000Z', id: STAND_IN_ID } };

interface Example<Args> {
  /** what is special about this call: its filter shape, its page */
  label: string;
  args: Args;
}

type PublicMethods<R> = {
  [K in keyof R as R[K] extends (...args: never[]) => Promise<unknown> ? K : never]: R[K];
};

export type Examples<R> = {
  [K in keyof PublicMethods<R>]: PublicMethods<R>[K] extends (...args: infer A) => unknown ? Example<A>[] : never;
};

const one = <const A extends unknown[]>(args: [...A], label = ''): Example<A> => ({ label, args });

export interface RepositoryExamples {
  /** the file the SQL goes to, in src/queries, without the dialect */
  name: string;
  className: string;
  make(db: Kysely<Schema>, codec: Codec): object;
  examples: Record<string, Example<unknown[]>[]>;
}

function tenant<R>(
  name: string,
  Repository: new (scope: TenantScope) => R,
  examples: Examples<R>,
): RepositoryExamples {
  return {
    name,
    className: Repository.name,
    make: (db, codec) => new Repository(new TenantScope(db, WORKSPACE, codec)) as object,
    examples: examples as unknown as Record<string, Example<unknown[]>[]>,
  };
}

function operator<R>(
  name: string,
  Repository: new (db: Kysely<Schema>, codec: Codec) => R,
  examples: Examples<R>,
): RepositoryExamples {
  return {
    name,
    className: Repository.name,
    make: (db, codec) => new Repository(db, codec) as object,
    examples: examples as unknown as Record<string, Example<unknown[]>[]>,
  };
}

const lead: NewLead = {
  id: ID,
  visitor_id: ID,
  code: 'LD-1',
  source: 'website',
  created_at: AT,
  updated_at: AT,
  properties: {},
  location: {},
  identity_id: null,
  session_id: null,
  summary: null,
  company_id: null,
};

const CREATED_DESC = { field: 'created_at', column: 'created_at', order: 'desc', nullable: false } as const;
const CODE_ASC = { field: 'code', column: 'code', order: 'asc', nullable: true } as const;
/** every kind of condition: a column's eq, neq, in, contains, range and exists; a JSON path's of each type */
const LEAD_GROUPS: SearchCondition[][] = [
  [
    { target: { kind: 'column', column: 'source', type: 'text' }, op: 'eq', value: 'website' },
    { target: { kind: 'column', column: 'code', type: 'text' }, op: 'neq', value: 'LD-1' },
    { target: { kind: 'column', column: 'created_at', type: 'instant' }, op: 'gte', value: AT },
    { target: { kind: 'column', column: 'company_id', type: 'uuid' }, op: 'exists', value: true },
  ],
  [
    { target: { kind: 'column', column: 'code', type: 'text' }, op: 'in', value: ['LD-1', 'LD-2'] },
    { target: { kind: 'column', column: 'source', type: 'text' }, op: 'contains', value: 'web' },
  ],
  [
    { target: { kind: 'json', column: 'summary', path: ['score'] }, op: 'gte', value: 70 },
    { target: { kind: 'json', column: 'properties', path: ['plan'] }, op: 'in', value: ['team', 'enterprise'] },
    { target: { kind: 'json', column: 'properties', path: ['trial'] }, op: 'neq', value: true },
    { target: { kind: 'json', column: 'properties', path: ['note'] }, op: 'contains', value: 'x' },
    { target: { kind: 'json', column: 'location', path: ['city'] }, op: 'exists', value: false },
  ],
];

const exists = { exists: [one([ID])], existingIds: [one([[ID, ID]])], hasAny: [one([])] };

const event: LoggedEvent = {
  id: ID,
  occurred_at: AT,
  received_at: AT,
  visitor_id: ID,
  session_id: ID,
  type: 'page',
  name: null,
  url: 'https://shop.example.com/pricing',
  path: '/pricing',
  title: 'Pricing',
  referrer: null,
  code: null,
  data: null,
  ip: '203.0.113.7',
  city: null,
  country: null,
};

const visitor: Visitor = {
  id: ID,
  identity_id: null,
  identified_at: null,
  first_seen: AT,
  last_seen: AT,
  session_id: ID,
  session_started_at: AT,
  session_last_at: AT,
  last_url: null,
  last_ip: null,
  last_city: null,
  last_country: null,
  events: 1,
  page_views: 1,
  sessions: 1,
  created_at: AT,
  aggregates: '{}',
  network: null,
  company_id: null,
};

const session: Session = {
  id: ID,
  visitor_id: ID,
  started_at: AT,
  last_at: AT,
  landing_page: 'https://shop.example.com/?utm_source=news',
  referrer: null,
  utm: { utm_source: 'news' },
  source: 'campaign',
  events: 1,
  page_views: 1,
  user_agent: null,
  country: null,
};

const ALERT = {
  id: ID,
  name: 'Pricing',
  trigger: { type: 'page_viewed' as const, path: '/pricing*' },
  filters: { company_known: true },
  destination: { type: 'slack' as const, url: 'https://hooks.slack.com/services/T/B/X' },
  cooldown_minutes: 1440,
  enabled: true,
  created_at: AT,
  updated_at: AT,
};

export const REPOSITORY_EXAMPLES: RepositoryExamples[] = [
  tenant('alerts.repository', AlertsRepository, {
    ...exists,
    insert: [one([ALERT])],
    findById: [one([ID])],
    list: [one([FIRST_PAGE]), one([AFTER_PAGE], 'page after a cursor (keyset)')],
    update: [one([ID, { name: 'x', trigger: { type: 'conversion' }, filters: {}, destination: { type: 'email', to: ['a@b.co'] as string[] }, cooldown_minutes: 5, enabled: false }, AT])],
    delete: [one([ID])],
    enabled: [one([])],
    takeCooldown: [one([ID, `identity:${ID}`, AT, AT])],
    enqueue: [
      one([
        {
          id: ID,
          alert_id: ID,
          subject: `identity:${ID}`,
          destination: ALERT.destination,
          payload: {
            alert: { id: ID, name: 'Pricing' },
            trigger: ALERT.trigger,
            subject: `identity:${ID}`,
            summary: 'viewed /pricing',
            person: null,
            company: null,
            visitor_id: ID,
            country: null,
            score: null,
            reasons: [] as string[],
            pages: [] as string[],
            link: null,
            occurred_at: AT,
            test: false,
          },
          test: false,
          at: AT,
        },
      ]),
    ],
    deliveries: [one([ID, FIRST_PAGE]), one([ID, AFTER_PAGE], 'page after a cursor (keyset)')],
  }),
  tenant('digests.repository', DigestsRepository, {
    preference: [one([ID])],
    setPreference: [one([ID, 'weekly', AT])],
    claim: [one([ID, 'daily:2026-01-01', AT, AT])],
    settle: [one([ID, 'daily:2026-01-01', 'sent', AT])],
    release: [one([ID, 'daily:2026-01-01', AT, 'connection refused'])],
    send: [one([ID, 'daily:2026-01-01'])],
  }),
  tenant('digest-content.repository', DigestContentRepository, {
    qualifiedLeads: [one([AT, AT, 10])],
    engagedCandidates: [one([AT, 20])],
    returningPeople: [one([AT, AT, 10])],
  }),
  operator('digest-schedule.repository', DigestScheduleRepository, {
    subscribers: [one([])],
  }),
  operator('alert-queue.repository', AlertQueueRepository, {
    claimDue: [one([AT, AT, 20])],
    settle: [
      one([
        { workspace_id: WORKSPACE, id: ID, alert_id: ID, destination: '{}', payload: '{}', attempts: 0, created_at: AT, log: '[]' },
        { status: 'delivered', next_attempt_at: AT, error: null, at: AT, log: '[]' },
      ]),
    ],
  }),
  tenant('webhooks.repository', WebhooksRepository, {
    ...exists,
    insert: [one([{ id: ID, url: 'https://crm.example.com/hook', events: ['lead.created'], description: null, enabled: true, secret: 'whsec_x', created_at: AT }])],
    findById: [one([ID])],
    list: [one([FIRST_PAGE]), one([AFTER_PAGE], 'page after a cursor (keyset)')],
    update: [one([ID, { url: 'https://crm.example.com/v2', events: ['lead.updated'], description: 'x', enabled: false }, AT])],
    delete: [one([ID])],
    fanOut: [one([{ id: 'msg_1', type: 'lead.created', payload: '{}' }, AT], 'to the subscribed endpoints')],
    emitTest: [one([ID, 'webhook.test', {}, AT], 'to one endpoint (a test event)')],
    queue: [one([[{ webhookId: ID, change: { id: 'msg_1', type: 'lead.created', payload: '{}' } }], AT], 'a replay')],
    retryDelivery: [one([ID, ID, AT])],
    deliveries: [one([ID, FIRST_PAGE]), one([ID, AFTER_PAGE], 'page after a cursor (keyset)')],
    pruneDeliveries: [one([AT, 5000])],
  }),
  tenant('changes.repository', ChangesRepository, {
    append: [one(['lead.created', { id: ID }, AT])],
    feed: [
      one([FEED_START, undefined, 51], 'from the start, every type'),
      one([{ xid: '812', position: '40' }, ['lead.created', 'lead.updated'], 51], 'after a cursor, some types'),
    ],
    since: [one([AT, ['lead.created'], FEED_START, 500], 'a replay, first chunk')],
    prune: [one([AT, 5000])],
  }),
  operator('webhook-queue.repository', WebhookQueueRepository, {
    claimDue: [one([AT, AT, 20])],
    settle: [
      one(
        [
          { workspace_id: WORKSPACE, id: ID, webhook_id: ID, message_id: 'msg_1', payload: '{}', attempts: 0, created_at: AT, log: '[]', url: 'https://x', secret: 'whsec_x', enabled: true },
          { status: 'delivered', next_attempt_at: AT, response_code: 200, duration_ms: 12, error: null, at: AT, log: '[]' },
          5,
        ],
        'delivered',
      ),
      one(
        [
          { workspace_id: WORKSPACE, id: ID, webhook_id: ID, message_id: 'msg_1', payload: '{}', attempts: 1, created_at: AT, log: '[]', url: 'https://x', secret: 'whsec_x', enabled: true },
          { status: 'pending', next_attempt_at: AT, response_code: 500, duration_ms: 12, error: 'answered 500', at: AT, log: '[]' },
          5,
        ],
        'failed, retried later',
      ),
    ],
  }),
  tenant('erasure.repository', ErasureRepository, {
    personByEmail: [one(['Ada@Example.com'])],
    personByVisitor: [one([ID])],
    deleteActivity: [one([[ID]])],
    deletePersonalities: [one([[ID]])],
    deleteEvents: [one([[ID]])],
    deleteVisitors: [one([[ID], [ID]])],
    deleteIdentities: [one([[ID]])],
    emailsOf: [one([[ID]])],
    deleteDeliveriesNaming: [one([[ID, 'ada@example.com']])],
    deleteAnswersNaming: [one([[ID, 'ada@example.com']])],
    deleteChangesNaming: [one([[ID, 'ada@example.com']])],
    deleteAlertDeliveriesNaming: [one([[ID, 'ada@example.com'], [`identity:${ID}`]])],
  }),
  operator('server-secrets.repository', ServerSecretsRepository, {
    find: [one(['cursor'])],
    insertIfAbsent: [one(['cursor', 'secret', AT])],
  }),
  tenant('idempotency.repository', IdempotencyRepository, {
    claim: [one(['key-1', 'hash', ID, AT, AT])],
    find: [one(['key-1'])],
    takeOver: [one(['key-1', ID, AT, AT])],
    markApplied: [one(['key-1', ID])],
    complete: [one(['key-1', ID, { status: 201, headers: { location: '/api/v1/leads/x' }, body: '{}' }])],
    release: [one(['key-1', ID])],
    prune: [one([AT, 5000])],
  }),
  tenant('leads.repository', LeadsRepository, {
    ...exists,
    findById: [one([ID])],
    listByCompany: [one([ID, FIRST_PAGE])],
    findText: [one([ID], 'a lead as its response JSON (SQLite; PostgreSQL reads it as findById)')],
    listText: [
      one([{}, FIRST_PAGE], 'first page, each lead as its response JSON (SQLite; PostgreSQL reads it as list)'),
      one([{ source: 'website' }, DEEP_PAGE], 'source, deep page, as response JSON'),
    ],
    list: [
      one([{}, FIRST_PAGE], 'no filter, first page'),
      one([{}, DEEP_PAGE], 'no filter, deep page (ids through the index, then rows)'),
      one([{}, AFTER_PAGE], 'no filter, page after a cursor (keyset)'),
      one([{ source: 'website' }, AFTER_PAGE], 'source, page after a cursor (keyset)'),
      one([{ source: 'website' }, FIRST_PAGE], 'source'),
      one([{ code: 'LD-1' }, FIRST_PAGE], 'code (counted row by row)'),
      one([{ createdAfter: '2026-01-01T00:00:00.000Z', createdBefore: '2026-02-01T00:00:00.000Z' }, FIRST_PAGE], 'date-only range'),
      one(
        [{ source: 'website', createdAfter: '2026-01-01T09:00:00.000Z', createdBefore: '2026-02-01T18:00:00.000Z' }, FIRST_PAGE],
        'source and a range with times (edge days counted)',
      ),
      one([{ createdAfter: '2026-01-01T09:00:00.000Z', createdBefore: '2026-01-01T18:00:00.000Z' }, FIRST_PAGE], 'range within one day'),
    ],
    listSorted: [
      one(['created_at', {}, FIRST_PAGE], 'oldest first (C9.3)'),
      one(['created_at', { source: 'website' }, AFTER_PAGE], 'oldest first, source, after a cursor'),
      one(['-score', {}, FIRST_PAGE], 'best first: scored leads, then the unscored'),
      one(['-score', {}, { limit: 51, offset: 0, after: { at: '42.5', id: ID } }], 'best first, after a scored lead'),
      one(['score', {}, { limit: 51, offset: 0, after: { at: '', id: ID } }], 'worst first, in the unscored tail'),
      one(['-score', {}, { limit: 50, offset: 200 }], 'best first, offset past the scored leads (counts them)'),
    ],
    insert: [one([lead])],
    insertMany: [one([[lead, { ...lead, created_at: '2026-01-02T00:00:00.000Z' }]])],
    identifyVisitor: [one([ID, ID, AT])],
    deleteWhere: [one([{ id: ID }], 'one lead (DELETE /leads/{id})'), one([{ visitorIds: [ID], identityIds: [ID] }], "a person's leads (erasure)")],
    linkCompany: [one([ID, ID], 'company only (seed)'), one([ID, ID, { source: 'email', domain: 'acme.com', confidence: 1 }], 'with its company_match')],
    linkVisitorCompany: [one([ID, ID, { source: 'reverse_dns', name: 'mail.acme.com', domain: 'acme.com', confidence: 0.7 }])],
    scoredForVisitor: [one([ID, null], 'an unidentified visitor'), one([ID, ID], 'an identified visitor')],
    writeScore: [one([ID, { score: 10 }, { score: 10 }, AT, AT])],
    update: [
      one([ID, { properties: { mode: 'replace', value: {} } }, AT], 'application/json: properties replaced'),
      one([ID, { properties: { mode: 'merge', patch: {} }, summary: { mode: 'replace', value: null }, company_id: ID }, AT], 'merge patch, summary cleared, company set'),
    ],
  }),
  tenant('lead-notes.repository', LeadNotesRepository, {
    insert: [one([{ id: ID, lead_id: ID, body: 'Called: follow up Friday', author_type: 'user', author_id: ID, author_name: 'Grace', created_at: AT }])],
    list: [one([ID, FIRST_PAGE], 'first page'), one([ID, AFTER_PAGE], 'page after a cursor (keyset)')],
    findById: [one([ID, ID])],
  }),
  tenant('lead-counts.repository', LeadCountsRepository, {
    add: [
      one([new PendingCounts().add([lead])], 'one lead'),
      one([new PendingCounts().add([lead, { source: 'campaign', created_at: '2026-01-03T00:00:00.000Z' }])], 'a batch'),
    ],
    range: [one(['2026-01-01', '2026-01-30'], 'thirty days, every bucket')],
    dayAt: [one(['*', 10_000], 'the day holding a deep offset (first chunk of days)')],
    subtract: [one([new PendingCounts().add([lead])], 'one lead deleted')],
    sum: [one(['*', {}], 'every day'), one(['=website', { after: { day: '2026-01-01', inclusive: true }, before: { day: '2026-02-01', inclusive: false } }], 'a range of days')],
  }),
  tenant('page-counts.repository', PageCountsRepository, {
    add: [
      one([new PendingPageViews().add('2026-01-01', 'shop.example.com', '/pricing')], 'one page view (the usual request)'),
      one([new PendingPageViews().add('2026-01-01', 'shop.example.com', '/').add('2026-01-01', 'shop.example.com', '/pricing')], 'a batch'),
    ],
    top: [one(['2026-01-01', '2026-01-30', 10], 'thirty days'), one(['2026-01-01', '2026-01-30', 10, 'shop.example.com'], 'thirty days of one site')],
  }),
  tenant('traffic-counts.repository', TrafficCountsRepository, {
    markVisitorDays: [
      one(
        [
          [
            { day: '2026-01-01', host: '', visitor_id: ID },
            { day: '2026-01-01', host: 'shop.example.com', visitor_id: ID },
          ],
        ],
        "a visitor's first page view of the day (the usual request)",
      ),
    ],
    add: [
      one(
        [new PendingTraffic().add('', '2026-01-01', 'shop.example.com', '', { page_views: 1, sessions: 1, bounces: 1 }).add('country', '2026-01-01', 'shop.example.com', 'US', { sessions: 1, bounces: 1 })],
        'a new single-page session',
      ),
    ],
    days: [one(['2025-12-02', '2026-01-30', undefined], 'thirty days and the thirty before, every site'), one(['2025-12-02', '2026-01-30', 'shop.example.com'], 'one site')],
    top: [one(['referrer', '2026-01-01', '2026-01-30', undefined, 10], 'a breakdown of thirty days'), one(['campaign', '2026-01-01', '2026-01-30', 'shop.example.com', 10, true], 'campaigns of one site, none left out')],
    sites: [one([100], 'the site filter')],
    pruneVisitorDays: [one(['2026-01-01'], 'the maintenance job')],
  }),
  tenant('identities.repository', IdentitiesRepository, {
    labelsByIds: [one([[ID, ID]], 'the people of a page of leads')],
    newestForSegments: [
      one([undefined, 500, { fields: ['country'], traits: true, company: false }], 'first page of a draft count (a trait and the country asked)'),
      one([{ at: AT, id: ID }, 500, { fields: ['email', 'country'], traits: false, company: true }], 'next page (keyset) of a score rule'),
    ],
    newestDetails: [one([2000], 'suggestions')],
    ...exists,
    findById: [one([ID])],
    list: [
      one([{}, FIRST_PAGE], 'no filter'),
      one([{}, AFTER_PAGE], 'page after a cursor (keyset)'),
      one([{ email: 'Ada@Example.com', visitorId: ID, isFavorite: true, createdAfter: AT, createdBefore: AT }, FIRST_PAGE], 'every filter'),
    ],
    insert: [
      one([
        {
          id: ID,
          visitor_id: ID,
          email: 'ada@example.com',
          name: 'Ada',
          traits: {},
          first_seen: AT,
          last_seen: AT,
          ip: null,
          city: null,
          country: null,
          is_favorite: false,
          created_at: AT,
        },
      ]),
    ],
    insertMany: [
      one([
        [
          {
            id: ID,
            visitor_id: ID,
            email: null,
            name: null,
            traits: {},
            first_seen: AT,
            last_seen: AT,
            ip: null,
            city: null,
            country: null,
            is_favorite: false,
            created_at: AT,
          },
        ],
      ]),
    ],
    findByEmail: [one(['Ada@Example.com'])],
    recordSeen: [one([ID, { first: AT, last: AT, ip: '203.0.113.7', city: 'London', country: 'GB' }])],
    update: [
      one([ID, { name: 'Ada', is_favorite: true, traits: { mode: 'replace', value: {} } }], 'application/json'),
      one([ID, { traits: { mode: 'merge', patch: {} } }], 'merge patch'),
      one([ID, {}], 'empty body (reads the identity)'),
    ],
    countByDay: [one(['2026-01-01'])],
    companyOf: [one([ID])],
    setCompany: [one([ID, ID])],
    listByCompany: [one([ID, FIRST_PAGE])],
    pageAfter: [one([ID, 500])],
    findWithCompany: [one([ID])],
    peopleOfCompany: [one([ID, 1000])],
    firstByVisitor: [one([ID])],
  }),
  tenant('activity.repository', ActivityRepository, {
    ...exists,
    listForIdentity: [one([ID, FIRST_PAGE]), one([ID, AFTER_PAGE], 'page after a cursor (keyset)')],
    record: [one([[{ id: ID, identity_id: ID, type: 'page_view', who: 'Ada', what: 'Viewed Pricing', source: 'web', created_at: AT }]])],
    insertMany: [
      one([[{ id: ID, identity_id: ID, type: 'page_view', who: 'Ada', what: 'Viewed /pricing', source: 'web', created_at: AT }]]),
    ],
  }),
  tenant('personalities.repository', PersonalitiesRepository, {
    ...exists,
    listForVisitor: [one([ID, 1000])],
    insertMany: [
      one([
        [
          {
            id: ID,
            visitor_id: ID,
            score: 0.5,
            personality: { type: 'Analytical', traits: ['analytical'] as string[] },
            features: {},
            learning_percentage: 0.25,
            created_at: AT,
          },
        ],
      ]),
    ],
  }),
  tenant('companies.repository', CompaniesRepository, {
    labelsByIds: [one([[ID, ID]], 'the companies of a page of leads')],
    findByIds: [one([[ID, ID]], 'the companies of a page of identities')],
    newest: [one([2000], 'suggestions')],
    ...exists,
    findById: [one([ID])],
    lastSeen: [one([[ID, ID]])],
    list: [
      one([{}, FIRST_PAGE], 'no filter'),
      one([{ name: 'acme', domain: 'acme.com' }, FIRST_PAGE], 'name and domain'),
      one([{}, AFTER_PAGE], 'page after a cursor (keyset)'),
    ],
    findByDomain: [one(['acme.com'])],
    findByName: [one(['Acme Inc'])],
    insertMany: [
      one([[{ id: ID, name: 'Acme', domain: 'acme.com', description: null, employees: '51-200', main_industry: null, created_at: AT }]], 'written by a person (an import)'),
      one([[{ id: ID, name: 'Acme', domain: 'acme.com', description: '', employees: '', main_industry: '', created_at: AT, auto_fields: { name: 'domain' } }]], 'found by lead intelligence'),
    ],
    findWithSources: [one([ID])],
    writeFound: [
      one([ID, { name: 'Acme Robotics', description: 'Robots' }, { name: 'website', description: 'website' }], 'a name and a description'),
      one([ID, {}, { name: 'website' }], 'the sources only'),
    ],
    recordSeen: [one([new Map([[ID, AT]])])],
    setAccountScore: [one([ID, 42])],
    listAccounts: [
      one([{}, '-created_at', FIRST_PAGE], 'newest first'),
      one([{ name: 'acme', domain: 'acme.com' }, '-last_seen', FIRST_PAGE], 'latest visit first, filtered'),
      one([{}, '-account_score', DEEP_PAGE], 'best score first, deep page'),
    ],
  }),
  tenant('enrichment-queue.repository', EnrichmentQueueRepository, {
    schedule: [one([[ID], AT])],
    scheduleNew: [one([[ID, ID], AT])],
    claim: [one([AT, AT, 'claim-token', 20])],
    finish: [
      one([ID, 'claim-token', { next: AT, at: AT, error: null }], 'every source answered'),
      one([ID, 'claim-token', { next: AT, at: AT, error: 'website: answered 500' }], 'a source failed'),
    ],
    forget: [one([ID, 'claim-token'])],
    find: [one([ID])],
  }),
  tenant('account-activity.repository', AccountActivityRepository, {
    sessionsSince: [one([ID, AT])],
    pageViewsSince: [one([ID, AT, 10])],
    activity: [one([ID, FIRST_PAGE]), one([ID, AFTER_PAGE], 'page after a cursor (keyset)')],
  }),
  tenant('live.repository', LiveRepository, {
    visits: [one([AT, 100])],
    activeVisitors: [one([AT])],
  }),
  tenant('search.repository', SearchRepository, {
    people: [one(['jane', 5], 'three characters or more'), one(['ja', 5], 'two characters')],
    companies: [one(['acme', 5], 'three characters or more'), one(['ac', 5], 'two characters')],
    leads: [one(['LD-1', 5], 'three characters or more'), one(['LD', 5], 'two characters')],
  }),
  tenant('lists.repository', ListsRepository, {
    ...exists,
    list: [one([FIRST_PAGE]), one([AFTER_PAGE], 'page after a cursor (keyset)')],
    insertMany: [one([[{ id: ID, name: 'Hot', description: null, color: '#ff0000', created_at: AT }]])],
    findById: [one([ID])],
    ruleLists: [one([])],
    insert: [one([{ id: ID, name: 'Hot', description: null, color: '#ff0000', created_at: AT }, { any: [] as string[] }])],
    update: [one([ID, { name: 'Warm', rule: null }], 'name and rule'), one([ID, {}], 'nothing (exists)')],
    delete: [one([ID])],
  }),
  tenant('list-members.repository', ListMembersRepository, {
    add: [one([ID, [{ identity_id: ID, identity_created_at: AT }], AT])],
    remove: [one([ID, ID])],
    removeIdentities: [one([[ID, ID]])],
    countByLists: [one([[ID, ID]], 'a page of lists')],
    join: [one([ID, AT, [ID, ID], AT])],
    leave: [one([ID, [ID, ID]])],
    removeAll: [one([ID])],
    listsOf: [one([ID])],
    page: [one([ID, FIRST_PAGE, (row: Record<string, unknown>) => row as never])],
  }),
  tenant('intelligence-due.repository', IntelligenceDueRepository, {
    markDue: [one([[ID], AT])],
    markAllIdentified: [one([AT])],
    forget: [one([[ID, ID]])],
    claim: [one([AT, AT, 'claim-token', 200])],
    finish: [one([ID, 'claim-token', null], 'done: forgotten'), one([ID, 'claim-token', AT], 'due again later')],
    countDue: [one([AT])],
    markCompanyVisitors: [one([ID, AT])],
    markVisitorsDue: [one([[ID], AT], 'the visitors of a batch of imported leads')],
  }),
  tenant('company-rules.repository', CompanyRulesRepository, {
    insert: [one([{ id: ID, match_kind: 'asn', match_value: '64500', company_id: ID, not_a_company: false, created_at: AT }])],
    findById: [one([ID])],
    list: [one([FIRST_PAGE], 'first page'), one([AFTER_PAGE], 'page after a cursor (keyset)')],
    all: [one([])],
    delete: [one([ID])],
    exists: [one([ID])],
    hasAny: [one([])],
    existingIds: [one([[ID]])],
  }),
  tenant('reverse-dns-due.repository', ReverseDnsDueRepository, {
    enqueue: [one([ID, '203.0.113.7', AT])],
    claim: [one([AT, AT, 'claim-token', 100])],
    finish: [one([ID, 'claim-token'])],
    forget: [one([[ID, ID]])],
    count: [one([])],
  }),
  tenant('workspace-settings.repository', WorkspaceSettingsRepository, {
    intelligence: [one([])],
    setIntelligence: [one([{ ideal_customer: { industries: ['Software'] as string[] } }, AT])],
  }),
  tenant('events.repository', EventsRepository, {
    claimIds: [one([[{ id: ID, occurred_at: AT }]])],
    append: [one([[event]])],
    forVisitor: [one([ID, AT, 10_000])],
    deleteBefore: [one([AT, { before: AT }, 5000], 'what arrived before a bound'), one([AT, { from: AT, before: AT }, 5000], 'what arrived in a window')],
    pruneIds: [one([AT, 5000])],
  }),
  tenant('visitors.repository', VisitorsRepository, {
    lock: [one([[ID], ['ada@example.com']], 'a visitor and an email (PostgreSQL only)')],
    find: [one([ID])],
    any: [one([])],
    count: [one([])],
    insert: [one([[visitor]])],
    update: [one([visitor])],
    forIdentity: [one([ID])],
    forIdentities: [one([[ID, ID]], 'a page of identities')],
    idsAfter: [one([ID, 500])],
    identifiedIds: [one([ID, 500])],
    setAggregates: [one([ID, '{}', null])],
    setCompany: [one([ID, ID])],
    setCompanyOfIdentity: [one([ID, ID])],
    companiesOf: [one([[ID, ID]])],
    countForCompany: [one([ID, AT])],
    lastSeenOfCompany: [one([ID])],
    forCompany: [one([ID, AT, 5000])],
    anonymousOfCompany: [one([ID, AT, 10])],
  }),
  tenant('sessions.repository', SessionsRepository, {
    find: [one([ID])],
    latestStartedBy: [one([ID, AT])],
    count: [one([])],
    insert: [one([[session]])],
    update: [one([session])],
  }),
  tenant('members.repository', MembersRepository, {
    findMember: [one([ID])],
    list: [
      one([{}, FIRST_PAGE], 'no filter'),
      one([{ role: 'admin' }, FIRST_PAGE], 'role'),
      one([{}, AFTER_PAGE], 'page after a cursor (keyset)'),
    ],
    upsert: [one([[{ user_id: ID, role: 'admin', joined_at: AT }]])],
    lockAdmins: [one([])],
    setRole: [one([ID, 'member'])],
    remove: [one([ID])],
  }),
  tenant('record-search.repository', RecordSearchRepository, {
    leads: [
      one([{ groups: [], sort: CREATED_DESC, limit: 51 }], 'no filter, newest first'),
      one([{ groups: LEAD_GROUPS, sort: CODE_ASC, limit: 51, after: { at: 'LD-1', id: ID } }], 'column and JSON conditions, sorted by a nullable column, after a cursor'),
    ],
    identities: [one([{ groups: [[{ target: { kind: 'json', column: 'traits', path: ['plan'] }, op: 'eq', value: 'team' }, { target: { kind: 'column', column: 'is_favorite', type: 'bool' }, op: 'eq', value: true }]], sort: CREATED_DESC, limit: 51 }], 'a trait and a boolean')],
    companies: [one([{ groups: [[{ target: { kind: 'column', column: 'name', type: 'text' }, op: 'contains', value: 'acme' }]], sort: { field: 'name', column: 'name', order: 'asc', nullable: false }, limit: 51 }], 'name contains, sorted by name')],
  }),
  tenant('export.repository', ExportRepository, {
    leads: [
      one([{}, undefined, 1000], 'first chunk, no filter'),
      one([{ source: 'ads', code: 'LD-1', createdAfter: AT, createdBefore: AT }, { at: AT, id: ID }, 1000], 'every filter, a chunk after the last'),
    ],
    identities: [
      one([{}, undefined, 1000], 'first chunk, no filter'),
      one([{ email: 'ada@acme.com', isFavorite: true }, { at: AT, id: ID }, 1000], 'filters, a chunk after the last'),
    ],
    companies: [
      one([{}, undefined, 1000], 'first chunk, no filter'),
      one([{ name: 'acme', domain: 'acme.com' }, { at: AT, id: ID }, 1000], 'filters, a chunk after the last'),
    ],
  }),
  operator('workspaces.repository', WorkspacesRepository, {
    insert: [one([{ id: ID, name: 'Acme', created_at: AT }])],
    findById: [one([ID])],
    listAll: [one([])],
    isEmpty: [one([])],
    recordKeyUse: [one([WORKSPACE, 'production', AT], 'production key'), one([WORKSPACE, 'development', AT], 'development key')],
    setTimeZone: [one([WORKSPACE, 'Europe/Berlin'])],
  }),
  operator('api-keys.repository', ApiKeysRepository, {
    insert: [
      one([
        {
          id: ID,
          workspace_id: WORKSPACE,
          type: 'production',
          name: null,
          key_hash: 'hash',
          hint: 'abcd',
          created_at: AT,
          last_used_at: null,
          revoked_at: null,
          replaces: null,
        },
      ]),
    ],
    findActiveByHash: [one(['hash'])],
    findById: [one([ID])],
    listActive: [one([WORKSPACE])],
    revoke: [one([WORKSPACE, ID, AT])],
    recordUse: [one([WORKSPACE, ID, AT])],
  }),
  operator('site-keys.repository', SiteKeysRepository, {
    insert: [
      one([
        {
          id: ID,
          workspace_id: WORKSPACE,
          name: 'shop',
          key: 'll_site_0123456789abcdefghijklmn',
          origins: ['https://shop.example.com'] as string[],
          created_at: AT,
          last_used_at: null,
          revoked_at: null,
        },
      ]),
    ],
    findActiveByKey: [one(['ll_site_0123456789abcdefghijklmn'])],
    findById: [one([ID])],
    listActive: [one([WORKSPACE])],
    listAll: [one([WORKSPACE])],
    revoke: [one([WORKSPACE, ID, AT])],
    recordUse: [one([WORKSPACE, ID, AT])],
  }),
  operator('reverse-dns-cache.repository', ReverseDnsCacheRepository, {
    find: [one(['203.0.113.7'])],
    record: [one(['203.0.113.7', 'mail.acme.com', AT])],
    deleteBefore: [one([AT])],
  }),
  operator('tracking-salts.repository', TrackingSaltsRepository, {
    find: [one(['2026-01-01'])],
    insertIfAbsent: [one(['2026-01-01', 'c2FsdA==', AT])],
    deleteBefore: [one(['2026-01-01'])],
  }),
  operator('event-partitions.repository', EventPartitionsRepository, {
    ensure: [one(['2026-01'], 'PostgreSQL only')],
    list: [one([], 'PostgreSQL only')],
    drop: [one(['2025-01'], 'PostgreSQL only')],
  }),
  operator('people.repository', PeopleRepository, {
    idsByEmail: [one([['ada@example.com']])],
    findByEmail: [one(['ada@example.com'])],
    findById: [one([ID])],
    emailsOfIds: [one([[ID]])],
    insertMany: [
      one([
        [
          {
            id: ID,
            email: 'Ada@Example.com',
            email_normalized: 'ada@example.com',
            name: 'Ada',
            avatar: null,
            username: null,
            language: null,
            created_at: AT,
          },
        ],
      ]),
    ],
  }),
  operator('accounts.repository', AccountsRepository, {
    passwordHash: [one([ID])],
    withPassword: [one([[ID, ID]])],
    setPassword: [one([ID, '$argon2id$v=19$m=19456,t=2,p=1$salt$hash', AT])],
    insertToken: [one([{ token_hash: 'hash', user_id: ID, kind: 'invite', created_at: AT, expires_at: AT, used_at: null }])],
    findUsableToken: [one(['hash', AT])],
    useTokensOf: [one([ID, AT])],
  }),
  operator('user-sessions.repository', UserSessionsRepository, {
    insert: [
      one([{ id: ID, token_hash: 'hash', user_id: ID, workspace_id: WORKSPACE, created_at: AT, last_seen_at: AT, expires_at: AT }]),
    ],
    findByTokenHash: [one(['hash'])],
    touch: [one([ID, AT, AT])],
    switchWorkspace: [one([ID, WORKSPACE])],
    delete: [one([ID])],
    deleteForUser: [one([ID])],
    deleteExpired: [one([AT])],
  }),
  operator('sign-in-failures.repository', SignInFailuresRepository, {
    record: [one([['account:ada@example.com', 'address:127.0.0.1'], AT])],
    since: [one([['account:ada@example.com', 'address:127.0.0.1'], AT])],
    clear: [one(['account:ada@example.com'])],
    prune: [one([AT])],
  }),
  operator('memberships.repository', MembershipsRepository, {
    find: [one([ID, WORKSPACE])],
    forUser: [one([ID])],
  }),
];

/**
 * Operator statements on tables whose rows name a workspace that cannot
 * filter by one, and why. Anything else that reaches such a table without
 * `workspace_id = …` fails the snapshot check.
 */
export const UNSCOPED_ALLOWED: Record<string, string> = {
  'DigestScheduleRepository.subscribers': "the digest worker reads every workspace's members who want a digest (it then claims, reads and records each digest through that workspace's repositories)",
  'AlertQueueRepository.claimDue': "the alert worker drains every workspace's alert outbox (it then reads each claimed row by its workspace and id)",
  'WebhookQueueRepository.claimDue': "the delivery worker drains every workspace's webhook outbox (it then reads each claimed row by its workspace and id)",
  'ApiKeysRepository.findActiveByHash': 'a request learns its workspace from its key',
  'ApiKeysRepository.findById': 'the CLI rotates and revokes a key by its id',
  'UserSessionsRepository.findByTokenHash': 'a dashboard request learns its workspace from its session',
  'UserSessionsRepository.touch': 'a session is kept alive by its id, whichever workspace it looks at',
  'UserSessionsRepository.switchWorkspace': 'the new workspace is written by session id, after its membership was checked',
  'UserSessionsRepository.delete': 'signing out ends a session by its id',
  'UserSessionsRepository.deleteForUser': 'a new password ends every session of the person, in every workspace',
  'UserSessionsRepository.deleteExpired': 'expired sessions are removed in every workspace',
  'MembershipsRepository.forUser': "a person's own workspaces, for the switcher",
  'SiteKeysRepository.findActiveByKey': 'an event request learns its workspace from its site key',
  'SiteKeysRepository.findById': 'the CLI revokes a site key by its id',
  'EventPartitionsRepository.ensure': 'a monthly partition holds every workspace\'s events of that month (DDL)',
  'EventPartitionsRepository.drop': 'retention drops a month of every workspace\'s events at once (DDL)',
};
