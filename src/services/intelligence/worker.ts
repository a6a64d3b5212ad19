/**
 * The intelligence worker (CONTRACT C6.2 to C6.4: derived data current
 * within 60 seconds, also after a crash), run by every API process. Each
 * round, for each workspace, it claims visitors marked due (a lease in the
 * database: any process may claim, none claims what another holds, a
 * process killed mid-round leaves leases that expire) and refreshes each in
 * its own transaction (refresh-visitor.ts), which also records when the
 * visitor is due again; then the account score of each company those
 * visitors name (C6.9). Nothing is held in memory between rounds but the
 * settings cache.
 */
import { randomUUID } from 'node:crypto';
import type { Store } from '../../repositories/index.js';
import { formatInstant } from '../../schemas/instants.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { refreshAccount } from './accounts.js';
import { ALL_PARTS, refreshVisitor, ruleSegment, type RefreshContext } from './refresh-visitor.js';
import type { SettingsCache } from './settings-cache.js';

export interface WorkerOptions {
  /** visitors claimed at a time, per workspace */
  batch?: number;
  /** how long a claim holds before another process may take the visitor */
  leaseMs?: number;
}

const DEFAULT_BATCH = 200;
const DEFAULT_LEASE_MS = 30_000;
/** visitors refreshed in one transaction (one commit, one fsync on SQLite) */
const PER_TRANSACTION = 25;

export class IntelligenceWorker {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  readonly #batch: number;
  readonly #leaseMs: number;

  constructor(
    private readonly store: Store,
    private readonly settings: SettingsCache,
    options: WorkerOptions = {},
  ) {
    this.#batch = options.batch ?? DEFAULT_BATCH;
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /** One round over every workspace; answers how many visitors were refreshed. */
  async runOnce(now: number = Date.now()): Promise<number> {
    let refreshed = 0;
    for (const workspace of await this.store.operator.workspaces.listAll()) refreshed += await this.runWorkspace(workspace.id, now);
    return refreshed;
  }

  /** Refreshes the workspace's due visitors (a batch at a time, until none is due). */
  async runWorkspace(workspaceId: WorkspaceId, now: number = Date.now()): Promise<number> {
    const scope = this.store.forWorkspace(workspaceId);
    const token = randomUUID();
    let refreshed = 0;
    for (;;) {
      const at = Math.max(now, Date.now());
      const claimed = await scope.repos.intelligenceDue.claim(formatInstant(at), formatInstant(at + this.#leaseMs), token, this.#batch);
      if (claimed.length === 0) return refreshed;
      // read after the claim: a rule changed before a visitor was marked due
      // again is the rule that visitor is judged by
      const round: RefreshContext = {
        settings: await this.settings.get(workspaceId),
        segments: (await scope.repos.lists.ruleLists()).map((list) => ruleSegment(list.id, list.rule)),
        now: formatInstant(at),
        parts: ALL_PARTS,
      };
      let failure: unknown;
      const refresh = (ids: readonly string[]) =>
        scope.transaction(async (repos) => {
          for (const visitorId of ids) await repos.intelligenceDue.finish(visitorId, token, await refreshVisitor(repos, visitorId, round));
        });
      // visitors' locks are taken in ascending order, as ingestion takes them: never a cycle of waits
      claimed.sort();
      for (let start = 0; start < claimed.length; start += PER_TRANSACTION) {
        const chunk = claimed.slice(start, start + PER_TRANSACTION);
        try {
          await refresh(chunk);
          refreshed += chunk.length;
        } catch {
          // one by one, so that one visitor's failure holds back no other
          for (const visitorId of chunk) {
            try {
              await refresh([visitorId]);
              refreshed += 1;
            } catch (error) {
              // its claim stays until the lease ends; then any process tries it again
              failure ??= error;
            }
          }
        }
      }
      // the account scores of their companies (C6.9), one transaction each
      for (const companyId of await scope.repos.visitors.companiesOf(claimed)) {
        try {
          await scope.transaction((repos) => refreshAccount(repos, companyId, round.settings.ideal, round.now));
        } catch (error) {
          failure ??= error;
        }
      }
      if (failure !== undefined) throw failure;
    }
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
