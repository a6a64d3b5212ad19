/**
 * Builds the HTTP application: one Fastify instance over one store, with the
 * gate (keys and rate limits), the request guards, the error shape, the
 * OpenAPI document and its reference page (/docs), the probes, /metrics, one log line per request, the
 * /api/v1 routes, and the dashboard (its page at /, its session-bound
 * endpoints under /dashboard/api). Listening is left to the caller (server.ts, or tests
 * through inject).
 */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DEFAULT_HTTP_LIMITS, DEFAULT_TRACKING, type Config } from './config.js';
import type { Database } from './db/database.js';
import { DASHBOARD_API_PREFIX, sessionGate } from './http/dashboard/session-gate.js';
import { deprecation } from './http/plugins/deprecation.js';
import { registerDashboardApp } from './http/plugins/dashboard-app.js';
import { clientErrorHandler, connectionPolicy, serverOptions } from './http/plugins/connection-policy.js';
import { errorHandler, sendError, toHttpError } from './http/plugins/error-handler.js';
import { inFlightBound, loadShedding } from './http/plugins/admission.js';
import { createAdmission, gate, isApiRequest } from './http/plugins/gate.js';
import { idempotency } from './http/plugins/idempotency.js';
import { jsonCompression } from './http/plugins/json-compression.js';
import { openapi } from './http/plugins/openapi.js';
import { referenceRoutes } from './http/plugins/reference.js';
import { requestGuards } from './http/plugins/request-guards.js';
import { logRequest, looksKeyShaped, requestLog } from './http/plugins/request-log.js';
import { observeRequest, requestMetrics } from './http/plugins/request-metrics.js';
import { OverloadLog } from './http/overload-log.js';
import { RouteTable } from './http/route-table.js';
import { pathOf } from './http/url-path.js';
import { batchRoutes } from './http/routes/batch.routes.js';
import { companiesRoutes } from './http/routes/companies.routes.js';
import { alertsRoutes } from './http/routes/alerts.routes.js';
import { companyRulesRoutes } from './http/routes/company-rules.routes.js';
import { companyRuleRoutes } from './http/routes/dashboard/company-rules.routes.js';
import { recordsRoutes } from './http/routes/dashboard/records.routes.js';
import { searchRoutes } from './http/routes/dashboard/search.routes.js';
import { segmentRoutes } from './http/routes/dashboard/segments.routes.js';
import { leadNoteRoutes } from './http/routes/dashboard/lead-notes.routes.js';
import { liveRoutes } from './http/routes/dashboard/live.routes.js';
import { dashboardOpenapiRoutes } from './http/routes/dashboard/openapi.routes.js';
import { LiveHub, liveLimitsFor } from './services/live/live-hub.js';
import { MemoryLiveBus } from './services/live/live-bus.js';
import { exportRoutes as dashboardExportRoutes } from './http/routes/dashboard/export.routes.js';
import { accountsRoutes } from './http/routes/dashboard/accounts.routes.js';
import { sessionRoutes } from './http/routes/dashboard/session.routes.js';
import { settingsRoutes } from './http/routes/dashboard/settings.routes.js';
import { digestRoutes } from './http/routes/dashboard/digests.routes.js';
import { intelligenceRoutes } from './http/routes/dashboard/intelligence.routes.js';
import { siteKeyRoutes } from './http/routes/dashboard/site-keys.routes.js';
import { webhookRoutes as dashboardWebhookRoutes } from './http/routes/dashboard/webhooks.routes.js';
import { alertRoutes as dashboardAlertRoutes } from './http/routes/dashboard/alerts.routes.js';
import { exportRoutes } from './http/routes/export.routes.js';
import { erasuresRoutes } from './http/routes/erasures.routes.js';
import { healthRoutes } from './http/routes/health.routes.js';
import { identitiesRoutes } from './http/routes/identities.routes.js';
import { ingestRoutes } from './http/routes/ingest.routes.js';
import { leadsRoutes } from './http/routes/leads.routes.js';
import { leadNotesRoutes } from './http/routes/lead-notes.routes.js';
import { listsRoutes } from './http/routes/lists.routes.js';
import { metricsRoutes } from './http/routes/metrics.routes.js';
import { openapiRoutes } from './http/routes/openapi.routes.js';
import { recordSearchRoutes } from './http/routes/record-search.routes.js';
import { trackerRoutes } from './http/routes/tracker.routes.js';
import { usersRoutes } from './http/routes/users.routes.js';
import { webhooksRoutes } from './http/routes/webhooks.routes.js';
import { changesRoutes } from './http/routes/changes.routes.js';
import { ErrorSchema } from './http/schemas/common.js';
import { compileValidator } from './http/validation.js';
import { AppMetrics } from './observability/app-metrics.js';
import { MemoryRateLimiter } from './rate-limit/memory-limiter.js';
import type { Clock, RateLimiter } from './rate-limit/rate-limiter.js';
import { Store } from './repositories/index.js';
import { RESOURCE_SCHEMAS } from './schemas/resources.js';
import { createServices } from './services/index.js';

