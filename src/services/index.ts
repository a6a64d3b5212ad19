/**
 * Every service of one store, built once and shared by the HTTP routes and
 * the CLI, which call the same code. Operator services (workspaces, keys,
 * site keys, demo data, event ingestion and its upkeep, dashboard accounts
 * and sessions) are reached directly; a workspace's services only through
 * `forWorkspace`, with a WorkspaceId that a key, a session or the CLI's
 * workspace lookup produced.
 */
import { DEFAULT_ALERTS, DEFAULT_ENRICHMENT, DEFAULT_INTELLIGENCE, DEFAULT_TRACKING, DEFAULT_WEBHOOKS, type AlertConfig, type EnrichmentConfig, type IntelligenceConfig, type TrackingConfig, type WebhookConfig } from '../config.js';
import type { Store } from '../repositories/index.js';
import type { WorkspaceId } from '../tenancy/workspace-id.js';
import { AccountsService } from './operator/accounts.service.js';
import type { ApiKeysService } from './operator/api-keys.service.js';
import { CursorsService } from './operator/cursors.service.js';
import { SeedService } from './operator/seed.service.js';
import { SessionsService } from './operator/sessions.service.js';
import { createOperatorServices } from './operator/index.js';
import type { SiteKeysService } from './operator/site-keys.service.js';
import type { WorkspacesService } from './operator/workspaces.service.js';
import { CompanyRulesCache } from './intelligence/company-rules-cache.js';
import { SystemPtrResolver, type PtrResolver } from './intelligence/reverse-dns.js';
import { ReverseDnsWorker } from './intelligence/reverse-dns-worker.js';
import { EnrichmentWorker } from './enrichment/worker.js';
import { SettingsCache } from './intelligence/settings-cache.js';
import { RecomputeService } from './intelligence/recompute.service.js';
import { IntelligenceWorker } from './intelligence/worker.js';
import { WorkspaceServices } from './tenant/index.js';
import { DailySalts } from './tracking/cookieless.js';
import { MmdbGeolocator, type Geolocator } from './tracking/geolocation.js';
import { IngestService } from './tracking/ingest.service.js';
import { TrackingMaintenance } from './tracking/maintenance.service.js';
import { WebhookDeliveryWorker } from './webhooks/delivery-worker.js';
import { AlertDeliveryWorker } from './alerts/delivery-worker.js';
import { DigestWorker } from './digests/worker.js';

export type { WorkspaceServices };

export interface Services {
  workspaces: WorkspacesService;
  apiKeys: ApiKeysService;
  siteKeys: SiteKeysService;
  /** tracked events, from the events endpoint and the demo seed (CONTRACT C5.3) */
  ingest: IngestService;
  /** partitions, retention and salts of tracking (C5.8) */
  trackingMaintenance: TrackingMaintenance;
  seed: SeedService;
  /** lead intelligence: scores, personalities and segments of visitors marked due (C6) */
  intelligence: IntelligenceWorker;
  /** reverse DNS lookups of the addresses ingestion queued (C6.6) */
  reverseDns: ReverseDnsWorker;
  /** `leadlight recompute`: derived intelligence rebuilt from the event log */
  recompute: RecomputeService;
  /** the workspaces' intelligence settings, cached briefly */
  intelligenceSettings: SettingsCache;
  /** dashboard accounts: invitations, password links, passwords */
  accounts: AccountsService;
  /** dashboard sessions: sign-in and its throttle, the session of a request */
  sessions: SessionsService;
  /** delivers the webhook outbox (C8.5); every API process starts one */
  webhookWorker: WebhookDeliveryWorker;
  /** delivers the alert outbox (C10.3); every API process starts one */
  alertWorker: AlertDeliveryWorker;
  /** sends the members' email digests (C10.4); every API process starts one */
  digestWorker: DigestWorker;
  /** enriches companies from their websites and the provider (C6.7); every API process starts one unless ENRICHMENT=off */
  enrichment: EnrichmentWorker;
  /** signs and checks list cursors (C8.3) */
  cursors: CursorsService;
  /** the services of one workspace */
  forWorkspace(workspaceId: WorkspaceId): WorkspaceServices;
}

export interface ServiceOptions {
  /** the clock of key use records (tests move it) */
  clock?: () => number;
  tracking?: Partial<Pick<TrackingConfig, 'ipStorage' | 'geoipDatabase' | 'eventRetentionDays'>>;
  /** where addresses are located (defaults to the MMDB database the tracking configuration names) */
  geolocator?: Geolocator;
  /** webhook delivery settings (C8.5) */
  webhooks?: Partial<WebhookConfig>;
  /** alert delivery settings (C10.2): SMTP, the dashboard's address */
  alerts?: Partial<AlertConfig>;
  /** company enrichment settings (C6.7) */
  enrichment?: Partial<EnrichmentConfig>;
  /** told when the geolocation database cannot be read */
  onGeolocationError?: (error: unknown, file: string) => void;
  /** reverse DNS (C6.6): on or off, and the resolvers asked */
  intelligence?: Partial<Pick<IntelligenceConfig, 'reverseDns' | 'dnsServers'>>;
  /** who answers PTR lookups (default: node:dns over the configured resolvers; the demo supplies its own) */
  ptrResolver?: PtrResolver;
  /** told after ingestion committed events of a workspace (the Live page's notices, C9.2) */
  onIngested?: (workspaceId: WorkspaceId) => void;
}

export function createServices(store: Store, options: ServiceOptions = {}): Services {
  const tracking = { ...DEFAULT_TRACKING, ...options.tracking };
  const webhooks = { ...DEFAULT_WEBHOOKS, ...options.webhooks };
  const operator = createOperatorServices(store, options.clock);
  const { workspaces } = operator;
  const geolocator = options.geolocator ?? new MmdbGeolocator(tracking.geoipDatabase, options.onGeolocationError);
  const intelligenceConfig = { ...DEFAULT_INTELLIGENCE, ...options.intelligence };
  const settings = new SettingsCache(store);
  const rules = new CompanyRulesCache(store);
  const ingest = new IngestService(store, new DailySalts(store), geolocator, { ipStorage: tracking.ipStorage, reverseDns: intelligenceConfig.reverseDns, onIngested: options.onIngested }, settings, rules);
  const intelligence = new IntelligenceWorker(store, settings);
  const reverseDns = new ReverseDnsWorker(store, options.ptrResolver ?? new SystemPtrResolver(intelligenceConfig.dnsServers));
  return {
    ...operator,
    accounts: new AccountsService(store, options.clock),
    sessions: new SessionsService(store, options.clock),
    ingest,
    trackingMaintenance: new TrackingMaintenance(store, ingest, { eventRetentionDays: tracking.eventRetentionDays }),
    seed: new SeedService(store, workspaces, ingest, intelligence),
    intelligence,
    reverseDns,
    intelligenceSettings: settings,
    recompute: new RecomputeService(store, settings),
    cursors: new CursorsService(store),
    webhookWorker: new WebhookDeliveryWorker(store, webhooks),
    alertWorker: new AlertDeliveryWorker(store, webhooks, { ...DEFAULT_ALERTS, ...options.alerts }, options.clock),
    digestWorker: new DigestWorker(store, { ...DEFAULT_ALERTS, ...options.alerts }, options.clock),
    enrichment: new EnrichmentWorker(store, { ...DEFAULT_ENRICHMENT, ...options.enrichment }),
    forWorkspace: (workspaceId) => new WorkspaceServices(store.forWorkspace(workspaceId), webhooks, rules, options.clock),
  };
}
