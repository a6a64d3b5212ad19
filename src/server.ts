/**
 * Starts one API process: opens and migrates the store, creates the demo
 * workspace on the first start of an empty embedded database (CONTRACT C1.2),
 * listens, runs the webhook delivery worker (C8.5), the intelligence and
 * enrichment workers (C6), and runs the tracking maintenance job (partitions, retention,
 * salts: C5.8) every hour. Signals and shutdown belong to the caller (the
 * `serve` command).
 */
import net from 'node:net';
import type { Writable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pino, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import { buildApp } from './app.js';
import { createLiveHub } from './services/live/index.js';
import { liveLimitsFor } from './services/live/live-hub.js';
import { relayOutboxHints } from './services/webhooks/outbox-relay.js';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { REDACTED, redactKeys } from './http/plugins/request-log.js';
import { createRateLimiter } from './rate-limit/index.js';
import { Store } from './repositories/index.js';
import { createServices, type Services } from './services/index.js';
import { generatePassword } from './services/operator/passwords.js';
import type { WorkspaceId } from './tenancy/workspace-id.js';

/** how often each process runs the tracking maintenance (every process does; each run is safe alongside others) */
const MAINTENANCE_INTERVAL_MS = 60 * 60_000;

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  /** the address it listens on, e.g. http://127.0.0.1:3000 */
  url: string;
  close(): Promise<void>;
}

export interface StartOptions {
  /** where the first-start banner is printed (stdout) */
  output: Writable;
  logger?: FastifyBaseLogger;
}

export interface DemoKeys {
  workspaceId: WorkspaceId;
  production: string;
  development: string;
  /** the demo admin who signs in to the dashboard, with a password shown this once */
  admin: { email: string; password: string };
}

/**
 * The process's logger: readable lines (pino-pretty) when stdout is a
 * terminal, one JSON object a line otherwise (files, journald, collectors).
 * Keys are never logged: request headers are not serialized, the headers that
 * carry keys are redacted should anything log them, and key-shaped text in a
 * logged URL is replaced (request-log.ts).
 */
