/**
 * Reads that skip Kysely's asynchronous path on SQLite (issue 24, perf-get).
 * better-sqlite3 answers a point read synchronously, in a few microseconds;
 * Kysely's way to it (the runtime driver, the connection mutex, the
 * provider, the result's transformation, the release) is a dozen awaited
 * promises around it, which cost a GET by id about as much as its two
 * statements. A compiled template (query-templates.ts) run on a store's own
 * handle, outside any transaction, is read here at once when the one
 * connection is free: no transaction open on it, and not held by anyone
 * through Kysely (a transaction between its statements, a group commit, a
 * stream). A read run that way is what Kysely would have run once it had the
 * connection, with nothing of anyone else's in between; otherwise (the
 * connection busy, a write, PostgreSQL, a transaction's handle) the template
 * takes Kysely's path as before.
 */

/** The rows of `sql`, or undefined when it cannot be read now (then Kysely runs it). */
export type SyncRead = (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;

const readers = new WeakMap<object, SyncRead>();

/** Called by the SQLite store for its Kysely handle. */
export function registerSyncRead(db: object, read: SyncRead): void {
  readers.set(db, read);
}

/** The rows of a read on `db` run now, or undefined (not a SQLite store's own handle, or its connection is busy). */
export function readNow(db: object, sql: string, parameters: readonly unknown[]): unknown[] | undefined {
  return readers.get(db)?.(sql, parameters);
}
