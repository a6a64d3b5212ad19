/**
 * The exact totals of lead lists, remembered per SQLite connection (issue 24):
 * summing a workspace's day counters is a third of a first page's statement
 * on a million leads. A total is remembered with the store's version as the
 * same statement saw it: `data_version` (changes when another connection,
 * in any process, commits) and `total_changes()` (rows this connection has
 * written by INSERT, UPDATE and DELETE, never decreasing, rollbacks
 * included: any statement that changes leads or their counters changes at
 * least one row itself). A page's statement selects that version beside its
 * rows; when it is the remembered one, the remembered total is the total of
 * that very snapshot and the counters are not summed; otherwise the page is
 * read again with its total (one statement, one snapshot, as before), and a
 * write anywhere makes the next list count again. (A CASE in one statement
 * would not do: SQLite evaluates an uncorrelated subquery once before the
 * rows, whichever branch asks for it; measured.) Totals are remembered only
 * from statements outside any write transaction (their snapshot holds committed
 * rows only). PostgreSQL has no such cheap version: it always counts.
 */
import { sql } from 'kysely';
import { perConnection } from './per-connection.js';

/** the store's version as one statement saw it */
export interface StoreVersion {
  version: number;
  changes: number;
}

interface Remembered extends StoreVersion {
  total: number;
}

/** at most this many totals per connection (workspaces × filters); all are forgotten when full */
const MAX_TOTALS = 10_000;

/** The remembered totals of one connection. */
export class TotalCache {
  readonly #totals = new Map<string, Remembered>();

  /** whether a total is remembered for `key` (at some version) */
  has(key: string): boolean {
    return this.#totals.has(key);
  }

  /** the total remembered for `key` if it was read at the version `seen` */
  get(key: string, seen: StoreVersion): number | undefined {
    const found = this.#totals.get(key);
    return found !== undefined && found.version === seen.version && found.changes === seen.changes ? found.total : undefined;
  }

  remember(key: string, seen: StoreVersion, total: number): void {
    if (this.#totals.size >= MAX_TOTALS && !this.#totals.has(key)) this.#totals.clear();
    this.#totals.set(key, { version: seen.version, changes: seen.changes, total });
  }
}

/** The cache of the connection `token` names (TenantScope.connectionToken). */
export const totalCacheOf: (token: object) => TotalCache = perConnection(() => new TotalCache());

/** The columns that say which version of the store a statement saw: `store_version` and `store_changes`. */
export function versionColumns() {
  return [
    sql<number>`(select "data_version" from pragma_data_version())`.as('store_version'),
    sql<number>`total_changes()`.as('store_changes'),
  ] as const;
}

/** The version a row of such a statement carries. */
export function seenVersion(row: { store_version?: unknown; store_changes?: unknown }): StoreVersion {
  return { version: Number(row.store_version), changes: Number(row.store_changes) };
}
