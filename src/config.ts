/**
 * Configuration from the environment (CONTRACT C1.3), validated once at start.
 * A bad value raises ConfigError with one line naming the variable, so that
 * `serve` and every CLI command stop with a message an operator can act on.
 *
 * Written by hand rather than with env-schema: the contract wants one clear line
 * per bad value, and a dozen variables do not need a schema compiler.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** PostgreSQL's bounds on a silent or slow network path (issue 9); 0 turns one off. */
export interface PostgresTimeouts {
  /** server-side statement_timeout of the service's sessions (DATABASE_STATEMENT_TIMEOUT_MS) */
  statementMs: number;
  /** client-side: a query unanswered this long fails and its connection is discarded (DATABASE_QUERY_TIMEOUT_MS) */
  queryMs: number;
  /** waiting for a pooled connection, or to open one (DATABASE_CONNECT_TIMEOUT_MS) */
  connectMs: number;
  /** server-side idle_in_transaction_session_timeout */
  idleInTransactionMs: number;
  /** TCP keep-alive on the pool's sockets: first probe after this much silence */
  keepAliveDelayMs: number;
}

export const DEFAULT_POSTGRES_TIMEOUTS: PostgresTimeouts = {
  statementMs: 10_000,
  queryMs: 15_000,
  connectMs: 5_000,
  idleInTransactionMs: 30_000,
  keepAliveDelayMs: 10_000,
};

/**
 * SQLite's page cache per connection, in MiB (allocated as pages are read, so
 * a small store never fills it): a page found there costs no system call,
 * one read from the file costs a pread and a copy (issue 24, BENCHMARKS.md
 * "GET by id, round three").
 */
export const DEFAULT_SQLITE_CACHE_MIB = 256;

export type DatabaseConfig =
  | { kind: 'sqlite'; filename: string; /** the page cache of each connection (SQLITE_CACHE_MIB) */ cacheMiB?: number }
  | { kind: 'postgres'; url: string; poolSize: number; timeouts?: PostgresTimeouts };

/** The HTTP server's bounds (issue 9): timeouts suited to a server exposed without a proxy, and a cap on connections. */
export interface HttpLimits {
  /** the whole request (headers and body) must arrive within this (REQUEST_TIMEOUT_MS) */
  requestTimeoutMs: number;
  /** the headers must arrive within this (HEADERS_TIMEOUT_MS) */
  headersTimeoutMs: number;
  /** an idle keep-alive connection is closed after this (KEEP_ALIVE_TIMEOUT_MS) */
  keepAliveTimeoutMs: number;
  /** a connection with no bytes either way for this long is closed (CONNECTION_TIMEOUT_MS) */
  connectionTimeoutMs: number;
  /** connections beyond this are closed as they arrive (MAX_CONNECTIONS) */
  maxConnections: number;
  /** on SIGTERM, idle keep-alive connections get this long to send one more request (SHUTDOWN_IDLE_GRACE_MS) */
  shutdownIdleGraceMs: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 15_000,
  keepAliveTimeoutMs: 10_000,
  connectionTimeoutMs: 60_000,
  maxConnections: 1024,
  shutdownIdleGraceMs: 1_000,
};

/** Admission control (issue 9): what is shed with 503 before it can queue without bound. */
export interface AdmissionConfig {
  /** requests past the gate doing work at once (MAX_IN_FLIGHT_REQUESTS) */
  maxInFlight: number;
  /** requests waiting for a slot, over all workspaces (MAX_QUEUED_REQUESTS) */
  maxQueued: number;
  /** a request waiting longer than this is answered 503 (QUEUE_TIMEOUT_MS) */
  queueTimeoutMs: number;
  /** event-loop delay above which new requests are answered 503; 0 off (MAX_EVENT_LOOP_DELAY_MS) */
  maxEventLoopDelayMs: number;
  /** event-loop utilisation (0 to 1) above which new requests are answered 503; 0 off (MAX_EVENT_LOOP_UTILIZATION) */
  maxEventLoopUtilization: number;
}

