/**
 * What every repository shares: the Kysely executor it runs on (the database
 * or an open transaction), the store's codec, and consistent list reads.
 */
import type { Compilable, Kysely, SelectQueryBuilder } from 'kysely';
import type { Codec } from '../db/codec.js';
import type { Copier } from '../db/postgres-copy.js';
import { param, positional, template, type QueryTemplate } from '../db/query-templates.js';
import type { Schema } from '../db/schema.js';

export interface Page {
  limit: number;
  offset: number;
}

export interface PageResult<T> {
  items: T[];
  total: number;
}

/** Tables listed newest first by `created_at`, then `id`. */
type CreatedTable = 'identity_activity' | 'companies' | 'visitor_lists';

/** from this many rows on, a bulk transaction on PostgreSQL inserts with COPY */
const COPY_FROM_ROWS = 64;

export abstract class Repository {
  constructor(
    protected readonly db: Kysely<Schema>,
    protected readonly codec: Codec,
    /** COPY on the connection of a bulk transaction (PostgreSQL imports) */
    private readonly copy?: Copier,
  ) {}

  /**
   * Runs `read` on one snapshot of the store, so that a page and its total
   * agree even while other processes write (repeatable read on PostgreSQL; one
   * read transaction on SQLite). Inside a transaction, runs on that transaction.
   */
  protected snapshot<T>(read: (db: Kysely<Schema>) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return read(this.db);
    let transaction = this.db.transaction().setAccessMode('read only');
    if (this.codec.kind === 'postgres') transaction = transaction.setIsolationLevel('repeatable read');
    return transaction.execute(read);
  }

  /**
   * One page of `matching`, newest first (created_at, then id, descending, so
   * pages never skip or repeat: C3.10), and the exact total of `matching`.
   * Call it inside snapshot() so the two agree.
   */
  protected async newestFirstPage<T extends CreatedTable, C extends readonly (keyof Schema[T] & string)[]>(
    matching: SelectQueryBuilder<Schema, T, object>,
    columns: C,
    page: Page,
  ): Promise<PageResult<Pick<Schema[T], C[number]>>> {
    const counted = await matching.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
    const items = await (matching as unknown as SelectQueryBuilder<Schema, CreatedTable, object>)
      .select(columns as never)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return { items: items as unknown as Pick<Schema[T], C[number]>[], total: this.codec.count(counted.total) };
  }

  /** The compiled query of this shape (see query-templates.ts), built once per dialect. */
  protected template<Row>(key: string, build: () => Compilable<Row>): QueryTemplate<Row> {
    return template(this.codec.kind, key, build);
  }

  /**
   * Inserts rows that all have the same columns, through compiled templates:
   * on SQLite one prepared single-row statement per row (faster there than a
   * statement of many rows), on PostgreSQL statements of up to 500 rows (one
   * round trip each), or COPY in a bulk transaction. Returns how many rows
   * were written.
   */
  protected async insertRows(db: Kysely<Schema>, table: keyof Schema, rows: readonly Record<string, unknown>[]): Promise<number> {
    if (rows.length === 0) return 0;
    const columns = Object.keys(rows[0] as object);
    if (this.copy !== undefined && rows.length >= COPY_FROM_ROWS) {
      await this.copy(table, columns, rows.map((row) => columns.map((column) => row[column])));
      return rows.length;
    }
    const perStatement = this.codec.kind === 'sqlite' ? 1 : 500;
    let written = 0;
    for (let start = 0; start < rows.length; start += perStatement) {
      const chunk = rows.slice(start, start + perStatement);
      const statement = this.template(`${table}.insert:${chunk.length}:${columns.join(',')}`, () =>
        db.insertInto(table).values(
          chunk.map((_, row) =>
            Object.fromEntries(columns.map((column, index) => [column, positional(row * columns.length + index)])),
          ) as never,
        ),
      );
      const values: unknown[] = [];
      for (const row of chunk) for (const column of columns) values.push(row[column]);
      await statement.execute(db, values);
      written += chunk.length;
    }
    return written;
  }

  /** Runs `write` in the open transaction, or in a new one. */
  protected inTransaction<T>(write: (db: Kysely<Schema>) => Promise<T>): Promise<T> {
    return this.db.isTransaction ? write(this.db) : this.db.transaction().execute(write);
  }
}

type TenantTable = 'leads' | 'identities' | 'identity_activity' | 'personalities' | 'companies' | 'visitor_lists';

/** A repository of one tenant table, keyed by (workspace_id, id). */
export abstract class TenantRepository extends Repository {
  protected abstract readonly table: TenantTable;

  /** Whether `id` names a row of the workspace (a compiled template: reference checks run on writes). */
  async exists(workspaceId: string, id: string): Promise<boolean> {
    const row = await this.template(`${this.table}.exists`, () =>
      this.db.selectFrom(this.table).select('id').where('workspace_id', '=', param('ws')).where('id', '=', param('id')),
    ).executeTakeFirst(this.db, { ws: workspaceId, id });
    return row !== undefined;
  }

  /** The subset of `ids` that exist in the workspace. */
  async existingIds(workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let start = 0; start < ids.length; start += 500) {
      const rows = await this.db
        .selectFrom(this.table)
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', ids.slice(start, start + 500))
        .execute();
      for (const row of rows) found.add(row.id);
    }
    return found;
  }
}

/** `text` as a LIKE pattern, escaped by backslashes (LIKE ... ESCAPE '\'), that matches it literally anywhere in a value. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
