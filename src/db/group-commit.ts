/**
 * Group commit for the embedded store. With synchronous=FULL every SQLite
 * commit waits for the disk (an fsync; BENCHMARKS.md has its cost here),
 * and better-sqlite3 waits on the event loop. Write transactions that arrive
 * together are therefore run one after another inside a single transaction,
 * each in its own savepoint (a failing one rolls back alone), and committed
 * with one fsync. Each caller's promise settles only after that commit: an
 * acknowledged write is on disk.
 */
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Schema } from './schema.js';

interface Job {
  work: (trx: Transaction<Schema>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** at most this many transactions share one commit, so the event loop is never held long */
export const MAX_GROUP = 64;

const SAVEPOINT = CompiledQuery.raw('savepoint leadlight_job');
const RELEASE = CompiledQuery.raw('release leadlight_job');
const ROLLBACK_TO = CompiledQuery.raw('rollback to leadlight_job');

export class GroupCommit {
  #queue: Job[] = [];
  #scheduled = false;

  constructor(private readonly db: Kysely<Schema>) {}

  run<T>(work: (trx: Transaction<Schema>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#queue.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#flush(this.#queue.splice(0, MAX_GROUP));
      this.#schedule();
    });
  }

  async #flush(jobs: Job[]): Promise<void> {
    const outcomes: Outcome[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const job of jobs) {
          await trx.executeQuery(SAVEPOINT);
          try {
            const value = await job.work(trx);
            await trx.executeQuery(RELEASE);
            outcomes.push({ ok: true, value });
          } catch (error) {
            try {
              await trx.executeQuery(ROLLBACK_TO);
              await trx.executeQuery(RELEASE);
            } catch {
              // the transaction itself is gone (SQLite rolls it back on a full
              // disk): every job of the group fails, with the original error
              throw error;
            }
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      for (const job of jobs) job.reject(error);
      return;
    }
    jobs.forEach((job, index) => {
      const outcome = outcomes[index] as Outcome;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }
}
