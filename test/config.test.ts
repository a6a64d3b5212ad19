/**
 * Configuration from the environment (CONTRACT C1.3): the defaults, how
 * DATABASE_URL chooses the store, one clear ConfigError line per bad value
 * (and the CLI stopping on it), and when the first-start demo is on (C1.2).
 */
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/program.js';
import {
  ConfigError,
  DEFAULT_ADMISSION,
  DEFAULT_ENRICHMENT,
  DEFAULT_HTTP_LIMITS,
  DEFAULT_ALERTS,
  DEFAULT_SQLITE_CACHE_MIB,
  DEFAULT_INTELLIGENCE,
  DEFAULT_TRACKING,
  DEFAULT_WEBHOOKS,
  loadConfig,
  type Config,
} from '../src/config.js';

describe('configuration (C1.3)', () => {
  it('C1.3: the defaults, with DATABASE_URL resolved to an absolute path', () => {
    const config = loadConfig({});
    const expected: Config = {
      database: { kind: 'sqlite', filename: path.resolve(process.cwd(), 'data', 'leadlight.db'), cacheMiB: DEFAULT_SQLITE_CACHE_MIB },
      redisUrl: undefined,
      host: '127.0.0.1',
      port: 3000,
      logLevel: 'info',
      rateLimits: { production: 1000, development: 100, unauthenticated: 60 },
      trustProxy: false,
      demo: true,
      metricsToken: undefined,
      publicUrl: 'http://127.0.0.1:3000',
      tracking: DEFAULT_TRACKING,
      http: DEFAULT_HTTP_LIMITS,
      admission: DEFAULT_ADMISSION,
      intelligence: DEFAULT_INTELLIGENCE,
      webhooks: DEFAULT_WEBHOOKS,
      enrichment: DEFAULT_ENRICHMENT,
      alerts: { ...DEFAULT_ALERTS, publicUrl: 'http://127.0.0.1:3000' },
    };
    expect(config).toEqual(expected);
    expect(config.database.kind === 'sqlite' && path.isAbsolute(config.database.filename)).toBe(true);
  });

  it('C1.3: every variable is read when set', () => {
    const config = loadConfig({
      DATABASE_URL: '/srv/leadlight/main.db',
      REDIS_URL: 'redis://127.0.0.1:6379',
      HOST: '0.0.0.0',
      PORT: '8080',
      LOG_LEVEL: 'debug',
      RATE_LIMIT_PRODUCTION: '500',
      RATE_LIMIT_DEVELOPMENT: '50',
      RATE_LIMIT_UNAUTHENTICATED: '10',
      TRUST_PROXY: 'true',
      METRICS_TOKEN: 'scrape-token-0123456789',
      PUBLIC_URL: 'https://leads.example.com/',
    });
    expect(config).toMatchObject({
      publicUrl: 'https://leads.example.com',
      database: { kind: 'sqlite', filename: '/srv/leadlight/main.db' },
      redisUrl: 'redis://127.0.0.1:6379',
      host: '0.0.0.0',
      port: 8080,
      logLevel: 'debug',
      rateLimits: { production: 500, development: 50, unauthenticated: 10 },
      trustProxy: true,
      metricsToken: 'scrape-token-0123456789',
    });
  });

  it.each([
    ['relative/leadlight.db', path.resolve('relative/leadlight.db')],
    ['/var/lib/leadlight.db', '/var/lib/leadlight.db'],
    ['sqlite:relative.db', path.resolve('relative.db')],
    ['sqlite:/var/lib/url.db', '/var/lib/url.db'],
    ['sqlite:///var/lib/triple.db', '/var/lib/triple.db'],
  ])('C1.3: DATABASE_URL=%s is SQLite at %s', (url, filename) => {
    expect(loadConfig({ DATABASE_URL: url }).database).toEqual({ kind: 'sqlite', filename, cacheMiB: DEFAULT_SQLITE_CACHE_MIB });
  });

  it('issue 24: SQLITE_CACHE_MIB sizes the SQLite page cache (default 256 MiB); PostgreSQL has none', () => {
    expect(DEFAULT_SQLITE_CACHE_MIB).toBe(256);
    expect(loadConfig({ DATABASE_URL: '/srv/a.db', SQLITE_CACHE_MIB: '1024' }).database).toEqual({ kind: 'sqlite', filename: '/srv/a.db', cacheMiB: 1024 });
    expect(loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/leadlight', SQLITE_CACHE_MIB: '1024' }).database).not.toHaveProperty('cacheMiB');
    // its bounds, at their edges (1 and 65,537 are refused below)
    expect(loadConfig({ DATABASE_URL: '/srv/a.db', SQLITE_CACHE_MIB: '2' }).database).toMatchObject({ cacheMiB: 2 });
    expect(loadConfig({ DATABASE_URL: '/srv/a.db', SQLITE_CACHE_MIB: '65536' }).database).toMatchObject({ cacheMiB: 65_536 });
  });

  it.each(['postgres://leadlight:secret@db.example:5432/leadlight', 'postgresql://127.0.0.1/leadlight'])(
    'C1.3: DATABASE_URL=%s is PostgreSQL',
    (url) => {
      expect(loadConfig({ DATABASE_URL: url }).database).toMatchObject({ kind: 'postgres', url });
    },
  );

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['RATE_LIMIT_DEVELOPMENT', '0'],
    ['RATE_LIMIT_PRODUCTION', '1.5'],
    ['RATE_LIMIT_UNAUTHENTICATED', 'many'],
    ['LOG_LEVEL', 'loud'],
    ['PUBLIC_URL', 'ftp://leads.example.com'],
    ['PUBLIC_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://x'],
    ['TRUST_PROXY', 'maybe'],
    ['METRICS_TOKEN', 'short'],
    ['METRICS_TOKEN', 'has a space in the middle'],
    ['RATE_LIMIT_INGEST', '0'],
    ['RATE_LIMIT_INGEST_ADDRESS', 'lots'],
    ['IP_STORAGE', 'partial'],
    ['EVENT_RETENTION_DAYS', '7'],
    ['EVENT_RETENTION_DAYS', 'forever'],
    ['TRACKER_SCRIPT_PATH', 't.js'],
    ['TRACKER_SCRIPT_PATH', '/api/v1/t.js'],
    ['TRACKER_EVENTS_PATH', '/e?x=1'],
    ['TRACKER_EVENTS_PATH', '/healthz'],
    ['GEOIP_DATABASE', '/no/such/file.mmdb'],
    ['REQUEST_TIMEOUT_MS', 'soon'],
    ['HEADERS_TIMEOUT_MS', '99'],
    ['MAX_CONNECTIONS', '0'],
    ['SQLITE_CACHE_MIB', '1'],
    ['SQLITE_CACHE_MIB', '65537'],
    ['SQLITE_CACHE_MIB', 'lots'],
    ['MAX_IN_FLIGHT_REQUESTS', '-1'],
    ['QUEUE_TIMEOUT_MS', '0'],
    ['MAX_EVENT_LOOP_UTILIZATION', '1.5'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '1s'],
    ['ENRICHMENT', 'sometimes'],
    ['ENRICHMENT_WEBSITE_URL', 'https://example.com/'],
    ['ENRICHMENT_WEBSITE_URL', 'ftp://{domain}/'],
    ['ENRICHMENT_PROVIDER_URL', 'not a url {domain}'],
    ['ENRICHMENT_PROVIDER_URL', 'https://provider.example/companies'],
    ['ENRICHMENT_PROVIDER_TOKEN', 'has a space'],
    ['ENRICHMENT_ALLOW_PRIVATE', 'perhaps'],
    ['ENRICHMENT_TIMEOUT_MS', '9'],
    ['ENRICHMENT_TIMEOUT_MS', '30001'],
    ['ENRICHMENT_POLL_MS', '50001'],
  ])('C1.3: %s=%s throws a ConfigError of one line naming the variable', (name, value) => {
    let thrown: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const message = (thrown as Error).message;
    expect(message).toContain(name);
    expect(message).not.toContain('\n');
  });

  it('issue 9: the reliability variables are read when set', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://127.0.0.1/leadlight',
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
      DATABASE_QUERY_TIMEOUT_MS: '3000',
      DATABASE_CONNECT_TIMEOUT_MS: '1500',
      REQUEST_TIMEOUT_MS: '20000',
      HEADERS_TIMEOUT_MS: '5000',
      KEEP_ALIVE_TIMEOUT_MS: '7000',
      CONNECTION_TIMEOUT_MS: '0',
      MAX_CONNECTIONS: '300',
      SHUTDOWN_IDLE_GRACE_MS: '250',
      MAX_IN_FLIGHT_REQUESTS: '8',
      MAX_QUEUED_REQUESTS: '16',
      QUEUE_TIMEOUT_MS: '500',
      MAX_EVENT_LOOP_DELAY_MS: '200',
      MAX_EVENT_LOOP_UTILIZATION: '0.9',
    });
    expect(config.database).toMatchObject({ timeouts: { statementMs: 2000, queryMs: 3000, connectMs: 1500 } });
    expect(config.http).toEqual({
      requestTimeoutMs: 20000,
      headersTimeoutMs: 5000,
      keepAliveTimeoutMs: 7000,
      connectionTimeoutMs: 0,
      maxConnections: 300,
      shutdownIdleGraceMs: 250,
    });
    expect(config.admission).toEqual({
      maxInFlight: 8,
      maxQueued: 16,
      queueTimeoutMs: 500,
      maxEventLoopDelayMs: 200,
      maxEventLoopUtilization: 0.9,
    });
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '2000' })).toThrow(/HEADERS_TIMEOUT_MS/);
  });

  it('C5: the tracking variables are read when set', () => {
    const config = loadConfig({
      TRACKER_SCRIPT_PATH: '/assets/la.js',
      TRACKER_EVENTS_PATH: '/collect/v2',
      RATE_LIMIT_INGEST: '50',
      RATE_LIMIT_INGEST_ADDRESS: '5',
      IP_STORAGE: 'Truncated',
      GEOIP_DATABASE: 'off',
      EVENT_RETENTION_DAYS: '30',
    });
    expect(config.tracking).toEqual({
      scriptPath: '/assets/la.js',
      eventsPath: '/collect/v2',
      ingestLimit: 50,
      ingestAddressLimit: 5,
      ipStorage: 'truncated',
      geoipDatabase: 'off',
      eventRetentionDays: 30,
    });
    expect(loadConfig({ GEOIP_DATABASE: path.relative(process.cwd(), import.meta.filename) }).tracking.geoipDatabase).toBe(import.meta.filename);
    expect(() => loadConfig({ TRACKER_SCRIPT_PATH: '/x', TRACKER_EVENTS_PATH: '/x' })).toThrow(/TRACKER_SCRIPT_PATH and TRACKER_EVENTS_PATH must differ/);
  });

  it('C6.6: REVERSE_DNS and DNS_SERVERS are read when set; a bad resolver is refused', () => {
    expect(loadConfig({}).intelligence).toMatchObject({ reverseDns: true, dnsServers: [] });
    const config = loadConfig({ REVERSE_DNS: 'off', DNS_SERVERS: '192.0.2.53:5353, 198.51.100.1, [2001:db8::1]:53' });
    expect(config.intelligence).toMatchObject({ reverseDns: false, dnsServers: ['192.0.2.53:5353', '198.51.100.1:53', '[2001:db8::1]:53'] });
    expect(() => loadConfig({ DNS_SERVERS: 'dns.example.com:53' })).toThrow(/DNS_SERVERS must list resolvers as host:port/);
    expect(() => loadConfig({ DNS_SERVERS: '192.0.2.53:70000' })).toThrow(/DNS_SERVERS/);
    expect(() => loadConfig({ REVERSE_DNS: 'maybe' })).toThrow(/REVERSE_DNS must be true or false/);
  });

  it('C1.3: a bad METRICS_TOKEN is reported without echoing it', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'tooshort' })).toThrow(/^METRICS_TOKEN must be [^\n]*\(got 8 characters\)$/);
    expect(() => loadConfig({ METRICS_TOKEN: 'tooshort' })).not.toThrow(/tooshort/);
  });

  it('C6.7: the enrichment variables are read, and a token without a provider is refused in one line', () => {
    expect(
      loadConfig({
        ENRICHMENT: 'off',
        ENRICHMENT_WEBSITE_URL: 'http://127.0.0.1:8080/sites/{domain}/',
        ENRICHMENT_PROVIDER_URL: 'https://provider.example/v2/companies/find?domain={domain}',
        ENRICHMENT_PROVIDER_TOKEN: 'sk_live_abc',
        ENRICHMENT_ALLOW_PRIVATE: '1',
        ENRICHMENT_TIMEOUT_MS: '30000',
        ENRICHMENT_POLL_MS: '50000',
      }).enrichment,
    ).toEqual({
      enabled: false,
      websiteUrl: 'http://127.0.0.1:8080/sites/{domain}/',
      providerUrl: 'https://provider.example/v2/companies/find?domain={domain}',
      providerToken: 'sk_live_abc',
      allowPrivate: true,
      timeoutMs: 30_000,
      pollMs: 50_000,
    });
    expect(loadConfig({ ENRICHMENT_TIMEOUT_MS: '10' }).enrichment.timeoutMs).toBe(10);
    expect(() => loadConfig({ ENRICHMENT_PROVIDER_TOKEN: 'sk_live_abc' })).toThrow(
      /^ENRICHMENT_PROVIDER_TOKEN is set but ENRICHMENT_PROVIDER_URL is not[^\n]*$/,
    );
  });

  it('C1.3: a bad value stops `serve` before it starts, with one line on stderr', async () => {
    let stdout = '';
    let stderr = '';
    const sink = (append: (text: string) => void) =>
      new Writable({
        write(chunk, _encoding, done) {
          append(String(chunk));
          done();
        },
      });
    const code = await run(['serve'], {
      stdout: sink((text) => (stdout += text)),
      stderr: sink((text) => (stderr += text)),
      stdin: Readable.from([]),
      env: { DATABASE_URL: ':memory:', PORT: 'abc' },
    });
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/^leadlight: [^\n]*PORT[^\n]*\n$/);
    expect(stdout).toBe('');
  });

  describe('the first-start demo switch (C1.2)', () => {
    it('C1.2: is on by default for SQLite', () => {
      expect(loadConfig({ DATABASE_URL: '/tmp/demo.db' }).demo).toBe(true);
      expect(loadConfig({ LEADLIGHT_DEMO: '1' }).demo).toBe(true);
    });

    it('C1.2: LEADLIGHT_DEMO=0 turns it off', () => {
      expect(loadConfig({ LEADLIGHT_DEMO: '0' }).demo).toBe(false);
      expect(loadConfig({ DATABASE_URL: 'sqlite:/tmp/demo.db', LEADLIGHT_DEMO: '0' }).demo).toBe(false);
    });

    it('C1.2: a PostgreSQL DATABASE_URL turns it off, whatever LEADLIGHT_DEMO says', () => {
      expect(loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/leadlight' }).demo).toBe(false);
      expect(loadConfig({ DATABASE_URL: 'postgresql://127.0.0.1/leadlight', LEADLIGHT_DEMO: '1' }).demo).toBe(false);
    });
  });
});