export const DEFAULT_ADMISSION: AdmissionConfig = {
  maxInFlight: 16,
  // as many as the connections a server takes (issue 19): a waiting request costs a few KiB, while a
  // refusal at once is retried at once by a client that ignores Retry-After, and the refusals then
  // take the CPU the work needed (BENCHMARKS.md, "Overload tails")
  maxQueued: 1024,
  queueTimeoutMs: 1_000,
  maxEventLoopDelayMs: 200,
  // off: a busy but healthy process (an import, a burst) runs near 1 (README, "Operations")
  maxEventLoopUtilization: 0,
};

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface RateLimitConfig {
  production: number;
  development: number;
  unauthenticated: number;
}

/** How much of a visitor's address is kept (CONTRACT C5.5): all of it, its /24 or /48, or nothing. */
export type IpStorage = 'full' | 'truncated' | 'none';

/** Visitor tracking (CONTRACT C5): the tracker's paths, ingest limits, privacy and retention. */
export interface TrackingConfig {
  /** where the tracker script is served (TRACKER_SCRIPT_PATH) */
  scriptPath: string;
  /** where events are received (TRACKER_EVENTS_PATH) */
  eventsPath: string;
  /** requests per minute per site key (RATE_LIMIT_INGEST) */
  ingestLimit: number;
  /** requests per minute per client address on the events path (RATE_LIMIT_INGEST_ADDRESS) */
  ingestAddressLimit: number;
  ipStorage: IpStorage;
  /** an MMDB file of the operator's, 'off', or undefined for the one shipped (DB-IP's city database) */
  geoipDatabase: string | undefined;
  /** events older than this many days are deleted (EVENT_RETENTION_DAYS) */
  eventRetentionDays: number;
}

export const DEFAULT_TRACKING: TrackingConfig = {
  scriptPath: '/t.js',
  eventsPath: '/e',
  ingestLimit: 10_000,
  ingestAddressLimit: 600,
  ipStorage: 'full',
  geoipDatabase: undefined,
  eventRetentionDays: 395,
};

export interface Config {
  database: DatabaseConfig;
  redisUrl: string | undefined;
  host: string;
  port: number;
  logLevel: LogLevel;
  rateLimits: RateLimitConfig;
  /** false, true, or the addresses/CIDRs of trusted proxies */
  trustProxy: boolean | string[];
  /** seed a demo workspace on first start of an empty embedded database (C1.2) */
  demo: boolean;
  /** when set, GET /metrics wants `Authorization: Bearer <token>` */
  metricsToken: string | undefined;
  /** where people reach the dashboard: the base of the links the CLI prints (invitations, resets) */
  publicUrl: string;
  tracking: TrackingConfig;
  http: HttpLimits;
  admission: AdmissionConfig;
  /** lead intelligence (C6): the worker every `serve` process runs */
  intelligence: IntelligenceConfig;
  webhooks: WebhookConfig;
  /** company enrichment from websites and a provider (C6.7) */
  enrichment: EnrichmentConfig;
  /** alert delivery (C10.2) */
  alerts: AlertConfig;
}

export interface IntelligenceConfig {
  /** whether this process refreshes scores, personalities and segments (INTELLIGENCE_WORKER, default on) */
  worker: boolean;
  /** how often it looks for due visitors (INTELLIGENCE_INTERVAL_MS) */
  intervalMs: number;
  /** reverse DNS lookups of addresses whose network names no company (C6.6; REVERSE_DNS, default on) */
  reverseDns: boolean;
  /** the resolvers asked (DNS_SERVERS, `host:port` comma-separated); empty: the system's */
  dnsServers: string[];
}

export const DEFAULT_INTELLIGENCE: IntelligenceConfig = { worker: true, intervalMs: 5_000, reverseDns: true, dnsServers: [] };

