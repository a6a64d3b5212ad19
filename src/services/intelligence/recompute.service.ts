/**
 * `leadlight recompute` (docs/intelligence.md, "Re-computation"): rebuilds
 * a workspace's derived intelligence from the event log after a model or
 * settings change. Companies: every identity's email is looked at again.
 * Scores, personalities, segments: every visitor's running aggregates are
 * rebuilt from its events (as ingestion counts them, hosting addresses
 * left out), then the visitor is refreshed by the same code as the
 * worker's (refresh-visitor.ts), and the account scores of the companies
 * they name (accounts.ts). Idempotent (a personality entry is only
 * written when one is due), and safe while servers run: each visitor is one
 * transaction that holds the lock ingestion takes for that visitor.
 */
import { countEvent, emptyAggregates, trimDays, type VisitorAggregates } from '../../intelligence/aggregates.js';
import { networkOf, type VisitorNetwork } from '../../intelligence/networks/visitor-network.js';
import type { Store, TenantRepositories } from '../../repositories/index.js';
import { formatInstant, now } from '../../schemas/instants.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { RuleSet } from '../../intelligence/company-rules.js';
import { refreshAccount } from './accounts.js';
import { companyOfEmail, setIdentityCompany } from './companies.js';
import { refreshVisitor, ruleSegment, type RefreshContext, type RefreshPart } from './refresh-visitor.js';
import type { ResolvedSettings, SettingsCache } from './settings-cache.js';

export const RECOMPUTE_PARTS = ['companies', 'scores', 'personalities', 'segments'] as const;
export type RecomputePart = (typeof RECOMPUTE_PARTS)[number];

/** Told how far a phase has come: `done` of `total`. */
export type Progress = (phase: string, done: number, total: number) => void;

const PAGE = 500;
/** below every id (keyset pages start after it) */
const FIRST = '00000000-0000-0000-0000-000000000000';
/** the log keeps EVENT_RETENTION_DAYS (395 by default); read all of a visitor's events */
const ALL_EVENTS = 1_000_000;

export interface RecomputeReport {
  identities: number;
  visitors: number;
}

/** A visitor's aggregates, rebuilt from its events in the log. */
export async function rebuildAggregates(repos: TenantRepositories, visitorId: string, previous: string | null, settings: ResolvedSettings, at: string): Promise<VisitorAggregates> {
  const aggregates = emptyAggregates();
  aggregates.hosting = previous !== null && (JSON.parse(previous) as VisitorAggregates).hosting;
  const hosting = new Map<string, boolean>();
  for (const event of await repos.events.forVisitor(visitorId, '1970-01-01T00:00:00.000Z', ALL_EVENTS)) {
    const ip = event.ip ?? '';
    if (!hosting.has(ip)) hosting.set(ip, networkOf(ip)?.class === 'hosting');
    if (hosting.get(ip) === true) {
      aggregates.hosting = true;
      continue;
    }
    countEvent(aggregates, { type: event.type, ts: event.occurred_at, session_id: event.session_id, path: event.path, name: event.name }, settings.classifier, at);
  }
  return trimDays(aggregates, at);
}

export class RecomputeService {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsCache,
  ) {}

  async run(workspaceId: WorkspaceId, parts: readonly RecomputePart[], progress: Progress = () => {}): Promise<RecomputeReport> {
    const scope = this.store.forWorkspace(workspaceId);
    this.settings.forget(workspaceId);
    const settings = await this.settings.get(workspaceId);
    const report: RecomputeReport = { identities: 0, visitors: 0 };
    const identityTotal = (await scope.repos.identities.list({}, { limit: 1, offset: 0 })).total;

    if (parts.includes('companies')) {
      // the workspace's domain rules decide emails' companies here too (C6.8)
      const rules = new RuleSet(await scope.repos.companyRules.all());
      let after = FIRST;
      for (;;) {
        const identities = await scope.repos.identities.pageAfter(after, PAGE);
        if (identities.length === 0) break;
        for (const identity of identities) {
          if (identity.email !== null) {
            await scope.transaction(async (repos) => {
              const link = await companyOfEmail(repos, identity.email as string, now(), rules);
              if (link === undefined) return;
              if (identity.company_id !== link.companyId) await setIdentityCompany(repos, identity.id, link.companyId);
              await repos.leads.linkCompany(identity.id, link.companyId, link.match);
            });
          }
          report.identities += 1;
          progress('companies', report.identities, identityTotal);
        }
        after = identities[identities.length - 1]!.id;
      }
    }

    const refreshParts = new Set(parts.filter((part): part is RefreshPart => part !== 'companies'));
    if (refreshParts.size === 0) return report;
    const context: RefreshContext = {
      settings,
      segments: (await scope.repos.lists.ruleLists()).map((list) => ruleSegment(list.id, list.rule)),
      now: now(),
      parts: refreshParts,
    };
    const visitorTotal = await scope.repos.visitors.count();
    const companies = new Set<string>();
    let after = FIRST;
    for (;;) {
      const ids = await scope.repos.visitors.idsAfter(after, PAGE);
      if (ids.length === 0) break;
      for (const id of ids) {
        const at = formatInstant(Date.now());
        await scope.transaction(async (repos) => {
          await repos.visitors.lock([id], []);
          const visitor = await repos.visitors.find(id);
          if (visitor === undefined) return;
          const aggregates = await rebuildAggregates(repos, id, visitor.aggregates, settings, at);
          await repos.visitors.setAggregates(id, JSON.stringify(aggregates), visitor.network);
          await refreshVisitor(repos, id, { ...context, now: at });
          // the company its visits name (C6.9): its identity's, else its network's
          const identityCompany = visitor.identity_id === null ? null : await repos.identities.companyOf(visitor.identity_id);
          const company = identityCompany ?? (visitor.network === null ? null : ((JSON.parse(visitor.network) as VisitorNetwork).company_id ?? null));
          if (company !== visitor.company_id) await repos.visitors.setCompany(id, company);
          if (company !== null) companies.add(company);
        });
        report.visitors += 1;
        progress('visitors', report.visitors, visitorTotal);
      }
      after = ids[ids.length - 1]!;
    }

    if (refreshParts.has('scores')) {
      for (const companyId of companies) await scope.transaction((repos) => refreshAccount(repos, companyId, settings.ideal, now()));
    }

    if (refreshParts.has('segments') && context.segments.length > 0) {
      // identities made by the API or the import, with no tracked visitor: their segments
      let afterIdentity = FIRST;
      for (;;) {
        const identities = await scope.repos.identities.pageAfter(afterIdentity, PAGE);
        if (identities.length === 0) break;
        for (const identity of identities) {
          if ((await scope.repos.visitors.find(identity.visitor_id)) === undefined) {
            await scope.transaction((repos) => refreshVisitor(repos, identity.visitor_id, { ...context, now: now() }));
          }
        }
        afterIdentity = identities[identities.length - 1]!.id;
      }
    }
    return report;
  }
}
