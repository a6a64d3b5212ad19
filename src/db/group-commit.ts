/**
 * Group commit for the embedded store. With synchronous=FULL every SQLite
 * commit waits for the disk (an fsync; BENCHMARKS.md has its cost here),
 * and better-sqlite3 waits on the event loop. Write transactions that arrive
 * together are therefore run one after another inside a single transaction,
 * each in its own savepoint (a failing one rolls back alone), and committed
 * together. Each caller's promise settles only after that commit is on disk:
 * an acknowledged write survives a crash and a power loss.
 *
 * Given a flusher (wal-flush.ts, every file-backed store with
 * synchronous=FULL), the group commits with synchronous=NORMAL and the sync
 * of the log runs on the thread pool afterwards, while the event loop serves
 * other requests and the next group; the callers are answered once it is
 * done. Without one, COMMIT syncs on the event loop as before.
 *
 * While a group's sync runs, the writes that arrive wait for it and then
 * commit together (unless MAX_GROUP of them are waiting): a sync asked for
 * meanwhile could only begin once the running one returns, so they are
 * answered no later for it, and one bigger group costs one COMMIT, one set
 * of log pages and one sync instead of several (a sync costs 0.3 to 0.4 ms
 * of CPU on the benchmark machine; BENCHMARKS.md, issue 24).
 */
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { runDirectly, type DirectRunner } from './query-templates.js';
import type { Schema } from './schema.js';

interface Job {
  work: (trx: Transaction<Schema>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** What makes a group's commit durable when COMMIT itself does not sync. */
export interface DeferredFlush {
  /** resolves once every commit made before the call is on disk */
  flush(): Promise<void>;
  /** resolves once the flushes asked for so far have returned: what a reader has seen is then on disk */
  settled(): Promise<void>;
}

/** at most this many transactions share one commit, so the event loop is never held long */
export const MAX_GROUP = 64;

/**
 * With a deferred flush, a group also ends after this much work: the jobs
 * not run yet go to the next group, and the event loop serves requests in
 * between (a commit no longer holds it for an fsync, so more commits cost
 * little; issue 10 measured the opposite while they did).
 */
export const GROUP_BUDGET_MS = 8;

const SAVEPOINT = CompiledQuery.raw('savepoint leadlight_job');
const RELEASE = CompiledQuery.raw('release leadlight_job');
const ROLLBACK_TO = CompiledQuery.raw('rollback to leadlight_job');
const RELAX = CompiledQuery.raw('pragma synchronous = normal');
const RESTORE = CompiledQuery.raw('pragma synchronous = full');

export class GroupCommit {
  #queue: Job[] = [];
  #scheduled = false;
  /** groups committed whose sync has not returned yet */
  #syncing = 0;

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly deferred?: DeferredFlush,
    /** the store's own connection, run at once: the group's templates and savepoints skip Kysely's executor (query-templates.ts) */
    private readonly direct?: DirectRunner,
  ) {}

  run<T>(work: (trx: Transaction<Schema>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#queue.length === 0) return;
    // a sync runs: the queue commits when it returns (durable's handler below), unless it is full
    if (this.#syncing > 0 && this.#queue.length < MAX_GROUP) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#flush(this.#queue.splice(0, MAX_GROUP));
      this.#schedule();
    });
  }

  async #flush(jobs: Job[]): Promise<void> {
    let outcomes: Outcome[];
    let durable: Promise<void> | undefined;
    try {
      if (this.deferred === undefined) {
        outcomes = await this.db.transaction().execute((trx) => this.#inGroup(trx, jobs, Infinity));
      } else {
        const deferred = this.deferred;
        // one connection: nothing else runs on it between RELAX and RESTORE, so
        // no other transaction commits without its sync
        outcomes = await this.db.connection().execute(async (connection) => {
          await this.#control(connection, RELAX);
          try {
            const done = await connection.transaction().execute((trx) => this.#inGroup(trx, jobs, performance.now() + GROUP_BUDGET_MS));
            durable = this.#syncOf(deferred);
            return done;
          } finally {
            await this.#control(connection, RESTORE);
          }
        });
      }
    } catch (error) {
      for (const job of jobs) job.reject(error);
      return;
    }
    // jobs past the budget were not run: they go first into the next group
    if (outcomes.length < jobs.length) {
      this.#queue.unshift(...jobs.slice(outcomes.length));
      this.#schedule();
    }
    if (durable !== undefined) {
      try {
        await durable;
      } catch (error) {
        for (const job of jobs.slice(0, outcomes.length)) job.reject(error);
        return;
      }
    }
    outcomes.forEach((outcome, index) => {
      const job = jobs[index] as Job;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }

  /** Asks for the sync of a group just committed; the queue waits for it (see #schedule). */
  #syncOf(deferred: DeferredFlush): Promise<void> {
    const durable = deferred.flush();
    this.#syncing += 1;
    const returned = () => {
      this.#syncing -= 1;
      this.#schedule();
    };
    durable.then(returned, returned);
    return durable;
  }

  /** #runJobs with the transaction's templates run directly, while it is open */
  async #inGroup(trx: Transaction<Schema>, jobs: Job[], deadline: number): Promise<Outcome[]> {
    if (this.direct === undefined) return this.#runJobs(trx, jobs, deadline);
    const stop = runDirectly(trx, this.direct);
    try {
      return await this.#runJobs(trx, jobs, deadline);
    } finally {
      stop();
    }
  }

  /** A statement of the group's own (pragmas, savepoints) on the connection it holds, directly when it can. */
  async #control(db: Kysely<Schema>, query: CompiledQuery): Promise<void> {
    if (this.direct !== undefined) this.direct(query.sql, []);
    else await db.executeQuery(query);
  }

  /**
   * Runs jobs in savepoints until they are done or `deadline`
   * (performance.now()) has passed; the first always runs. A job alone in
   * its group runs without one: its failure rolls the whole transaction
   * back, which is all a savepoint would have rolled back, and the
   * SAVEPOINT and RELEASE it saves are two statements of every write at
   * low load (BENCHMARKS.md, "Ingest, round two").
   */
  async #runJobs(trx: Transaction<Schema>, jobs: Job[], deadline: number): Promise<Outcome[]> {
    const [only] = jobs;
    if (jobs.length === 1 && only !== undefined) return [{ ok: true, value: await only.work(trx) }];
    const outcomes: Outcome[] = [];
    for (const job of jobs) {
      if (outcomes.length > 0 && performance.now() > deadline) break;
      await this.#control(trx, SAVEPOINT);
      try {
        const value = await job.work(trx);
        await this.#control(trx, RELEASE);
        outcomes.push({ ok: true, value });
      } catch (error) {
        try {
          await this.#control(trx, ROLLBACK_TO);
          await this.#control(trx, RELEASE);
        } catch {
          // the transaction itself is gone (SQLite rolls it back on a full
          // disk): every job of the group fails, with the original error
          throw error;
        }
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  }
}