/** DNS_SERVERS: `host:port` (or an address alone, port 53), comma-separated; IPv6 as `[addr]:port`. */
export function parseDnsServers(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((item) => {
    const entry = item.trim();
    const match = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(entry) ?? /^([0-9.]+)(?::(\d{1,5}))?$/.exec(entry) ?? /^([0-9a-fA-F:]+)()$/.exec(entry);
    const address = match?.[1] ?? '';
    const port = match?.[2] === undefined || match[2] === '' ? 53 : Number(match[2]);
    if (net.isIP(address) === 0 || port < 1 || port > 65535) {
      throw new ConfigError(`DNS_SERVERS must list resolvers as host:port, comma-separated, with IP addresses (got "${entry}")`);
    }
    return net.isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`;
  });
}

/** Webhook delivery (CONTRACT C8.5). */
export interface WebhookConfig {
  /** WEBHOOK_ALLOW_PRIVATE=1: endpoints on loopback and private addresses are allowed (tests, closed networks) */
  allowPrivate: boolean;
  /** WEBHOOK_RETRY_BASE_MS: the first retry's delay; each next one doubles it (with jitter), up to an hour */
  retryBaseMs: number;
  /** WEBHOOK_POLL_MS: how often each process looks for due deliveries */
  pollMs: number;
}

export const DEFAULT_WEBHOOKS: WebhookConfig = { allowPrivate: false, retryBaseMs: 5_000, pollMs: 1_000 };

/** Alert delivery (CONTRACT C10.2): email over SMTP, links to the dashboard. */
export interface AlertConfig {
  /** SMTP_URL: smtp:// or smtps://, with optional credentials; unset: email alerts fail (and say why) */
  smtpUrl: string | undefined;
  /** SMTP_FROM: the sender of alert emails */
  smtpFrom: string;
  /** PUBLIC_URL: the base of the dashboard links in messages */
  publicUrl: string | undefined;
}

export const DEFAULT_ALERTS: AlertConfig = { smtpUrl: undefined, smtpFrom: 'Leadlight <alerts@localhost>', publicUrl: undefined };

function alertConfig(env: Env, publicBase: string): AlertConfig {
  const smtpUrl = read(env, 'SMTP_URL');
  if (smtpUrl !== undefined) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(smtpUrl);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:')) {
      throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL, such as smtps://user:password@smtp.example.com:465');
    }
  }
  return { smtpUrl, smtpFrom: read(env, 'SMTP_FROM') ?? DEFAULT_ALERTS.smtpFrom, publicUrl: publicBase };
}

/** Company enrichment (CONTRACT C6.7; docs/intelligence.md, "Enrichment"). */
export interface EnrichmentConfig {
  /** ENRICHMENT=off: neither websites nor the provider are read */
  enabled: boolean;
  /** ENRICHMENT_WEBSITE_URL: the page read for a company, `{domain}` replaced */
  websiteUrl: string;
  /** ENRICHMENT_PROVIDER_URL: a provider's URL with `{domain}`, when one is used */
  providerUrl: string | undefined;
  /** ENRICHMENT_PROVIDER_TOKEN: sent to the provider as a Bearer token */
  providerToken: string | undefined;
  /** ENRICHMENT_ALLOW_PRIVATE=1: websites on loopback and private addresses are read (tests, closed networks) */
  allowPrivate: boolean;
  /** ENRICHMENT_TIMEOUT_MS: how long one source may take, redirects included */
  timeoutMs: number;
  /** ENRICHMENT_POLL_MS: how often each process looks for companies due */
  pollMs: number;
}

export const DEFAULT_ENRICHMENT: EnrichmentConfig = {
  enabled: true,
  websiteUrl: 'https://{domain}/',
  providerUrl: undefined,
  providerToken: undefined,
  allowPrivate: false,
  timeoutMs: 5_000,
  pollMs: 5_000,
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const DEFAULT_SQLITE_FILE = './data/leadlight.db';

type Env = Record<string, string | undefined>;

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function fraction(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^(0(\.\d+)?|1(\.0+)?)$/.test(raw)) throw new ConfigError(`${name} must be a number from 0 to 1 (got "${raw}")`);
  return Number(raw);
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

/** Parses DATABASE_URL: a file path or sqlite: URL is SQLite; postgres:// is PostgreSQL. */
export function parseDatabaseUrl(raw: string, poolSize = 10): DatabaseConfig {
  if (/^postgres(ql)?:\/\//i.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError(`DATABASE_URL is not a valid PostgreSQL URL (got "${redactUrl(raw)}")`);
    }
    return { kind: 'postgres', url: raw, poolSize };
  }
  let filename = raw;
  if (/^sqlite:/i.test(raw)) {
    filename = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/|\.)/, '');
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    throw new ConfigError(
      `DATABASE_URL must be a file path, a sqlite: URL or a postgres:// URL (got "${redactUrl(raw)}")`,
    );
  }
  if (filename === '') throw new ConfigError('DATABASE_URL names no SQLite file');
  return { kind: 'sqlite', filename: filename === ':memory:' ? filename : path.resolve(filename) };
}