export const BODY_LIMIT = 1_048_576;

export interface AppOptions {
  config: Pick<Config, 'rateLimits' | 'trustProxy'> & Partial<Pick<Config, 'metricsToken' | 'tracking' | 'http' | 'admission' | 'webhooks' | 'intelligence'>>;
  database: Database;
  /** defaults to per-process counters */
  limiter?: RateLimiter;
  /** a pino logger; none when absent */
  logger?: FastifyBaseLogger;
  /** the clock of rate limits and key use records, for tests */
  clock?: Clock;
  /** more routes under /api/v1 (tests add throwaway routes with it) */
  extraRoutes?: FastifyPluginAsync;
  /** where the built dashboard is (default: dist/dashboard of this installation) */
  dashboardDirectory?: string;
  /** the Live page's notices (C9.2): the server passes one over Redis when REDIS_URL is set; default in this process only */
  live?: LiveHub;
}

const VALID_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

function requestIdOf(raw: { headers: Record<string, string | string[] | undefined> }): string {
  const incoming = raw.headers['x-request-id'];
  // a key sent as a request id would be logged with every line of the request (issue 9)
  return typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) && !looksKeyShaped(incoming) ? incoming : crypto.randomUUID();
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const tracking = config.tracking ?? DEFAULT_TRACKING;
  const live = options.live ?? new LiveHub(new MemoryLiveBus(), liveLimitsFor((config.http ?? DEFAULT_HTTP_LIMITS).maxConnections));
  const services = createServices(new Store(database), {
    clock: options.clock,
    tracking,
    webhooks: config.webhooks,
    intelligence: config.intelligence,
    onGeolocationError: (error, file) => options.logger?.warn({ err: error, file }, 'the geolocation database cannot be read'),
    onIngested: (workspaceId) => live.changed(workspaceId),
  });
  const limiter = options.limiter ?? new MemoryRateLimiter(options.clock);
  const metrics = new AppMetrics(() => database.poolStats());
  const admit = createAdmission({
    services,
    limiter,
    limits: config.rateLimits,
    onRateLimited: (refusedBy) => metrics.rateLimited(refusedBy),
    onKeyLookup: () => metrics.keyLookedUp(),
  });
  const routes = new RouteTable();

  const app = Fastify({
    ...(options.logger === undefined ? { logger: false } : { loggerInstance: options.logger }),
    ...serverOptions(config.http),
    clientErrorHandler: clientErrorHandler(options.logger),
    // request-log.ts logs one line per request instead
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16_384 },
    requestIdHeader: false,
    genReqId: requestIdOf,
    frameworkErrors: (error, request, reply) => {
      // The router could not read the URL; the request still meets the gate
      // first. No hook runs for it, so it is timed and logged here.
      const started = performance.now();
      reply.raw.once('finish', () => {
        observeRequest(metrics, request, reply, performance.now() - started);
        logRequest(request, reply, performance.now() - started);
      });
      reply.header('x-request-id', request.id);
      admit(request, reply).then(
        () => sendError(reply, toHttpError(error, request)),
        (failure: unknown) => sendError(reply, toHttpError(failure, request)),
      );
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(compileValidator);
  for (const schema of [...RESOURCE_SCHEMAS, ErrorSchema]) app.addSchema(schema);
  app.decorate('routeTable', routes);
  app.decorate('cursors', services.cursors);
  app.addHook('onRoute', (route) => routes.addRoute(route));
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  await app.register(connectionPolicy, { limits: config.http });
  await app.register(requestMetrics, { metrics });
  const overloadLog = new OverloadLog(options.logger, { now: options.clock });
  app.addHook('onClose', async () => overloadLog.close());
  await app.register(loadShedding, { config: config.admission, overloadLog });
  await app.register(inFlightBound, {
    config: config.admission,
    overloadLog,
    needsSlot: (request) =>
      isApiRequest(request) || request.url.startsWith(DASHBOARD_API_PREFIX) || pathOf(request.url) === tracking.eventsPath,
  });
  await app.register(requestGuards);
  await app.register(gate, { admit });
  await app.register(sessionGate, { services });
  await app.register(requestLog);
  const dashboardFallback = await registerDashboardApp(app, { directory: options.dashboardDirectory });
  await app.register(errorHandler, { allowedMethods: (path) => routes.allowedMethods(path), fallback: dashboardFallback });
  await app.register(openapi);
  await app.register(idempotency);
  await app.register(deprecation);
  await app.register(referenceRoutes);
  await app.register(healthRoutes, { database, rateLimitState: () => limiter.state() });
  await app.register(metricsRoutes, { metrics, token: config.metricsToken });
  await app.register(trackerRoutes, {
    tracking,
    onMissing: () => options.logger?.error('the tracker script has not been built (npm run build): its path answers 404'),
  });
  await app.register(ingestRoutes, {
    services,
    limiter,
    tracking,
    clock: options.clock ?? Date.now,
    onRateLimited: (refusedBy) => metrics.rateLimited(refusedBy),
  });
  await app.register(
    async (api) => {
      await api.register(openapiRoutes);
      await api.register(leadsRoutes);
      await api.register(leadNotesRoutes, { services });
      await api.register(identitiesRoutes);
      await api.register(companiesRoutes);
      await api.register(listsRoutes);
      await api.register(usersRoutes);
      await api.register(erasuresRoutes);
      await api.register(webhooksRoutes);
      await api.register(changesRoutes);
      await api.register(companyRulesRoutes);
      await api.register(alertsRoutes);
      await api.register(batchRoutes);
      await api.register(recordSearchRoutes);
      await api.register(exportRoutes);
      if (options.extraRoutes !== undefined) await api.register(options.extraRoutes);
    },
    { prefix: '/api/v1' },
  );
  await app.register(
    async (dashboard) => {
      await dashboard.register(dashboardOpenapiRoutes);
      await dashboard.register(jsonCompression);
      await dashboard.register(sessionRoutes, { services });
      await dashboard.register(recordsRoutes);
      await dashboard.register(leadNoteRoutes);
      await dashboard.register(settingsRoutes, { services });
      await dashboard.register(digestRoutes, { services });
      await dashboard.register(siteKeyRoutes, { services, scriptPath: tracking.scriptPath });
      await dashboard.register(intelligenceRoutes);
      await dashboard.register(dashboardWebhookRoutes);
      await dashboard.register(companyRuleRoutes);
      await dashboard.register(accountsRoutes);
      await dashboard.register(searchRoutes);
      await dashboard.register(segmentRoutes);
      await dashboard.register(liveRoutes, { hub: live });
      await dashboard.register(dashboardAlertRoutes);
      await dashboard.register(dashboardExportRoutes);
    },
    { prefix: DASHBOARD_API_PREFIX },
  );
  app.addHook('preClose', async () => {
    live.endStreams();
  });
  app.addHook('onClose', async () => {
    if (options.live === undefined) await live.close();
    await limiter.close();
  });
  return app;
}
