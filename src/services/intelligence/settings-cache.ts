/**
 * A workspace's intelligence settings as ingestion and the worker use them
 * (the ideal customer, the page classifier), read from the store at most
 * every few seconds per workspace and process: a change reaches every
 * process within TTL_MS (and `leadlight recompute` applies it to the past).
 */
import { PageClassifier } from '../../intelligence/page-kinds.js';
import { resolveSettings, type IntelligenceSettings, type IntelligenceSettingsInput } from '../../intelligence/settings.js';
import type { Store } from '../../repositories/index.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';

const TTL_MS = 10_000;

export interface ResolvedSettings extends IntelligenceSettings {
  classifier: PageClassifier;
}

export class SettingsCache {
  readonly #entries = new Map<WorkspaceId, { at: number; settings: Promise<ResolvedSettings> }>();

  constructor(private readonly store: Store) {}

  get(workspaceId: WorkspaceId, now = Date.now()): Promise<ResolvedSettings> {
    const entry = this.#entries.get(workspaceId);
    if (entry !== undefined && now - entry.at < TTL_MS) return entry.settings;
    const settings = this.store
      .forWorkspace(workspaceId)
      .repos.settings.intelligence()
      .then((stored) => {
        const resolved = resolveSettings(stored as IntelligenceSettingsInput | null);
        return { ...resolved, classifier: new PageClassifier(resolved.pages) };
      });
    settings.catch(() => this.#entries.delete(workspaceId));
    this.#entries.set(workspaceId, { at: now, settings });
    return settings;
  }

  /** Forgets a workspace's settings (this process changed them). */
  forget(workspaceId: WorkspaceId): void {
    this.#entries.delete(workspaceId);
  }
}