function redactUrl(raw: string): string {
  return raw.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');
}

/** A token of visible ASCII long enough not to be guessed; the value itself is never echoed. */
function metricsToken(env: Env): string | undefined {
  const raw = read(env, 'METRICS_TOKEN');
  if (raw === undefined) return undefined;
  if (!/^[\x21-\x7e]{16,1024}$/.test(raw)) {
    throw new ConfigError(
      `METRICS_TOKEN must be 16 to 1024 visible ASCII characters without spaces (got ${raw.length} characters)`,
    );
  }
  return raw;
}

function trustProxy(env: Env): boolean | string[] {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined) return false;
  const lower = raw.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(lower)) return true;
  if (['0', 'false', 'no', 'off'].includes(lower)) return false;
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.every((entry) => /^[0-9a-f:.]+(\/\d{1,3})?$/i.test(entry))) return entries;
  throw new ConfigError(
    `TRUST_PROXY must be true, false or a comma-separated list of proxy addresses (got "${raw}")`,
  );
}

/** PUBLIC_URL, else the address `serve` listens on (a wildcard host shown as loopback). */
function publicUrl(env: Env, host: string, port: number): string {
  const raw = read(env, 'PUBLIC_URL');
  if (raw === undefined) {
    const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    return `http://${shown}:${port}`;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an http:// or https:// URL (got "${raw}")`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.search !== '' || url.hash !== '' || url.username !== '') {
    throw new ConfigError(`PUBLIC_URL must be an http:// or https:// URL without query, fragment or credentials (got "${raw}")`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Paths the application itself answers, which the tracker's paths must not take. */
const RESERVED_PATHS = /^\/(api|healthz|readyz|metrics|docs)(\/|$)/i;

function trackerPath(env: Env, name: string, fallback: string): string {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(raw) || RESERVED_PATHS.test(raw) || raw === '/') {
    throw new ConfigError(
      `${name} must be a path such as ${fallback} (letters, digits, . _ ~ - and /), outside /api, /healthz, /readyz, /metrics and /docs (got "${raw}")`,
    );
  }
  return raw;
}

function ipStorage(env: Env): IpStorage {
  const raw = (read(env, 'IP_STORAGE') ?? 'full').toLowerCase();
  if (raw === 'full' || raw === 'truncated' || raw === 'none') return raw;
  throw new ConfigError(`IP_STORAGE must be full, truncated or none (got "${raw}")`);
}

/** An MMDB file that must be readable now, so a typo stops the process at start rather than at the first visit. */
function geoipDatabase(env: Env): string | undefined {
  const raw = read(env, 'GEOIP_DATABASE');
  if (raw === undefined) return undefined;
  if (raw.toLowerCase() === 'off') return 'off';
  const file = path.resolve(raw);
  try {
    fs.accessSync(file, fs.constants.R_OK);
    if (!fs.statSync(file).isFile()) throw new Error('not a file');
  } catch {
    throw new ConfigError(`GEOIP_DATABASE must name a readable MMDB file, or be off (got "${raw}")`);
  }
  return file;
}

function tracking(env: Env): TrackingConfig {
  const scriptPath = trackerPath(env, 'TRACKER_SCRIPT_PATH', DEFAULT_TRACKING.scriptPath);
  const eventsPath = trackerPath(env, 'TRACKER_EVENTS_PATH', DEFAULT_TRACKING.eventsPath);
  if (scriptPath === eventsPath) throw new ConfigError(`TRACKER_SCRIPT_PATH and TRACKER_EVENTS_PATH must differ (both "${scriptPath}")`);
  return {
    scriptPath,
    eventsPath,
    ingestLimit: integer(env, 'RATE_LIMIT_INGEST', DEFAULT_TRACKING.ingestLimit, 1, 1_000_000_000),
    ingestAddressLimit: integer(env, 'RATE_LIMIT_INGEST_ADDRESS', DEFAULT_TRACKING.ingestAddressLimit, 1, 1_000_000_000),
    ipStorage: ipStorage(env),
    geoipDatabase: geoipDatabase(env),
    // at least the 7 days within which events are accepted (C5.3), and a day more
    eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', DEFAULT_TRACKING.eventRetentionDays, 8, 36_500),
  };
}

function postgresTimeouts(env: Env): PostgresTimeouts {
  const d = DEFAULT_POSTGRES_TIMEOUTS;
  return {
    statementMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', d.statementMs, 0, 86_400_000),
    queryMs: integer(env, 'DATABASE_QUERY_TIMEOUT_MS', d.queryMs, 0, 86_400_000),
    connectMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', d.connectMs, 100, 600_000),
    idleInTransactionMs: d.idleInTransactionMs,
    keepAliveDelayMs: d.keepAliveDelayMs,
  };
}

function httpLimits(env: Env): HttpLimits {
  const d = DEFAULT_HTTP_LIMITS;
  const limits: HttpLimits = {
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', d.requestTimeoutMs, 100, 3_600_000),
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', d.headersTimeoutMs, 100, 3_600_000),
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', d.keepAliveTimeoutMs, 100, 3_600_000),
    connectionTimeoutMs: integer(env, 'CONNECTION_TIMEOUT_MS', d.connectionTimeoutMs, 0, 3_600_000),
    maxConnections: integer(env, 'MAX_CONNECTIONS', d.maxConnections, 1, 1_000_000),
    shutdownIdleGraceMs: integer(env, 'SHUTDOWN_IDLE_GRACE_MS', d.shutdownIdleGraceMs, 0, 60_000),
  };
  // Node requires it: headers cannot be given longer than the whole request
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new ConfigError(`HEADERS_TIMEOUT_MS (${limits.headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${limits.requestTimeoutMs})`);
  }
  return limits;
}

function admission(env: Env): AdmissionConfig {
  const d = DEFAULT_ADMISSION;
  return {
    maxInFlight: integer(env, 'MAX_IN_FLIGHT_REQUESTS', d.maxInFlight, 1, 100_000),
    maxQueued: integer(env, 'MAX_QUEUED_REQUESTS', d.maxQueued, 0, 1_000_000),
    queueTimeoutMs: integer(env, 'QUEUE_TIMEOUT_MS', d.queueTimeoutMs, 1, 600_000),
    maxEventLoopDelayMs: integer(env, 'MAX_EVENT_LOOP_DELAY_MS', d.maxEventLoopDelayMs, 0, 600_000),
    maxEventLoopUtilization: fraction(env, 'MAX_EVENT_LOOP_UTILIZATION', d.maxEventLoopUtilization),
  };
}

/** An http(s) URL with `{domain}` in it (ENRICHMENT_WEBSITE_URL, ENRICHMENT_PROVIDER_URL). */
function domainUrl(env: Env, name: string): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw.replaceAll('{domain}', 'example.com'));
  } catch {
    url = undefined;
  }
  if (url === undefined || !['http:', 'https:'].includes(url.protocol) || !raw.includes('{domain}')) {
    throw new ConfigError(`${name} must be an http:// or https:// URL containing {domain}, such as https://{domain}/ (got "${raw}")`);
  }
  return raw;
}

