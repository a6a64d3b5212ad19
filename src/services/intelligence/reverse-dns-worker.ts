/**
 * The reverse DNS worker (CONTRACT C6.6; docs/intelligence.md, "From
 * reverse DNS"), run by every API process: each round, for each workspace,
 * it claims visitors queued by ingestion (a lease in the database: any
 * process may claim, none claims what another holds, a process killed
 * mid-round leaves leases that expire), looks their addresses up (the
 * shared cache first: an address is asked at most once a day, a failed or
 * unanswered lookup included), and in one transaction per visitor links
 * the company a business's PTR name names (a workspace's domain rule
 * first, C6.8): the visitor's network, its leads without a company and its
 * identity without one. Lookups never hold a transaction open, and never
 * run on a request's path: a 202 has long been sent.
 */
import { randomUUID } from 'node:crypto';
import { RuleSet } from '../../intelligence/company-rules.js';
import type { VisitorNetwork } from '../../intelligence/networks/visitor-network.js';
import { readPtr } from '../../intelligence/reverse-dns-names.js';
import type { Store, TenantRepositories } from '../../repositories/index.js';
import { formatInstant } from '../../schemas/instants.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { companyByDomain, MATCH_CONFIDENCE, ruleLink, setIdentityCompany, type CompanyLink } from './companies.js';
import type { PtrResolver } from './reverse-dns.js';

/** An address's answer is kept (and the address not asked again) this long. */
export const CACHE_MS = 86_400_000;

export interface ReverseDnsWorkerOptions {
  /** visitors claimed at a time, per workspace */
  batch?: number;
  /** how long a claim holds before another process may take the visitor */
  leaseMs?: number;
  /** lookups in flight at once */
  concurrency?: number;
  /** whether answers are read from and written to the shared cache (the demo's simulated answers are not) */
  cache?: boolean;
}

export class ReverseDnsWorker {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  readonly #batch: number;
  readonly #leaseMs: number;
  readonly #concurrency: number;
  readonly #cache: boolean;

  constructor(
    private readonly store: Store,
    private readonly resolver: PtrResolver,
    options: ReverseDnsWorkerOptions = {},
  ) {
    this.#batch = options.batch ?? 100;
    this.#leaseMs = options.leaseMs ?? 60_000;
    this.#concurrency = options.concurrency ?? 8;
    this.#cache = options.cache ?? true;
  }

  /** One round over every workspace; answers how many visitors were looked up. */
  async runOnce(now: number = Date.now()): Promise<number> {
    let done = 0;
    for (const workspace of await this.store.operator.workspaces.listAll()) done += await this.runWorkspace(workspace.id, now);
    await this.store.operator.reverseDnsCache.deleteBefore(formatInstant(now - CACHE_MS));
    return done;
  }

  /** Looks up the workspace's queued visitors (a batch at a time, until none is due). */
  async runWorkspace(workspaceId: WorkspaceId, now: number = Date.now()): Promise<number> {
    const scope = this.store.forWorkspace(workspaceId);
    const token = randomUUID();
    let done = 0;
    for (;;) {
      const at = Math.max(now, Date.now());
      const claimed = await scope.repos.reverseDnsDue.claim(formatInstant(at), formatInstant(at + this.#leaseMs), token, this.#batch);
      if (claimed.length === 0) return done;
      // read each round: a rule made before a lookup is the rule it is judged by (C6.8)
      const rules = new RuleSet(await scope.repos.companyRules.all());
      let next = 0;
      // visitors of one address share its lookup
      const lookups = new Map<string, Promise<string | null>>();
      const work = async () => {
        for (let index = next++; index < claimed.length; index = next++) {
          const { visitor_id: visitorId, address } = claimed[index]!;
          let lookup = lookups.get(address);
          if (lookup === undefined) lookups.set(address, (lookup = this.lookup(address, now)));
          const name = await lookup;
          await scope.transaction(async (repos) => {
            await linkAnswer(repos, visitorId, address, name, rules, formatInstant(now));
            await repos.reverseDnsDue.finish(visitorId, token);
          });
          done += 1;
        }
      };
      await Promise.all(Array.from({ length: Math.min(this.#concurrency, claimed.length) }, work));
    }
  }

  /** The address's first PTR name: the cached answer of the last day, else the resolver's (recorded, a failure as none). */
  private async lookup(address: string, now: number): Promise<string | null> {
    const cache = this.store.operator.reverseDnsCache;
    const cached = this.#cache ? await cache.find(address) : undefined;
    if (cached !== undefined && Date.parse(cached.checked_at) > now - CACHE_MS) return cached.name;
    let name: string | null = null;
    try {
      name = (await this.resolver.reverse(address))[0] ?? null;
    } catch {
      // no name, a refusal or no answer within the timeout: nothing is named, and the address waits a day
    }
    if (this.#cache) await cache.record(address, name, formatInstant(now));
    return name;
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

/**
 * Links what a PTR name names to the visitor, under the visitor's lock (as
 * ingestion takes it): nothing when the visit already names a company.
 */
async function linkAnswer(repos: TenantRepositories, visitorId: string, address: string, name: string | null, rules: RuleSet, at: string): Promise<void> {
  if (name === null) return;
  const reading = readPtr(name, address);
  const rule = rules.forDomain(reading.registrable);
  let link: CompanyLink | undefined;
  if (rule !== undefined) link = ruleLink(rule, { name, domain: reading.registrable });
  else if (reading.company !== null) {
    link = { companyId: await companyByDomain(repos, reading.company, at), match: { source: 'reverse_dns', name, domain: reading.company, confidence: MATCH_CONFIDENCE.reverse_dns } };
  }
  if (link === undefined) return;
  await repos.visitors.lock([visitorId], []);
  const visitor = await repos.visitors.find(visitorId);
  if (visitor === undefined) return;
  const network = visitor.network === null ? null : (JSON.parse(visitor.network) as VisitorNetwork);
  if (network?.company_id !== undefined || network?.rule_id !== undefined) return;
  const next: VisitorNetwork = { ...(network ?? { class: 'isp', asn: 0, organization: '', confidence: 0 }), company_id: link.companyId, match: link.match };
  await repos.visitors.update({ ...visitor, network: JSON.stringify(next) });
  if (visitor.identity_id === null) {
    await repos.leads.linkVisitorCompany(visitorId, link.companyId, link.match);
    // the visit names the company: it counts for it as an account (C6.9)
    await repos.visitors.setCompany(visitorId, link.companyId);
  } else {
    if ((await repos.identities.companyOf(visitor.identity_id)) === null) await setIdentityCompany(repos, visitor.identity_id, link.companyId);
    await repos.leads.linkCompany(visitor.identity_id, link.companyId, link.match);
  }
  await repos.companies.recordSeen(new Map([[(await repos.visitors.find(visitorId))?.company_id ?? link.companyId, visitor.last_seen]]));
  // the company counts in the visitor's fit (C6.2)
  await repos.intelligenceDue.markDue([visitorId], at);
}
