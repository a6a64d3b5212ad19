/**
 * The enrichment worker (CONTRACT C6.7; docs/intelligence.md, "Enrichment"),
 * run by every `serve` process unless ENRICHMENT=off. Each round, for each
 * workspace, it claims companies due in the queue (a lease in the database:
 * any process may claim, none claims what another holds, a process killed
 * mid-round leaves leases that expire), reads each company's website and
 * the provider outside any transaction (ingestion never waits for them),
 * then in one transaction: marks the company due again (in 30 days when
 * every source answered, in a day when one failed), writes what the
 * sources found under the rules of merge.ts (a failed source changes
 * nothing; what a person or a client wrote is never overwritten) and
 * announces the change (`company.updated`). The company's visitors are
 * then marked due, so their scores see its new size and industry.
 */
import { randomUUID } from 'node:crypto';
import type { Store, WorkspaceStore } from '../../repositories/index.js';
import { ENRICHED_FIELDS, type AutoFields } from '../../intelligence/enrichment/fields.js';
import { planEnrichment } from '../../intelligence/enrichment/merge.js';
import { formatInstant } from '../../schemas/instants.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { emitEvent } from '../webhooks/events.js';
import { networkGet, type HttpGet } from './http-get.js';
import { enrichableDomain, readProvider, readWebsite, type SourceOutcome, type SourceSettings } from './sources.js';

const DAY_MS = 86_400_000;
/** an enriched company is read again this long after */
export const REFRESH_MS = 30 * DAY_MS;
/** a company whose source failed is tried again this long after, never sooner */
export const RETRY_MS = DAY_MS;

export interface EnrichmentWorkerOptions {
  /** how the sources are read (the network's, unless the demo's simulated web) */
  get?: HttpGet;
  /** the worker's clock (tests move it) */
  clock?: () => number;
  /** companies claimed at a time, per workspace */
  batch?: number;
  /** companies read at once */
  parallel?: number;
  /** how long a claim holds before another process may take the company (default: both sources' timeouts and 10 s more) */
  leaseMs?: number;
}

const DEFAULT_BATCH = 20;
const DEFAULT_PARALLEL = 4;
/** a claim outlasts the reading of both sources (each within its timeout) by this much */
const LEASE_MARGIN_MS = 10_000;

const sameSources = (a: AutoFields, b: AutoFields) => ENRICHED_FIELDS.every((field) => a[field] === b[field]);

export class EnrichmentWorker {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  readonly #get: HttpGet;
  readonly #clock: () => number;
  readonly #batch: number;
  readonly #parallel: number;
  readonly #leaseMs: number;

  constructor(
    private readonly store: Store,
    private readonly settings: SourceSettings,
    options: EnrichmentWorkerOptions = {},
  ) {
    this.#get = options.get ?? networkGet();
    this.#clock = options.clock ?? Date.now;
    this.#batch = options.batch ?? DEFAULT_BATCH;
    this.#parallel = options.parallel ?? DEFAULT_PARALLEL;
    this.#leaseMs = options.leaseMs ?? settings.timeoutMs * 2 + LEASE_MARGIN_MS;
  }

  /** One round over every workspace; answers how many companies were tried. */
  async runOnce(): Promise<number> {
    let tried = 0;
    for (const workspace of await this.store.operator.workspaces.listAll()) tried += await this.runWorkspace(workspace.id);
    return tried;
  }

  /** Enriches the workspace's due companies (a batch at a time, until none is due). */
  async runWorkspace(workspaceId: WorkspaceId): Promise<number> {
    const scope = this.store.forWorkspace(workspaceId);
    const token = randomUUID();
    let tried = 0;
    for (;;) {
      const now = this.#clock();
      const claimed = await scope.repos.enrichmentQueue.claim(formatInstant(now), formatInstant(now + this.#leaseMs), token, this.#batch);
      if (claimed.length === 0) return tried;
      let next = 0;
      let failure: unknown;
      const worker = async () => {
        for (let index = next++; index < claimed.length; index = next++) {
          // one company's failure holds back no other; its claim stays until the lease ends, then any process tries it again
          await this.enrich(scope, claimed[index] as string, token).catch((error: unknown) => (failure ??= error));
        }
      };
      await Promise.all(Array.from({ length: Math.min(this.#parallel, claimed.length) }, worker));
      if (failure !== undefined) throw failure;
      tried += claimed.length;
      if (claimed.length < this.#batch) return tried;
    }
  }

  private async enrich(scope: WorkspaceStore, companyId: string, token: string): Promise<void> {
    const found = await scope.repos.companies.findWithSources(companyId);
    const domain = enrichableDomain(found?.company.domain ?? null);
    if (domain === undefined) {
      await scope.repos.enrichmentQueue.forget(companyId, token);
      return;
    }
    const [website, provider] = await Promise.all([readWebsite(domain, this.settings, this.#get), readProvider(domain, this.settings, this.#get)]);
    const at = this.#clock();
    const stamp = formatInstant(at);
    const errors = [failureOf('website', website), failureOf('provider', provider)].filter((error): error is string => error !== undefined);
    const changed = await scope.transaction(async (repos) => {
      const outcome = { at: stamp, next: formatInstant(at + (errors.length > 0 ? RETRY_MS : REFRESH_MS)), error: errors.length > 0 ? errors.join('; ') : null };
      // the claim first: a company whose lease ran out belongs to the process that took it
      if (!(await repos.enrichmentQueue.finish(companyId, token, outcome))) return false;
      const current = await repos.companies.findWithSources(companyId);
      if (current === undefined) return false;
      const plan = planEnrichment(current.company, current.auto, {
        website: website.ok ? website.facts : undefined,
        provider: provider?.ok === true ? provider.facts : undefined,
      });
      const fields = Object.keys(plan.changes).length;
      if (fields === 0 && sameSources(plan.auto, current.auto)) return false;
      const updated = await repos.companies.writeFound(companyId, plan.changes, plan.auto);
      if (fields === 0 || updated === undefined) return false;
      await emitEvent(repos, 'company.updated', updated, stamp);
      return true;
    });
    // its people's fit may have changed (size, industry): their scores are due
    if (changed) await scope.transaction((repos) => repos.intelligenceDue.markCompanyVisitors(companyId, stamp));
  }

  /** Runs every `intervalMs` until stop(); failures go to `onError` and the next round tries again. */
  start(intervalMs: number, onError: (error: unknown) => void): void {
    const tick = () => {
      this.#timer = setTimeout(() => {
        this.#running = this.runOnce()
          .catch(onError)
          .finally(() => {
            this.#running = undefined;
            if (this.#timer !== undefined) tick();
          });
      }, intervalMs);
      this.#timer.unref();
    };
    tick();
  }

  /** Stops the schedule and waits for a round in progress. */
  async stop(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }
}

function failureOf(source: string, outcome: SourceOutcome | undefined): string | undefined {
  return outcome === undefined || outcome.ok ? undefined : `${source}: ${outcome.error}`;
}