function enrichment(env: Env): EnrichmentConfig {
  const d = DEFAULT_ENRICHMENT;
  const providerUrl = domainUrl(env, 'ENRICHMENT_PROVIDER_URL');
  const providerToken = read(env, 'ENRICHMENT_PROVIDER_TOKEN');
  if (providerToken !== undefined && !/^[\x21-\x7e]{1,4096}$/.test(providerToken)) {
    throw new ConfigError(`ENRICHMENT_PROVIDER_TOKEN must be 1 to 4096 visible ASCII characters without spaces (got ${providerToken.length} characters)`);
  }
  if (providerToken !== undefined && providerUrl === undefined) {
    throw new ConfigError('ENRICHMENT_PROVIDER_TOKEN is set but ENRICHMENT_PROVIDER_URL is not: set the provider\'s URL, or remove the token');
  }
  return {
    enabled: flag(env, 'ENRICHMENT', d.enabled),
    websiteUrl: domainUrl(env, 'ENRICHMENT_WEBSITE_URL') ?? d.websiteUrl,
    providerUrl,
    providerToken,
    allowPrivate: flag(env, 'ENRICHMENT_ALLOW_PRIVATE', d.allowPrivate),
    timeoutMs: integer(env, 'ENRICHMENT_TIMEOUT_MS', d.timeoutMs, 10, 30_000),
    // at most 50 s between rounds, so that a new company is enriched within 60 s
    pollMs: integer(env, 'ENRICHMENT_POLL_MS', d.pollMs, 10, 50_000),
  };
}

