/**
 * The services of one workspace: every rule about a workspace's data, bound
 * to it. The API gate makes one per request (request.workspace), the CLI one
 * per command; each service is built when first used.
 */
import { DEFAULT_WEBHOOKS, type WebhookConfig } from '../../config.js';
import type { WorkspaceStore } from '../../repositories/index.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import type { CompanyRulesCache } from '../intelligence/company-rules-cache.js';
import { ChangesService } from './changes.service.js';
import { AlertsService } from './alerts.service.js';
import { DigestsService } from './digests.service.js';
import { CompaniesService } from './companies.service.js';
import { CompanyRulesService } from './company-rules.service.js';
import { ErasureService } from './erasure.service.js';
import { IdempotencyService } from './idempotency.service.js';
import { IdentitiesService } from './identities.service.js';
import { ImportService } from './import/import.service.js';
import { IntelligenceSettingsService } from './intelligence-settings.service.js';
import { LeadNotesService } from './lead-notes.service.js';
import { LeadsService } from './leads.service.js';
import { ListsService } from './lists.service.js';
import { LiveService } from './live.service.js';
import { OverviewService } from './overview.service.js';
import { TrafficOverviewService } from './traffic-overview.service.js';
import { SearchService } from './search.service.js';
import { SegmentDraftService } from './segment-draft.service.js';
import { ExportService } from './export/export.service.js';
import { RecordSearchService } from './record-search/record-search.service.js';
import { UsersService } from './users.service.js';
import { WebhooksService } from './webhooks.service.js';

export class WorkspaceServices {
  #leads?: LeadsService;
  #identities?: IdentitiesService;
  #companies?: CompaniesService;
  #lists?: ListsService;
  #segmentDrafts?: SegmentDraftService;
  #users?: UsersService;
  #imports?: ImportService;
  #overview?: OverviewService;
  #traffic?: TrafficOverviewService;
  #idempotency?: IdempotencyService;
  #erasure?: ErasureService;
  #intelligenceSettings?: IntelligenceSettingsService;
  #webhooks?: WebhooksService;
  #changes?: ChangesService;
  #companyRules?: CompanyRulesService;
  #search?: SearchService;
  #alerts?: AlertsService;
  #digests?: DigestsService;
  #leadNotes?: LeadNotesService;
  #live?: LiveService;
  #recordSearch?: RecordSearchService;
  #exports?: ExportService;

  constructor(
    private readonly store: WorkspaceStore,
    private readonly webhookConfig: WebhookConfig = DEFAULT_WEBHOOKS,
    /** ingestion's cache of company rules, forgotten when a rule changes here */
    private readonly rulesCache?: CompanyRulesCache,
    /** the clock of digest choices (tests move it) */
    private readonly clock: () => number = Date.now,
  ) {}

  get id(): WorkspaceId {
    return this.store.workspaceId;
  }

  get leads(): LeadsService {
    return (this.#leads ??= new LeadsService(this.store));
  }

  get leadNotes(): LeadNotesService {
    return (this.#leadNotes ??= new LeadNotesService(this.store));
  }

  get identities(): IdentitiesService {
    return (this.#identities ??= new IdentitiesService(this.store));
  }

  get live(): LiveService {
    return (this.#live ??= new LiveService(this.store));
  }

  get search(): SearchService {
    return (this.#search ??= new SearchService(this.store));
  }

  get companies(): CompaniesService {
    return (this.#companies ??= new CompaniesService(this.store));
  }

  get lists(): ListsService {
    return (this.#lists ??= new ListsService(this.store));
  }

  get segmentDrafts(): SegmentDraftService {
    return (this.#segmentDrafts ??= new SegmentDraftService(this.store));
  }

  get users(): UsersService {
    return (this.#users ??= new UsersService(this.store));
  }

  get imports(): ImportService {
    return (this.#imports ??= new ImportService(this.store));
  }

  get idempotency(): IdempotencyService {
    return (this.#idempotency ??= new IdempotencyService(this.store));
  }

  get changes(): ChangesService {
    return (this.#changes ??= new ChangesService(this.store));
  }

  get webhooks(): WebhooksService {
    return (this.#webhooks ??= new WebhooksService(this.store, this.webhookConfig));
  }

  get erasure(): ErasureService {
    return (this.#erasure ??= new ErasureService(this.store));
  }

  get overview(): OverviewService {
    return (this.#overview ??= new OverviewService(this.store));
  }

  /** the overview's traffic figures and breakdowns (C9.5) */
  get traffic(): TrafficOverviewService {
    return (this.#traffic ??= new TrafficOverviewService(this.store));
  }

  /** company rules (C6.8) */
  get companyRules(): CompanyRulesService {
    return (this.#companyRules ??= new CompanyRulesService(this.store, () => this.rulesCache?.forget(this.store.workspaceId)));
  }

  /** alerts (C10) */
  get alerts(): AlertsService {
    return (this.#alerts ??= new AlertsService(this.store, this.webhookConfig));
  }

  /** each member's email digest (C10.4) */
  get digests(): DigestsService {
    return (this.#digests ??= new DigestsService(this.store, this.clock));
  }

  /** lead intelligence: the ideal customer and page kinds */
  get intelligenceSettings(): IntelligenceSettingsService {
    return (this.#intelligenceSettings ??= new IntelligenceSettingsService(this.store));
  }

  /** search of leads, identities and companies (C11.3) */
  get recordSearch(): RecordSearchService {
    return (this.#recordSearch ??= new RecordSearchService(this.store));
  }

  /** exports of leads, identities and companies (C11.5) */
  get exports(): ExportService {
    return (this.#exports ??= new ExportService(this.store));
  }
}
