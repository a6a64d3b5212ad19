/**
 * Bulk loading into PostgreSQL with COPY, for imports. An INSERT of many rows
 * is parsed, planned and executed row by row; COPY streams rows in text form
 * and loads about twice as fast (BENCHMARKS.md, "Figures behind design
 * decisions"). It runs on the connection of the import's
 * transaction: `bulkSession` pins one pooled connection and gives both a
 * Kysely transaction and COPY on it.
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import { createRequire } from 'node:module';
import type pg from 'pg';
import type * as PgCopyStreams from 'pg-copy-streams';
import { unboundedClients } from './postgres-pool-marks.js';
import type { Schema } from './schema.js';

/** pg-copy-streams, loaded on the first COPY. */
const copyFrom = (): typeof PgCopyStreams.from =>
  (createRequire(import.meta.url)('pg-copy-streams') as typeof PgCopyStreams).from;

/** Writes rows (values in `columns` order) into `table` with COPY. */
export type Copier = (table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]) => Promise<void>;

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One value in COPY's text format. */
function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  const text = String(value);
  return /[\\\n\r\t]/.test(text) ? text.replace(/[\\\n\r\t]/g, (char) => ESCAPES[char] as string) : text;
}

function* copyLines(rows: readonly (readonly unknown[])[]): Generator<string> {
  let chunk = '';
  for (const row of rows) {
    chunk += `${row.map(copyText).join('\t')}\n`;
    if (chunk.length >= 1 << 16) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}

function copier(client: pg.PoolClient, loaded: Set<string>): Copier {
  return async (table, columns, rows) => {
    loaded.add(table);
    const identifiers = columns.map((column) => `"${column.replace(/"/g, '""')}"`).join(', ');
    const stream = client.query(copyFrom()(`COPY "${table}" (${identifiers}) FROM STDIN`));
    await pipeline(Readable.from(copyLines(rows)), stream);
  };
}

/**
 * Runs `work` in one transaction on one pinned connection, with COPY
 * available on that same connection. Once it has committed, the tables it
 * loaded are analyzed: autovacuum would get to them later, and until then the
 * planner may pick scans and sorts for statistics of the table before the load
 * (seen on cursor pages right after a large import: 160 ms instead of 0.2 ms).
 */
export async function bulkSession<T>(
  pool: pg.Pool,
  prepare: (client: pg.PoolClient) => void,
  work: (trx: Transaction<Schema>, copy: Copier) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  prepare(client);
  // a bulk load's COPY may run for minutes: neither the client-side bound nor statement_timeout applies
  unboundedClients.add(client);
  // Kysely releases its connection after each query; this one stays pinned
  // until the session ends.
  const connection = { query: client.query.bind(client), release: () => undefined };
  const pinned = new Kysely<Schema>({
    dialect: new PostgresDialect({
      pool: { connect: async () => connection as unknown as pg.PoolClient, end: async () => undefined },
    }),
  });
  const loaded = new Set<string>();
  try {
    const result = await pinned.transaction().execute(async (trx) => {
      await client.query('set local statement_timeout = 0');
      return work(trx, copier(client, loaded));
    });
    // the load has committed: statistics are a help to the planner, never a reason to report it failed
    for (const table of loaded) await client.query(`analyze "${table.replace(/"/g, '""')}"`).catch(() => undefined);
    return result;
  } finally {
    unboundedClients.delete(client);
    client.release();
  }
}
