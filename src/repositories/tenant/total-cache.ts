/**
 * The exact totals of lead lists, remembered per SQLite connection (issue 24):
 * summing a workspace's day counters is a third of a first page's statement
 * on a million leads. A total is remembered with the store's version as the
 * same statement saw it: `data_version` (changes when another connection,
 * in any process, commits) and `total_changes()` (rows this connection has
 * written by INSERT, UPDATE and DELETE, never decreasing, rollbacks
 * included: any statement that changes leads or their counters changes at
 * least one row itself). The statement that reads a
 * page compares that version with the remembered one itself and sums the
 * counters only when they differ (a CASE whose subquery SQLite does not run
 * otherwise), so page and total still come from one snapshot, and a write
 * anywhere makes the next list count again. Totals are remembered only from
 * statements outside any write transaction (their snapshot holds committed
 * rows only). PostgreSQL has no such cheap version: it always counts.
 */
import { sql, type Expression, type ExpressionBuilder } from 'kysely';
import { param } from '../../db/query-templates.js';
import type { Schema } from '../../db/schema.js';

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

  /** the placeholders' values for `key`: the remembered version and total, or a version no statement sees */
  values(key: string): { cachedVersion: number; cachedChanges: number; cachedTotal: number } {
    const found = this.#totals.get(key);
    return found === undefined
      ? { cachedVersion: -1, cachedChanges: -1, cachedTotal: 0 }
      : { cachedVersion: found.version, cachedChanges: found.changes, cachedTotal: found.total };
  }

  remember(key: string, seen: StoreVersion, total: number): void {
    if (this.#totals.size >= MAX_TOTALS && !this.#totals.has(key)) this.#totals.clear();
    this.#totals.set(key, { version: seen.version, changes: seen.changes, total });
  }
}

const caches = new WeakMap<object, TotalCache>();

/** The cache of the connection `token` names (TenantScope.connectionToken). */
export function totalCacheOf(token: object): TotalCache {
  let cache = caches.get(token);
  if (cache === undefined) {
    cache = new TotalCache();
    caches.set(token, cache);
  }
  return cache;
}

const version = sql<number>`(select "data_version" from pragma_data_version())`;
const changes = sql<number>`total_changes()`;

/**
 * The columns a cached total adds to a statement: `total` (the remembered one
 * when the version is unchanged, else `count` evaluated), `store_version`
 * and `store_changes` (what this statement saw).
 */
export function cachedTotalColumns(eb: ExpressionBuilder<Schema, never>, count: Expression<unknown>) {
  return [
    eb
      .case()
      .when(eb.and([eb(version, '=', param<number>('cachedVersion')), eb(changes, '=', param<number>('cachedChanges'))]))
      .then(param<number>('cachedTotal') as unknown as number)
      .else(count as Expression<number>)
      .end()
      .as('total'),
    version.as('store_version'),
    changes.as('store_changes'),
  ] as const;
}

/** The version a row of such a statement carries. */
export function seenVersion(row: { store_version?: unknown; store_changes?: unknown }): StoreVersion {
  return { version: Number(row.store_version), changes: Number(row.store_changes) };
}
