/**
 * The repositories of one workspace, over one scope (the database, an open
 * transaction, or a bulk transaction). Each is built when first used: a
 * request usually needs one or two of them.
 */
import type { TenantScope } from '../scope/tenant-scope.js';
import { RecordSearchRepository } from './record-search.repository.js';
import { ExportRepository } from './export.repository.js';
import { AccountActivityRepository } from './account-activity.repository.js';
import { ActivityRepository } from './activity.repository.js';
import { ChangesRepository } from './changes.repository.js';
import { AlertsRepository } from './alerts.repository.js';
import { CompaniesRepository } from './companies.repository.js';
import { DigestContentRepository } from './digest-content.repository.js';
import { DigestsRepository } from './digests.repository.js';
import { CompanyRulesRepository } from './company-rules.repository.js';
import { EnrichmentQueueRepository } from './enrichment-queue.repository.js';
import { ErasureRepository } from './erasure.repository.js';
import { EventsRepository } from './events.repository.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdentitiesRepository } from './identities.repository.js';
import { IntelligenceDueRepository } from './intelligence-due.repository.js';
import { LeadCountsRepository } from './lead-counts.repository.js';
import { LeadNotesRepository } from './lead-notes.repository.js';
import { LeadsRepository } from './leads.repository.js';
import { LiveRepository } from './live.repository.js';
import { ListMembersRepository } from './list-members.repository.js';
import { ListsRepository } from './lists.repository.js';
import { MembersRepository } from './members.repository.js';
import { PageCountsRepository } from './page-counts.repository.js';
import { PersonalitiesRepository } from './personalities.repository.js';
import { ReverseDnsDueRepository } from './reverse-dns-due.repository.js';
import { SearchRepository } from './search.repository.js';
import { SessionsRepository } from './sessions.repository.js';
import { TrafficCountsRepository } from './traffic-counts.repository.js';
import { VisitorsRepository } from './visitors.repository.js';
import { WorkspaceSettingsRepository } from './workspace-settings.repository.js';
import { WebhooksRepository } from './webhooks.repository.js';

export interface TenantRepositories {
  leads: LeadsRepository;
  leadCounts: LeadCountsRepository;
  pageCounts: PageCountsRepository;
  trafficCounts: TrafficCountsRepository;
  identities: IdentitiesRepository;
  activity: ActivityRepository;
  personalities: PersonalitiesRepository;
  companies: CompaniesRepository;
  lists: ListsRepository;
  members: MembersRepository;
  events: EventsRepository;
  visitors: VisitorsRepository;
  sessions: SessionsRepository;
  idempotency: IdempotencyRepository;
  erasure: ErasureRepository;
  listMembers: ListMembersRepository;
  intelligenceDue: IntelligenceDueRepository;
  settings: WorkspaceSettingsRepository;
  webhooks: WebhooksRepository;
  companyRules: CompanyRulesRepository;
  reverseDnsDue: ReverseDnsDueRepository;
  enrichmentQueue: EnrichmentQueueRepository;
  accountActivity: AccountActivityRepository;
  search: SearchRepository;
  changes: ChangesRepository;
  alerts: AlertsRepository;
  digests: DigestsRepository;
  digestContent: DigestContentRepository;
  leadNotes: LeadNotesRepository;
  live: LiveRepository;
  recordSearch: RecordSearchRepository;
  exports: ExportRepository;
}

const MAKERS: { [K in keyof TenantRepositories]: new (scope: TenantScope) => TenantRepositories[K] } = {
  leads: LeadsRepository,
  leadCounts: LeadCountsRepository,
  pageCounts: PageCountsRepository,
  trafficCounts: TrafficCountsRepository,
  identities: IdentitiesRepository,
  activity: ActivityRepository,
  personalities: PersonalitiesRepository,
  companies: CompaniesRepository,
  lists: ListsRepository,
  members: MembersRepository,
  events: EventsRepository,
  visitors: VisitorsRepository,
  sessions: SessionsRepository,
  idempotency: IdempotencyRepository,
  erasure: ErasureRepository,
  listMembers: ListMembersRepository,
  intelligenceDue: IntelligenceDueRepository,
  settings: WorkspaceSettingsRepository,
  webhooks: WebhooksRepository,
  companyRules: CompanyRulesRepository,
  reverseDnsDue: ReverseDnsDueRepository,
  enrichmentQueue: EnrichmentQueueRepository,
  accountActivity: AccountActivityRepository,
  search: SearchRepository,
  changes: ChangesRepository,
  alerts: AlertsRepository,
  digests: DigestsRepository,
  digestContent: DigestContentRepository,
  leadNotes: LeadNotesRepository,
  live: LiveRepository,
  recordSearch: RecordSearchRepository,
  exports: ExportRepository,
};

/** Repositories built on first use; the getters live on the prototype, defined once (a request pays for one object). */
class LazyRepositories {
  readonly made: Partial<Record<keyof TenantRepositories, unknown>> = {};

  constructor(readonly scope: TenantScope) {}
}

for (const [name, Make] of Object.entries(MAKERS) as [keyof TenantRepositories, new (scope: TenantScope) => unknown][]) {
  Object.defineProperty(LazyRepositories.prototype, name, {
    get(this: LazyRepositories) {
      return (this.made[name] ??= new Make(this.scope));
    },
  });
}

export function tenantRepositories(scope: TenantScope): TenantRepositories {
  return new LazyRepositories(scope) as unknown as TenantRepositories;
}
