/**
 * Query templates: a Kysely query built and compiled once per store and
 * shape, then executed many times with new values. Building and compiling a
 * query costs more than running a point read on SQLite (BENCHMARKS.md,
 * "Figures behind design decisions"), so the hot paths reuse the SQL text; with the
 * statement cache under the driver (sqlite.ts) that makes them prepared
 * statements.
 *
 * A template is built with placeholders from `param(name)` where values go;
 * after compiling, each placeholder is found among the query's parameters and
 * replaced by the named value on every execution.
 */
import { createQueryId, type Compilable, type CompiledQuery, type Kysely, type RootOperationNode } from 'kysely';
import type { Schema } from './schema.js';
import { readNow } from './sync-read.js';

const MARK = '\u0000leadlight:';

/**
 * Runs SQL on the connection an open transaction holds, synchronously and
 * without Kysely's executor (SQLite: the group commit's transaction,
 * group-commit.ts). Answers the rows of a statement that returns rows, else
 * an empty array.
 */
export type DirectRunner = (sql: string, parameters: readonly unknown[]) => unknown[];

/** the transactions whose templates run directly, while they are open */
const directRunners = new WeakMap<object, DirectRunner>();

/**
 * Until the returned function is called, templates executed on `trx` run
 * through `run`: the transaction holds its connection for the whole time,
 * so nothing else can run on it in between, and the per-statement work of
 * Kysely's executor (a connection provider, several promises, a result
 * object) is skipped (BENCHMARKS.md, "POST and PATCH, round three").
 */
export function runDirectly(trx: object, run: DirectRunner): () => void {
  directRunners.set(trx, run);
  return () => directRunners.delete(trx);
}

/** A placeholder for the value named `name`, for use while building a template. */
export function param<T = string>(name: string): T {
  return `${MARK}${name}` as unknown as T;
}

/** A placeholder for the value at `index` of an array of values (bulk statements). */
export function positional<T = string>(index: number): T {
  return `${MARK}#${index}` as unknown as T;
}

type Slot = { name: string } | { index: number } | { value: unknown };

export class QueryTemplate<Row> {
  readonly #queryId = createQueryId();

  private constructor(
    readonly sql: string,
    /** the statement's operation tree, kept so that drivers and audits see the query, not raw text */
    readonly node: RootOperationNode,
    private readonly slots: readonly Slot[],
  ) {}

  static compile<Row>(query: Compilable<Row>): QueryTemplate<Row> {
    const compiled = query.compile();
    const slots = compiled.parameters.map((value): Slot => {
      if (typeof value !== 'string' || !value.startsWith(MARK)) return { value };
      const name = value.slice(MARK.length);
      return name.startsWith('#') ? { index: Number(name.slice(1)) } : { name };
    });
    return new QueryTemplate<Row>(compiled.sql, compiled.query, slots);
  }

  /** Runs the query with named values (param) or an array of values (positional). */
  async execute(db: Kysely<Schema>, values: Readonly<Record<string, unknown>> | readonly unknown[]): Promise<Row[]> {
    const parameters = this.slots.map((slot) => {
      if ('value' in slot) return slot.value;
      const value = 'index' in slot ? (values as readonly unknown[])[slot.index] : (values as Record<string, unknown>)[slot.name];
      if (value === undefined) throw new Error(`query template: no value for ${'index' in slot ? slot.index : slot.name}`);
      return value;
    });
    const direct = directRunners.get(db);
    if (direct !== undefined) return direct(this.sql, parameters) as Row[];
    // SQLite, outside a transaction, while the connection is free: at once (sync-read.ts)
    const now = readNow(db, this.sql, parameters);
    if (now !== undefined) return now as Row[];
    const compiled: CompiledQuery<Row> = { query: this.node, sql: this.sql, parameters, queryId: this.#queryId };
    const result = await db.executeQuery<Row>(compiled);
    return result.rows;
  }

  async executeTakeFirst(db: Kysely<Schema>, values: Readonly<Record<string, unknown>>): Promise<Row | undefined> {
    return (await this.execute(db, values))[0];
  }
}

const cache = new Map<string, QueryTemplate<unknown>>();

/**
 * The template named `key` for this store's dialect, built by `build` the
 * first time. `key` must name one shape of query: include in it everything
 * that changes the SQL text (which filters are present, for example).
 */
export function template<Row>(dialect: string, key: string, build: () => Compilable<Row>): QueryTemplate<Row> {
  const cacheKey = `${dialect}:${key}`;
  let found = cache.get(cacheKey) as QueryTemplate<Row> | undefined;
  if (found === undefined) {
    found = QueryTemplate.compile(build());
    cache.set(cacheKey, found as QueryTemplate<unknown>);
  }
  return found;
}
