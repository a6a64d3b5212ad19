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
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Schema } from './schema.js';

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

function copier(client: pg.PoolClient): Copier {
  return async (table, columns, rows) => {
    const identifiers = columns.map((column) => `"${column.replace(/"/g, '""')}"`).join(', ');
    const stream = client.query(copyFrom(`COPY "${table}" (${identifiers}) FROM STDIN`));
    await pipeline(Readable.from(copyLines(rows)), stream);
  };
}

/**
 * Runs `work` in one transaction on one pinned connection, with COPY
 * available on that same connection.
 */
export async function bulkSession<T>(
  pool: pg.Pool,
  prepare: (client: pg.PoolClient) => void,
  work: (trx: Transaction<Schema>, copy: Copier) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  prepare(client);
  // Kysely releases its connection after each query; this one stays pinned
  // until the session ends.
  const connection = { query: client.query.bind(client), release: () => undefined };
  const pinned = new Kysely<Schema>({
    dialect: new PostgresDialect({
      pool: { connect: async () => connection as unknown as pg.PoolClient, end: async () => undefined },
    }),
  });
  try {
    return await pinned.transaction().execute((trx) => work(trx, copier(client)));
  } finally {
    client.release();
  }
}
