/**
 * The store: the only door to the database for services. Operator data
 * (workspaces, API keys, people) is reached through `operator`; a
 * workspace's data only through `forWorkspace(id)`, whose repositories are
 * bound to that workspace and cannot reach another's (scope/tenant-scope.ts).
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { GroupCommit } from '../db/group-commit.js';
import type { Schema } from '../db/schema.js';
import type { WorkspaceId } from '../tenancy/workspace-id.js';
import { operatorRepositories, type OperatorRepositories } from './operator/index.js';
import { PeopleRepository } from './operator/people.repository.js';
import { TenantScope } from './scope/tenant-scope.js';
import { tenantRepositories, type TenantRepositories } from './tenant/index.js';
import { currentWriteHook } from './write-hooks.js';
import { takeOutboxWrites, type Outbox } from '../db/commit-signal.js';

export type { OperatorRepositories, TenantRepositories };

/** What a workspace's write transaction may use: its own repositories, and the people shared by workspaces. */
export type TenantWork<T> = (repos: TenantRepositories, people: PeopleRepository) => Promise<T>;

export class Store {
  readonly operator: OperatorRepositories;
  readonly #groupCommit: GroupCommit | undefined;

  constructor(readonly database: Database) {
    this.operator = operatorRepositories(database.db, database.codec);
    this.#groupCommit = database.kind === 'sqlite' ? new GroupCommit(database.db, database.deferredFlush, database.direct) : undefined;
  }

  /** The data of one workspace. */
  forWorkspace(workspaceId: WorkspaceId): WorkspaceStore {
    return new WorkspaceStore(this, workspaceId);
  }

  /**
   * Runs `work` on one read-write transaction; it has committed when the
   * promise resolves. The write hook of the running request (write-hooks.ts)
   * runs in it too, after `work`. Once it committed, the delivery workers are
   * told if it wrote to an outbox (commit-signal.ts). On SQLite, transactions that arrive together share one
   * commit (GroupCommit). `work` must not start another transaction.
   */
  run<T>(work: (trx: Transaction<Schema>) => Promise<T>): Promise<T> {
    const hook = currentWriteHook();
    let outboxes: Set<Outbox> | undefined;
    const hooked = async (trx: Transaction<Schema>) => {
      try {
        const value = await work(trx);
        if (hook !== undefined) await hook(trx);
        return value;
      } finally {
        // this job's flag only (a group's jobs share the transaction object); a job that failed is rolled back and says nothing
        outboxes = takeOutboxWrites(trx);
      }
    };
    const committed = this.#groupCommit !== undefined ? this.#groupCommit.run(hooked) : this.database.db.transaction().execute(hooked);
    return committed.then((value) => {
      // what the workers deliver committed: they claim it now rather than at their next poll
      if (outboxes !== undefined) this.database.commits.committed(outboxes);
      return value;
    });
  }

  /**
   * Resolves once every commit made so far is on disk. On SQLite a group's
   * writes are visible before the log's sync returns (group-commit.ts): a
   * reader that hands out what it read as a position to resume from (the
   * changes feed) waits for this first, so that no position it gave can be
   * lost to a power cut and then reused by another change.
   */
  durable(): Promise<void> {
    return this.database.deferredFlush?.settled() ?? Promise.resolve();
  }

  /** Runs `work` with the operator repositories bound to one read-write transaction. */
  transaction<T>(work: (repos: OperatorRepositories) => Promise<T>): Promise<T> {
    return this.run((trx) => work(operatorRepositories(trx, this.database.codec)));
  }
}

/** One workspace's data: repositories bound to it, and transactions over them. */
export class WorkspaceStore {
  readonly repos: TenantRepositories;

  constructor(
    private readonly store: Store,
    readonly workspaceId: WorkspaceId,
  ) {
    this.repos = this.#repositories(store.database.db);
  }

  /** Runs `work` in one read-write transaction (see Store.run). */
  transaction<T>(work: TenantWork<T>): Promise<T> {
    // only the people repository: the other operator repositories cost their construction on every write (issue 24)
    return this.store.run((trx) => work(this.#repositories(trx), new PeopleRepository(trx, this.store.database.codec)));
  }

  /** Resolves once every commit made so far is on disk (Store.durable). */
  durable(): Promise<void> {
    return this.store.durable();
  }

  /** A transaction for a bulk load (imports): on PostgreSQL, large inserts go through COPY. */
  bulkTransaction<T>(work: TenantWork<T>): Promise<T> {
    const { codec } = this.store.database;
    return this.store.database.bulk((trx, copy) =>
      work(tenantRepositories(new TenantScope(trx, this.workspaceId, codec, copy)), operatorRepositories(trx, codec).people),
    );
  }

  /** The repositories over an open transaction (a write hook's: write-hooks.ts). */
  repositoriesIn(trx: Transaction<Schema>): TenantRepositories {
    return this.#repositories(trx);
  }

  #repositories(db: Kysely<Schema>): TenantRepositories {
    return tenantRepositories(new TenantScope(db, this.workspaceId, this.store.database.codec));
  }
}
