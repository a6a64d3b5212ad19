/**
 * The shared store: Kysely over node-postgres. Sessions run in UTC and the
 * type parsers are set so that rows come back in the same shapes as SQLite's:
 * timestamps as YYYY-MM-DDTHH:mm:ss.sssZ text and JSON as text, decoded once by
 * the codec.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import type { PostgresTimeouts } from '../config.js';
import { bulkSession, type Copier } from './postgres-copy.js';
import { unboundedClients } from './postgres-pool-marks.js';
import type { Schema } from './schema.js';

/** node-postgres, loaded once a PostgreSQL store is opened: commands on SQLite never load it. */
const driver = (): typeof pg => createRequire(import.meta.url)('pg') as typeof pg;

const TIMESTAMPTZ_OID = 1184;
const JSON_OID = 114;
const JSONB_OID = 3802;

/** '2024-05-06 07:08:09.123456+00' → '2024-05-06T07:08:09.123Z' */
export function isoFromPostgres(text: string): string {
  let millis = '000';
  if (text.charCodeAt(19) === 46 /* . */) {
    const end = text.indexOf('+', 20);
    millis = (text.slice(20, end === -1 ? undefined : end) + '00').slice(0, 3);
  }
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${millis}Z`;
}

const identity = (value: string) => value;

const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMPTZ_OID) return isoFromPostgres;
    if (oid === JSON_OID || oid === JSONB_OID) return identity;
    return driver().types.getTypeParser(oid, format ?? 'text');
  },
};

/** statements named so far; past this many, new texts run unnamed */
const MAX_NAMED_STATEMENTS = 500;
const NAMEABLE = /^\s*(select|insert|update|delete|with)\b/i;
const statementNames = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS && text.length < 8000 && NAMEABLE.test(text)) {
    name = `leadlight_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/** A query unanswered within the client-side bound: its connection was destroyed, the request answers 503. */
export class QueryTimeoutError extends Error {
  override name = 'QueryTimeoutError';
  readonly code = 'ETIMEDOUT';
  constructor(ms: number) {
    super(`Query read timeout: no answer from PostgreSQL within ${ms} ms; the connection was discarded`);
  }
}


type Query = (config: pg.QueryConfig) => Promise<pg.QueryResult>;

/**
 * Bounds a query's wait for an answer. node-postgres's own query_timeout
 * fails the query but keeps the connection, whose stream stays stuck behind
 * the unanswered query (a silent network path: nothing is ever read), so the
 * pool would hand it out again. Here the connection's socket is destroyed as
 * well: the pool drops it on release and opens a fresh one for the next query.
 */
function bounded(client: pg.PoolClient, query: Query, config: pg.QueryConfig, ms: number): Promise<pg.QueryResult> {
  const pending = query(config);
  if (ms <= 0 || unboundedClients.has(client)) return pending;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new QueryTimeoutError(ms));
      (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    }, ms);
    pending.then(
      (result) => {
        clearTimeout(timer);
        resolve(result);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error as Error);
      },
    );
  });
}

type Callback = (error: Error | null, result: pg.QueryResult) => void;

/**
 * The driver's query in its callback form, answered through a promise of our
 * own. The driver's own promise form kept every answer's rows from being
 * collected by the young generation's collections: they were all promoted and
 * lived until the next full collection (an export of 200,000 leads grew the
 * heap by 110 to 150 MB through it, against 17 MB in the callback form;
 * BENCHMARKS.md "Export memory, round two").
 */
function callbackQuery(client: pg.PoolClient): Query {
  const query = client.query.bind(client) as unknown as (config: pg.QueryConfig, callback: Callback) => void;
  return (config) => new Promise((resolve, reject) => query(config, (error, result) => (error ? reject(error) : resolve(result))));
}

/**
 * Kysely sends every query unnamed, so PostgreSQL parses and plans it each
 * time. Naming each distinct SQL text makes it a prepared statement of the
 * connection: parsed once, and planned once it has run a few times.
 * Each query is also bounded in time (see `bounded`).
 */
function useNamedStatements(client: pg.PoolClient, queryTimeoutMs: number): void {
  const driverQuery = client.query.bind(client) as (...args: unknown[]) => unknown;
  const query = callbackQuery(client);
  (client as unknown as { query: unknown }).query = (text: unknown, values?: unknown[]) => {
    if (typeof text !== 'string') return driverQuery(text, values);
    const name = statementName(text);
    return bounded(client, query, name === undefined ? { text, values } : { name, text, values }, queryTimeoutMs);
  };
}

export interface PostgresOptions {
  url: string;
  poolSize: number;
  /** none: no bounds (migrations, whose statements may run long) */
  timeouts?: PostgresTimeouts;
  onPoolError?: (error: Error) => void;
}

export function openPostgres(options: PostgresOptions) {
  const timeouts = options.timeouts;
  const { Pool } = driver();
  const pool = new Pool({
    connectionString: options.url,
    max: options.poolSize,
    options: '-c TimeZone=UTC',
    application_name: 'leadlight',
    connectionTimeoutMillis: timeouts?.connectMs ?? 5000,
    // a peer that vanished without a reset is found by TCP keep-alive probes
    keepAlive: true,
    keepAliveInitialDelayMillis: timeouts?.keepAliveDelayMs ?? 10_000,
    // set by the server on each session: a statement, or a transaction left open, cannot hold a connection for ever
    ...(timeouts !== undefined && timeouts.statementMs > 0 ? { statement_timeout: timeouts.statementMs } : {}),
    ...(timeouts !== undefined && timeouts.idleInTransactionMs > 0
      ? { idle_in_transaction_session_timeout: timeouts.idleInTransactionMs }
      : {}),
    types: typeParsers as unknown as pg.CustomTypesConfig,
  });
  // A client losing its connection emits 'error': on the pool while idle, on
  // the client itself while checked out (Kysely does not listen there). Without
  // a listener either would end the process; the query in flight fails anyway
  // and its request answers 503.
  const onError = (error: Error) => options.onPoolError?.(error);
  pool.on('error', onError);
  const prepared = new WeakSet<pg.PoolClient>();
  const prepare = (client: pg.PoolClient) => {
    if (prepared.has(client)) return;
    client.on('error', onError);
    useNamedStatements(client, timeouts?.queryMs ?? 0);
    prepared.add(client);
  };
  const guardedPool = {
    async connect() {
      const client = await pool.connect();
      prepare(client);
      return client;
    },
    end: () => pool.end(),
  };
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: guardedPool }) });
  return {
    db,
    pool,
    poolStats: () => ({ connections: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: options.poolSize }),
    bulk: <T>(work: (trx: Transaction<Schema>, copy: Copier) => Promise<T>) => bulkSession(pool, prepare, work),
  };
}
