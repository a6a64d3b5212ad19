/**
 * The only way a tenant repository reaches the database. A scope is bound to
 * one workspace and hands out query builders that already carry
 * `workspace_id = <that workspace>` (reads, updates, deletes) or write it
 * (inserts); the Kysely handle itself stays private, so a repository cannot
 * build a statement on a tenant table any other way. Every statement the
 * scope builds is audited before it runs (statement-audit.ts): one that
 * reaches a tenant table without the predicate (a subquery built from an
 * expression builder, say) throws instead of running.
 */
import {
  sql,
  type AliasedExpression,
  type Compilable,
  type DeleteQueryBuilder,
  type DeleteResult,
  type ExpressionBuilder,
  type Insertable,
  type InsertQueryBuilder,
  type InsertResult,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type SelectQueryBuilder,
  type UnknownRow,
  type UpdateQueryBuilder,
  type UpdateResult,
} from 'kysely';
import type { Codec } from '../../db/codec.js';
import { noteOutboxWrite, type Outbox } from '../../db/commit-signal.js';
import type { Copier } from '../../db/postgres-copy.js';
import { param, positional, template, type QueryTemplate } from '../../db/query-templates.js';
import type { Schema, TenantTable } from '../../db/schema.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { auditStatement } from './statement-audit.js';

/** A statement reached a tenant table without naming its workspace: a defect, never an answer. */
export class TenantBoundaryError extends Error {
  override name = 'TenantBoundaryError';
}

/** statements already found scoped: Kysely's nodes are frozen, so a compiled template's node is audited once */
const scoped = new WeakSet<RootOperationNode>();

function assertScoped(node: RootOperationNode): void {
  if (scoped.has(node)) return;
  const violations = auditStatement(node);
  if (violations.length > 0) throw new TenantBoundaryError(`statement crosses the tenant boundary: ${violations.join('; ')}`);
  scoped.add(node);
}

const auditPlugin: KyselyPlugin = {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    assertScoped(node);
    return node;
  },
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  },
};

const audited = new WeakMap<Kysely<Schema>, Kysely<Schema>>();

/** an opaque object per connection handle, for caches of values derived from the store (total-cache.ts) */
const connectionTokens = new WeakMap<Kysely<Schema>, object>();

function auditedHandle(db: Kysely<Schema>): Kysely<Schema> {
  let handle = audited.get(db);
  if (handle === undefined) {
    handle = db.withPlugin(auditPlugin);
    audited.set(db, handle);
  }
  return handle;
}

/** The placeholder of the workspace in a template: filled from the scope on every execution. */
const WORKSPACE_PARAMETER = 'ws';

/** A row of a tenant table as a repository writes it: the scope supplies workspace_id. */
export type TenantRow<T extends TenantTable> = Omit<Insertable<Schema[T]>, 'workspace_id'>;

/** A compiled query of one scope, run with named values; the workspace is added by the scope. */
export interface BoundTemplate<Row> {
  all(values?: Readonly<Record<string, unknown>>): Promise<Row[]>;
  first(values?: Readonly<Record<string, unknown>>): Promise<Row | undefined>;
}

/** Tenant tables whose rows are keyed by (workspace_id, id). */
export type KeyedTable = Exclude<
  TenantTable,
  'lead_counts' | 'workspace_members' | 'events' | 'idempotency_keys' | 'page_counts' | 'list_members' | 'intelligence_due' | 'workspace_settings' | 'reverse_dns_due' | 'enrichment_queue' | 'alert_cooldowns' | 'digest_sends'
>;

/** PostgreSQL's type of a column written by insertColumns (its array is cast to it). */
export type ColumnKind = 'uuid' | 'timestamptz' | 'text' | 'jsonb' | 'integer';

/** from this many rows on, a bulk transaction on PostgreSQL inserts with COPY */
const COPY_FROM_ROWS = 64;

export class TenantScope {
  /** audited: every statement built here is checked before it runs */
  readonly #db: Kysely<Schema>;
  /** for transactions and templates (audited once, when compiled) */
  readonly #raw: Kysely<Schema>;
  readonly #copy: Copier | undefined;

  constructor(
    db: Kysely<Schema>,
    readonly workspaceId: WorkspaceId,
    readonly codec: Codec,
    /** COPY on the connection of a bulk transaction (PostgreSQL imports) */
    copy?: Copier,
  ) {
    this.#raw = db;
    this.#db = auditedHandle(db);
    this.#copy = copy;
  }