export function loadConfig(env: Env = process.env): Config {
  const poolSize = integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000);
  const parsed = parseDatabaseUrl(read(env, 'DATABASE_URL') ?? DEFAULT_SQLITE_FILE, poolSize);
  const timeouts = postgresTimeouts(env);
  const database: DatabaseConfig =
    parsed.kind === 'postgres'
      ? { ...parsed, timeouts }
      : { ...parsed, cacheMiB: integer(env, 'SQLITE_CACHE_MIB', DEFAULT_SQLITE_CACHE_MIB, 2, 65_536) };

  const redisUrl = read(env, 'REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/i.test(redisUrl)) {
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL (got "${redactUrl(redisUrl)}")`);
  }

  const logLevel = (read(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel as LogLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }

  const host = read(env, 'HOST') ?? '127.0.0.1';
  if (/\s/.test(host)) throw new ConfigError(`HOST must be a host name or address (got "${host}")`);

  const port = integer(env, 'PORT', 3000, 0, 65535);
  return {
    database,
    redisUrl,
    host,
    port,
    logLevel: logLevel as LogLevel,
    rateLimits: {
      production: integer(env, 'RATE_LIMIT_PRODUCTION', 1000, 1, 1_000_000_000),
      development: integer(env, 'RATE_LIMIT_DEVELOPMENT', 100, 1, 1_000_000_000),
      unauthenticated: integer(env, 'RATE_LIMIT_UNAUTHENTICATED', 60, 1, 1_000_000_000),
    },
    trustProxy: trustProxy(env),
    demo: database.kind === 'sqlite' && flag(env, 'LEADLIGHT_DEMO', true),
    metricsToken: metricsToken(env),
    publicUrl: publicUrl(env, host, port),
    tracking: tracking(env),
    http: httpLimits(env),
    admission: admission(env),
    intelligence: {
      worker: flag(env, 'INTELLIGENCE_WORKER', DEFAULT_INTELLIGENCE.worker),
      // at most 50 s between rounds, so that what C6 derives is current within 60 s
      intervalMs: integer(env, 'INTELLIGENCE_INTERVAL_MS', DEFAULT_INTELLIGENCE.intervalMs, 10, 50_000),
      reverseDns: flag(env, 'REVERSE_DNS', DEFAULT_INTELLIGENCE.reverseDns),
      dnsServers: parseDnsServers(read(env, 'DNS_SERVERS')),
    },
    webhooks: {
      allowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE', false),
      retryBaseMs: integer(env, 'WEBHOOK_RETRY_BASE_MS', DEFAULT_WEBHOOKS.retryBaseMs, 1, 3_600_000),
      pollMs: integer(env, 'WEBHOOK_POLL_MS', DEFAULT_WEBHOOKS.pollMs, 10, 86_400_000),
    },
    enrichment: enrichment(env),
    alerts: alertConfig(env, publicUrl(env, host, port)),
  };
}
