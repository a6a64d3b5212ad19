/**
 * A workspace's company rules as ingestion applies them (CONTRACT C6.8: a
 * rule applies to events received after it within 60 seconds), read from
 * the store at most every TTL_MS per workspace and process; the process
 * that changes a rule forgets its entry at once.
 */
import { NO_RULES, RuleSet } from '../../intelligence/company-rules.js';
import type { Store } from '../../repositories/index.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';

export const RULES_TTL_MS = 10_000;

export class CompanyRulesCache {
  readonly #entries = new Map<WorkspaceId, { at: number; rules: Promise<RuleSet> }>();

  constructor(private readonly store: Store) {}

  get(workspaceId: WorkspaceId, now = Date.now()): Promise<RuleSet> {
    const entry = this.#entries.get(workspaceId);
    if (entry !== undefined && now - entry.at < RULES_TTL_MS) return entry.rules;
    const rules = this.store
      .forWorkspace(workspaceId)
      .repos.companyRules.all()
      .then((rows) => (rows.length === 0 ? NO_RULES : new RuleSet(rows)));
    rules.catch(() => this.#entries.delete(workspaceId));
    this.#entries.set(workspaceId, { at: now, rules });
    return rules;
  }

  /** Forgets a workspace's rules (this process changed them). */
  forget(workspaceId: WorkspaceId): void {
    this.#entries.delete(workspaceId);
  }
}