  /**
   * An object that stands for this scope's connection (the same for every
   * scope on it), or undefined inside a transaction, whose statements may see
   * its own uncommitted writes.
   */
  get connectionToken(): object | undefined {
    if (this.#raw.isTransaction) return undefined;
    let token = connectionTokens.get(this.#raw);
    if (token === undefined) {
      token = {};
      connectionTokens.set(this.#raw, token);
    }
    return token;
  }

  /** This scope's transaction wrote a delivery to `outbox` (commit-signal.ts: its workers are woken once it commits). */
  noteOutboxWrite(outbox: Outbox): void {
    noteOutboxWrite(this.#raw, outbox);
  }

  /** A SELECT without a table (of subqueries built on this scope: audited like the rest). */
  selectNoFrom<O>(build: (eb: ExpressionBuilder<Schema, never>) => readonly AliasedExpression<unknown, string>[]): SelectQueryBuilder<Schema, never, O> {
    return this.#db.selectNoFrom(build as never) as unknown as SelectQueryBuilder<Schema, never, O>;
  }

  selectFrom<T extends TenantTable>(table: T): SelectQueryBuilder<Schema, T, object> {
    const query = this.#db.selectFrom(table as TenantTable) as unknown as SelectQueryBuilder<Schema, TenantTable, object>;
    return query.where(`${table}.workspace_id` as 'leads.workspace_id', '=', this.workspaceId) as unknown as SelectQueryBuilder<
      Schema,
      T,
      object
    >;
  }

  updateTable<T extends TenantTable>(table: T): UpdateQueryBuilder<Schema, T, T, UpdateResult> {
    const query = this.#db.updateTable(table as TenantTable) as unknown as UpdateQueryBuilder<Schema, 'leads', 'leads', UpdateResult>;
    return query.where(`${table}.workspace_id` as 'leads.workspace_id', '=', this.workspaceId) as unknown as UpdateQueryBuilder<
      Schema,
      T,
      T,
      UpdateResult
    >;
  }

  deleteFrom<T extends TenantTable>(table: T): DeleteQueryBuilder<Schema, T, DeleteResult> {
    const query = this.#db.deleteFrom(table as TenantTable) as unknown as DeleteQueryBuilder<Schema, 'leads', DeleteResult>;
    return query.where(`${table}.workspace_id` as 'leads.workspace_id', '=', this.workspaceId) as unknown as DeleteQueryBuilder<
      Schema,
      T,
      DeleteResult
    >;
  }

  /** An INSERT of `rows` into the workspace, open for onConflict and returning. */
  insertInto<T extends TenantTable>(table: T, rows: readonly TenantRow<T>[]): InsertQueryBuilder<Schema, T, InsertResult> {
    const values = rows.map((row) => ({ ...row, workspace_id: this.workspaceId }));
    return this.#db.insertInto(table).values(values as never) as unknown as InsertQueryBuilder<Schema, T, InsertResult>;
  }

  /**
   * An INSERT of the rows a SELECT of this scope reads (its first column
   * must be workspace_id), open for onConflict.
   */
  insertSelect<T extends TenantTable>(
    table: T,
    columns: readonly string[],
    select: SelectQueryBuilder<Schema, TenantTable, object>,
  ): InsertQueryBuilder<Schema, T, InsertResult> {
    return this.#db
      .insertInto(table)
      .columns(['workspace_id', ...columns] as never)
      .expression(select as never) as unknown as InsertQueryBuilder<Schema, T, InsertResult>;
  }

  /**
   * The compiled query named `key` (one per statement shape: see
   * query-templates.ts), built by `build` on a scope whose workspace is a
   * placeholder, and audited once, when compiled (the builder's scope audits
   * what it compiles).
   */
  template<Row>(key: string, build: (scope: TenantScope) => Compilable<Row>): BoundTemplate<Row> {
    const compiled = template(this.codec.kind, `tenant:${key}`, () =>
      build(new TenantScope(this.#raw, param<WorkspaceId>(WORKSPACE_PARAMETER), this.codec)),
    );
    return this.#bind(compiled);
  }

  /**
   * Which of `ids` name a row of `table` (keyed by workspace_id and id) in the
   * workspace, each found through the primary key. On PostgreSQL the ids are
   * probed one by one in a lateral join: in a transaction that grows a table
   * beyond its statistics (an import), the planner would take an IN list for
   * a scan of the workspace, read again for every batch; a probe by the whole
   * key has no other plan. SQLite plans an IN list on the key by itself.
   */
  async probeIds(table: KeyedTable, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    if (this.codec.kind === 'sqlite') {
      const rows = await (this.selectFrom(table) as unknown as SelectQueryBuilder<Schema, 'leads', object>)
        .select('id')
        .where('id', 'in', ids)
        .execute();
      return rows.map((row) => row.id);
    }
    const wanted = sql<{ wanted: string }>`unnest(${sql.val(ids)}::uuid[])`.as('wanted');
    const rows = await this.#db
      .selectFrom(wanted)
      .innerJoinLateral(
        (eb) =>
          (eb.selectFrom(table as 'leads') as SelectQueryBuilder<Schema, 'leads', object>)
            .select(`${table}.id as id` as 'leads.id as id')
            .whereRef(`${table}.id` as 'leads.id', '=', sql.ref('wanted'))
            .where(`${table}.workspace_id` as 'leads.workspace_id', '=', this.workspaceId)
            .limit(1)
            .as('found'),
        (join) => join.onTrue(),
      )
      .select('found.id')
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Runs `read` on one snapshot of the store, so that a page and its total
   * agree even while other processes write (repeatable read on PostgreSQL; one
   * read transaction on SQLite). Inside a transaction, runs on that transaction.
   */
  snapshot<T>(read: (scope: TenantScope) => Promise<T>): Promise<T> {
    if (this.#raw.isTransaction) return read(this);
    let transaction = this.#raw.transaction().setAccessMode('read only');
    if (this.codec.kind === 'postgres') transaction = transaction.setIsolationLevel('repeatable read');
    return transaction.execute((trx) => read(new TenantScope(trx, this.workspaceId, this.codec)));
  }

  /** Runs `write` in the open transaction, or in a new one. */
  inTransaction<T>(write: (scope: TenantScope) => Promise<T>): Promise<T> {
    if (this.#raw.isTransaction) return write(this);
    return this.#raw.transaction().execute((trx) => write(new TenantScope(trx, this.workspaceId, this.codec)));
  }

  /**
   * Inserts rows that all have the same columns, through compiled templates:
   * on SQLite one prepared single-row statement per row (faster there than a
   * statement of many rows), on PostgreSQL statements of up to 500 rows (one
   * round trip each), or COPY in a bulk transaction. Returns how many rows
   * were written; an id already taken fails the statement.
   */
  async insertRows<T extends TenantTable>(table: T, rows: readonly TenantRow<T>[]): Promise<number> {
    if (rows.length === 0) return 0;
    const columns = ['workspace_id', ...Object.keys(rows[0] as object)];
    const valuesOf = (row: TenantRow<T>) =>
      columns.map((column) => (column === 'workspace_id' ? this.workspaceId : (row as Record<string, unknown>)[column]));
    if (this.#copy !== undefined && rows.length >= COPY_FROM_ROWS) {
      await this.#copy(table, columns, rows.map(valuesOf));
      return rows.length;
    }
    const perStatement = this.codec.kind === 'sqlite' ? 1 : 500;
    let written = 0;
    for (let start = 0; start < rows.length; start += perStatement) {
      const chunk = rows.slice(start, start + perStatement);
      const statement = template(this.codec.kind, `tenant:${table}.insert:${chunk.length}:${columns.join(',')}`, () => {
        const query = this.#raw.insertInto(table).values(
          chunk.map((_, row) =>
            Object.fromEntries(columns.map((column, index) => [column, positional(row * columns.length + index)])),
          ) as never,
        );
        assertScoped(query.toOperationNode());
        return query;
      });
      const values: unknown[] = [];
      for (const row of chunk) values.push(...valuesOf(row));
      await statement.execute(this.#raw, values);
      written += chunk.length;
    }
    return written;
  }

  /**
   * Inserts rows through few statement shapes whatever their number, for
   * writes that arrive in batches of every size (events): on PostgreSQL
   * one `INSERT … SELECT $ws, unnest($1::uuid[]), …`, one array per column
   * typed by `columns`; on SQLite statements of 32, 8 or 1 rows (a batch of
   * 50 is 5 statements, each prepared once). With `skipTaken`, a row whose
   * key the workspace already holds is skipped (ON CONFLICT DO NOTHING; on
   * SQLite one row a statement). Returns the ids of the rows written.
   */
  async insertColumns<T extends TenantTable>(
    table: T,
    columns: Readonly<Record<string, ColumnKind>>,
    rows: readonly TenantRow<T>[],
    options: { skipTaken?: boolean } = {},
  ): Promise<string[]> {
    if (rows.length === 0) return [];
    const names = Object.keys(columns);
    const skip = options.skipTaken === true;
    const key = `${table}.insertColumns:${names.join(',')}:${skip ? 'skip' : 'all'}`;
    const cell = (row: TenantRow<T>, name: string) => (row as Record<string, unknown>)[name] ?? null;
    if (this.codec.kind === 'postgres') {
      const statement = this.template<{ id: string }>(key, (q) => {
        const select = q.#raw.selectNoFrom([
          sql`${q.workspaceId}::uuid`.as('workspace_id'),
          ...names.map((name) => sql`unnest(${param(`c_${name}`)}::${sql.raw(columns[name] as string)}[])`.as(name)),
        ]);
        const insert = q.#db
          .insertInto(table as 'events')
          .columns(['workspace_id', ...names] as never)
          .expression(select as never);
        return (skip ? insert.onConflict((conflict) => conflict.doNothing()).returning('id' as never) : insert) as never;
      });
      const values: Record<string, unknown[]> = {};
      for (const name of names) values[`c_${name}`] = rows.map((row) => cell(row, name));
      const written = await statement.all(values);
      return skip ? written.map((row) => row.id) : rows.map((row) => cell(row, 'id') as string);
    }
    if (skip) {
      // one row a statement: each tells whether its row was written
      const statement = this.template<{ id: string }>(key, (q) =>
        q.#db
          .insertInto(table as 'events')
          .values({ workspace_id: q.workspaceId, ...Object.fromEntries(names.map((name) => [name, param(`c_${name}`)])) } as never)
          .onConflict((conflict) => conflict.doNothing())
          .returning('id' as never) as never,
      );
      const written: string[] = [];
      for (const row of rows) {
        const values: Record<string, unknown> = {};
        for (const name of names) values[`c_${name}`] = cell(row, name);
        const inserted = await statement.first(values);
        if (inserted !== undefined) written.push(inserted.id);
      }
      return written;
    }
    const written = ['workspace_id', ...names];
    for (let start = 0; start < rows.length; ) {
      const size = [32, 8, 1].find((candidate) => candidate <= rows.length - start) as number;
      const statement = template(this.codec.kind, `tenant:${key}:${size}`, () => {
        const query = this.#raw.insertInto(table).values(
          Array.from({ length: size }, (_, row) =>
            Object.fromEntries(written.map((column, index) => [column, positional(row * written.length + index)])),
          ) as never,
        );
        assertScoped(query.toOperationNode());
        return query;
      });
      const values: unknown[] = [];
      for (let row = start; row < start + size; row += 1) {
        values.push(this.workspaceId);
        for (const name of names) values.push(cell(rows[row] as TenantRow<T>, name));
      }
      await statement.execute(this.#raw, values);
      start += size;
    }
    return rows.map((row) => cell(row, 'id') as string);
  }

  /**
   * Serializes the transactions of this workspace that take one of the same
   * locks until they end (PostgreSQL: transaction-level advisory locks, taken
   * in sorted order, so two transactions never wait for each other in a
   * circle). SQLite runs one write transaction at a time and needs none.
   */
  async lock(names: readonly string[]): Promise<void> {
    if (this.codec.kind !== 'postgres' || names.length === 0) return;
    const keys = [...new Set(names)].sort().map((name) => `${this.workspaceId}:${name}`);
    await sql`select pg_advisory_xact_lock(hashtextextended(lock_key, 0)) from unnest(${keys}::text[]) as lock_key`.execute(this.#raw);
  }

  #bind<Row>(compiled: QueryTemplate<Row>): BoundTemplate<Row> {
    const db = this.#raw;
    const workspaceId = this.workspaceId;
    return {
      all: (values = {}) => compiled.execute(db, { ...values, [WORKSPACE_PARAMETER]: workspaceId }),
      first: async (values = {}) => (await compiled.execute(db, { ...values, [WORKSPACE_PARAMETER]: workspaceId }))[0],
    };
  }
}