export function createLogger(
  config: Pick<Config, 'logLevel'>,
  stdout: { isTTY?: boolean } = process.stdout,
): FastifyBaseLogger {
  const options: LoggerOptions = {
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]'], censor: REDACTED },
    serializers: {
      req: (req: { method?: string; url?: string; ip?: string }) => ({
        method: req.method,
        url: req.url === undefined ? undefined : redactKeys(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
  if (stdout.isTTY !== true) return pino(options);
  return pino(options, pretty({ ignore: 'hostname', translateTime: 'SYS:HH:MM:ss.l', singleLine: true, sync: true }));
}

async function createDemo(services: Services): Promise<DemoKeys> {
  const counts = await services.seed.seedDemo();
  const production = await services.apiKeys.create(counts.workspace_id, 'production', 'demo production key');
  const development = await services.apiKeys.create(counts.workspace_id, 'development', 'demo development key');
  // the demo's first admin signs in to the dashboard (CONTRACT C7.2)
  const { items } = await services.forWorkspace(counts.workspace_id).users.list({ role: 'admin' }, { limit: 1, offset: 0 });
  const admin = items[0];
  if (admin === undefined) throw new Error('the demo workspace has no admin');
  const password = generatePassword();
  await services.accounts.setPassword(admin.id, password);
  return {
    workspaceId: counts.workspace_id,
    production: production.key,
    development: development.key,
    admin: { email: admin.email, password },
  };
}

export function printDemo(output: Writable, demo: DemoKeys, url: string): void {
  output.write(
    [
      '',
      `Leadlight created a demo workspace (${demo.workspaceId}) with sample leads, identities and companies.`,
      'Its API keys are shown this once; only their hashes are stored:',
      `  production key:  ${demo.production}`,
      `  development key: ${demo.development}`,
      'Try it:',
      `  curl -H "Authorization: Bearer ${demo.development}" ${url}/api/v1/leads`,
      '',
      `The dashboard is at ${url}/ ; sign in as its admin (this password is shown this once too):`,
      `  email:    ${demo.admin.email}`,
      `  password: ${demo.admin.password}`,
      '',
      '',
    ].join('\n'),
  );
}

export function displayUrl(address: string): string {
  return address.replace('://0.0.0.0:', '://127.0.0.1:').replace('://[::]:', '://localhost:');
}

/**
 * Migrates the store and, on the first start of an empty embedded database,
 * creates the demo workspace. Returns the demo keys to print once listening.
 */
export async function prepareStore(config: Config, database: Database): Promise<DemoKeys | undefined> {
  await database.migrate();
  const services = createServices(new Store(database), { tracking: config.tracking, intelligence: config.intelligence });
  return config.demo && (await services.workspaces.isEmpty()) ? createDemo(services) : undefined;
}

/**
 * Stops taking connections without resetting any (issue 9): from now on
 * every answer carries `Connection: close`, so a keep-alive client sends no
 * further request on a connection that is about to close; connections idle
 * now get `graceMs` to send one last request (answered, then closed), and
 * are closed after it. Node's own server.close() would close idle
 * connections at once, resetting a request a client has just written.
 * Resolves when every connection has closed.
 */
async function drain(app: FastifyInstance, graceMs: number): Promise<void> {
  app.draining.start();
  const server = app.server;
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
  clearTimeout(timer);
  // a request that reached the socket before the grace ended is read in this
  // turn's poll phase, after the timer: only then is an idle connection idle
  await new Promise((resolve) => setImmediate(resolve));
  server.closeIdleConnections();
  await closed;
}

export async function startServer(config: Config, options: StartOptions): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config);
  const database = openDatabase(config.database, {
    onPoolError: (error) => logger.warn({ err: error }, 'database connection lost'),
    backgroundCheckpoints: true,
  });
  try {
    const demo = await prepareStore(config, database);
    const live = createLiveHub(config.redisUrl, (error) => logger.warn({ err: error }, 'Redis pub/sub of live notices failed; Live pages of other processes may miss updates until it answers'), liveLimitsFor(config.http.maxConnections));
    // commits that wrote to an outbox wake the delivery workers of every process (README "Alerts")
    const relay = relayOutboxHints(config.redisUrl, database.commits, (error) =>
      logger.warn({ err: error }, 'Redis pub/sub of delivery hints failed; other processes deliver at their next poll until it answers'),
    );
    const app = await buildApp({ config, database, logger, limiter: await createRateLimiter(config.redisUrl, logger), live });
    const address = await app.listen({ host: config.host, port: config.port });
    const url = displayUrl(address);
    if (demo !== undefined) printDemo(options.output, demo, url);
    const services = createServices(new Store(database), { tracking: config.tracking, webhooks: config.webhooks, intelligence: config.intelligence, enrichment: config.enrichment, alerts: config.alerts });
    const maintenance = services.trackingMaintenance;
    maintenance.start(MAINTENANCE_INTERVAL_MS, (error) => logger.warn({ err: error }, 'tracking maintenance failed; it runs again within the hour'));
    const intelligence = config.intelligence.worker ? services.intelligence : undefined;
    intelligence?.start(config.intelligence.intervalMs, (error) =>
      logger.warn({ err: error }, 'lead intelligence round failed; its visitors are tried again when their claims end'),
    );
    // every process drains the reverse DNS queue (C6.6) unless REVERSE_DNS=off
    const reverseDns = config.intelligence.worker && config.intelligence.reverseDns ? services.reverseDns : undefined;
    reverseDns?.start(config.intelligence.intervalMs, (error) =>
      logger.warn({ err: error }, 'reverse DNS round failed; its visitors are tried again when their claims end'),
    );
    // companies are enriched by the processes that run the intelligence worker, unless ENRICHMENT=off (C6.7)
    const enrichment = config.intelligence.worker && config.enrichment.enabled ? services.enrichment : undefined;
    enrichment?.start(config.enrichment.pollMs, (error) =>
      logger.warn({ err: error }, 'company enrichment round failed; its companies are tried again when their claims end'),
    );
    // every process drains the webhook outbox (C8.5)
    const webhooks = services.webhookWorker;
    webhooks.start((error) => logger.warn({ err: error }, 'webhook delivery failed; it runs again shortly'));
    // and the alert outbox (C10.3)
    const alerts = services.alertWorker;
    alerts.start((error) => logger.warn({ err: error }, 'alert delivery failed; it runs again shortly'));
    // and sends the members' digests at 08:00 of their workspace (C10.4)
    const digests = services.digestWorker;
    digests.start((error) => logger.warn({ err: error }, 'digest round failed; it runs again shortly'));
    return {
      app,
      database,
      url,
      async close() {
        // an open event stream would hold its connection through the drain
        live.endStreams();
        await drain(app, config.http.shutdownIdleGraceMs);
        await app.close();
        await live.close();
        await relay.close();
        await maintenance.stop();
        await intelligence?.stop();
        await reverseDns?.stop();
        await enrichment?.stop();
        await webhooks.stop();
        await alerts.stop();
        await digests.stop();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
