/**
 * What one application (one Fastify instance) reports at /metrics: request
 * durations by route pattern, method and status; rate-limit refusals by key
 * type; the store's connections. Each application has a registry of its own,
 * so that several in one process (tests) never share counts or collide on
 * names; the process's own metrics are added at scrape time
 * (process-metrics.ts), and under `serve --workers N` every worker's are
 * summed (cluster-metrics.ts).
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../db/database.js';
import { clusterScraper } from './cluster-metrics.js';
import { processRegistry } from './process-metrics.js';

/**
 * the limit a 429 was decided by: the key's type, or the client address for
 * requests without a valid key; on the events path, the site key's limit or
 * the address's (CONTRACT C5.3)
 */
export type RefusedBy = 'production' | 'development' | 'address' | 'site' | 'ingest_address';

/** route label of requests that matched no route, so that raw URLs never become labels */
export const UNMATCHED_ROUTE = 'unmatched';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** most API requests take well under a millisecond: the buckets start there */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class AppMetrics {
  readonly registry = new Registry();
  readonly #requests: Histogram<'route' | 'method' | 'status_code'>;
  readonly #refusals: Counter<'key_type'>;
  readonly #keyLookups: Counter;
  readonly #scrapeCluster: (() => Promise<string>) | undefined;

  constructor(poolStats: () => PoolStats) {
    const registers = [this.registry];
    this.#requests = new Histogram({
      name: 'leadlight_http_request_duration_seconds',
      help: 'Time to answer a request, by route pattern, method and status code',
      labelNames: ['route', 'method', 'status_code'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.#refusals = new Counter({
      name: 'leadlight_rate_limit_refusals_total',
      help: 'Requests refused with 429, by the limit that refused them (key type, or address without a valid key)',
      labelNames: ['key_type'],
      registers,
    });
    this.#keyLookups = new Counter({
      name: 'leadlight_api_key_lookups_total',
      help: 'API keys looked up in the database (a key refused by its rate limit is not looked up again in its window, nor an unknown key for 10 s)',
      registers,
    });
    for (const keyType of ['production', 'development', 'address', 'site', 'ingest_address'] satisfies RefusedBy[]) {
      this.#refusals.inc({ key_type: keyType }, 0);
    }
    const pool = (
      name: string,
      help: string,
      read: (stats: PoolStats) => number | undefined,
    ) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const value = read(poolStats());
          if (value !== undefined) this.set(value);
        },
      });
    pool('leadlight_db_pool_connections', 'Database connections open (SQLite: its one connection)', (stats) => stats.connections);
    pool('leadlight_db_pool_max_connections', 'Database connections this process may open', (stats) => stats.max);
    if (poolStats().idle !== undefined) {
      pool('leadlight_db_pool_idle_connections', 'Database connections open and unused', (stats) => stats.idle);
      pool('leadlight_db_pool_waiting_queries', 'Queries waiting for a free database connection', (stats) => stats.waiting);
    }
    this.#scrapeCluster = clusterScraper([processRegistry(), this.registry]);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** `route` is the route pattern (/api/v1/leads/:id), never the URL */
  observeRequest(route: string, method: string, statusCode: number, seconds: number): void {
    this.#requests.observe(
      { route, method: METHODS.has(method) ? method : 'other', status_code: String(statusCode) },
      seconds,
    );
  }

  rateLimited(by: RefusedBy): void {
    this.#refusals.inc({ key_type: by });
  }

  keyLookedUp(): void {
    this.#keyLookups.inc();
  }

  /** the text a scrape is answered with: this application's and its process's, or the whole cluster's */
  async scrape(): Promise<string> {
    if (this.#scrapeCluster !== undefined) return this.#scrapeCluster();
    return Registry.merge([processRegistry(), this.registry]).metrics();
  }
}
