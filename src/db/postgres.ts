/**
 * The shared store: Kysely over node-postgres. Sessions run in UTC and the
 * type parsers are set so that rows come back in the same shapes as SQLite's:
 * timestamps as YYYY-MM-DDTHH:mm:ss.sssZ text and JSON as text, decoded once by
 * the codec.
 */
import pg from 'pg';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import { bulkSession, type Copier } from './postgres-copy.js';
import type { Schema } from './schema.js';

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
    return pg.types.getTypeParser(oid, format ?? 'text');
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

/**
 * Kysely sends every query unnamed, so PostgreSQL parses and plans it each
 * time. Naming each distinct SQL text makes it a prepared statement of the
 * connection: parsed once, and planned once it has run a few times.
 */
function useNamedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (config: pg.QueryConfig) => Promise<pg.QueryResult>;
  (client as unknown as { query: unknown }).query = (text: unknown, values?: unknown[]) => {
    if (typeof text !== 'string') return (query as (...args: unknown[]) => unknown)(text, values);
    const name = statementName(text);
    return query(name === undefined ? { text, values } : { name, text, values });
  };
}

export interface PostgresOptions {
  url: string;
  poolSize: number;
  onPoolError?: (error: Error) => void;
}

export function openPostgres(options: PostgresOptions) {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    options: '-c TimeZone=UTC',
    application_name: 'leadlight',
    connectionTimeoutMillis: 5000,
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
    useNamedStatements(client);
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
