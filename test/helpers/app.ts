/**
 * An API instance over a real store for tests, with helpers to make
 * workspaces and keys through the same services the CLI uses, and to send
 * authenticated requests through Fastify's inject (real HTTP semantics,
 * no socket).
 */
import type { FastifyInstance, FastifyPluginAsync, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { LiveHub } from '../../src/services/live/live-hub.js';
import { buildApp } from '../../src/app.js';
import { DEFAULT_INTELLIGENCE, DEFAULT_TRACKING, DEFAULT_WEBHOOKS, type IntelligenceConfig, type RateLimitConfig, type TrackingConfig, type WebhookConfig } from '../../src/config.js';
import type { StoreKind } from '../../src/db/codec.js';
import type { Clock, RateLimiter } from '../../src/rate-limit/rate-limiter.js';
import { Store } from '../../src/repositories/index.js';
import { createServices, type Services } from '../../src/services/index.js';
import type { WorkspaceId } from '../../src/tenancy/workspace-id.js';
import { createTestDatabase, type TestDatabase } from './stores.js';

/** Limits high enough that tests not about rate limiting never meet them. */
export const GENEROUS_LIMITS: RateLimitConfig = { production: 1_000_000, development: 1_000_000, unauthenticated: 1_000_000 };

export interface TestWorkspace {
  id: WorkspaceId;
  name: string;
  production: { id: string; key: string };
  development: { id: string; key: string };
}

export interface TestApp {
  kind: StoreKind;
  app: FastifyInstance;
  db: TestDatabase;
  services: Services;
  createWorkspace(name?: string): Promise<TestWorkspace>;
  /** a request with the workspace's production key as a Bearer token */
  as(workspace: TestWorkspace, options: InjectOptions): Promise<LightMyRequestResponse>;
  /** listens on a free loopback port (once) and answers its base URL, for tests over real HTTP */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  limits?: Partial<RateLimitConfig>;
  clock?: Clock;
  limiter?: RateLimiter;
  trustProxy?: boolean;
  /** reuse a database (several apps over one store) */
  db?: TestDatabase;
  /** more routes under /api/v1 */
  extraRoutes?: FastifyPluginAsync;
  /** tracking settings (C5); the ingest limits are generous unless given */
  tracking?: Partial<TrackingConfig>;
  /** webhook delivery settings (C8.5) */
  webhooks?: Partial<WebhookConfig>;
  /** lead intelligence settings (C6.6: REVERSE_DNS, DNS_SERVERS) */
  intelligence?: Partial<IntelligenceConfig>;
  /** the Live page's hub (C9.2): a test's own limits, or one over Redis */
  live?: LiveHub;
}

/** Tracking with limits that tests not about rate limiting never meet. */
export const GENEROUS_TRACKING: TrackingConfig = { ...DEFAULT_TRACKING, ingestLimit: 1_000_000, ingestAddressLimit: 1_000_000 };

let counter = 0;

export async function createTestApp(kind: StoreKind, options: TestAppOptions = {}): Promise<TestApp> {
  const db = options.db ?? (await createTestDatabase(kind));
  const tracking = { ...GENEROUS_TRACKING, ...options.tracking };
  const webhooks = { ...DEFAULT_WEBHOOKS, ...options.webhooks };
  const intelligence = { ...DEFAULT_INTELLIGENCE, ...options.intelligence };
  const services = createServices(new Store(db.database), { tracking, webhooks, intelligence });
  const app = await buildApp({
    config: { rateLimits: { ...GENEROUS_LIMITS, ...options.limits }, trustProxy: options.trustProxy ?? false, tracking, webhooks, intelligence },
    database: db.database,
    clock: options.clock,
    limiter: options.limiter,
    extraRoutes: options.extraRoutes,
    live: options.live,
  });
  await app.ready();
  let listening: Promise<string> | undefined;
  return {
    kind,
    app,
    db,
    services,
    async createWorkspace(name = `Workspace ${++counter}`) {
      const workspace = await services.workspaces.create(name);
      const production = await services.apiKeys.create(workspace.id, 'production', 'test production');
      const development = await services.apiKeys.create(workspace.id, 'development', 'test development');
      return {
        id: workspace.id,
        name: workspace.name,
        production: { id: production.id, key: production.key },
        development: { id: development.id, key: development.key },
      };
    },
    as(workspace, request) {
      return app.inject({
        ...request,
        headers: { authorization: `Bearer ${workspace.production.key}`, ...request.headers },
      });
    },
    listen() {
      listening ??= app.listen({ host: '127.0.0.1', port: 0 });
      return listening;
    },
    async close() {
      await app.close();
      if (options.db === undefined) await db.destroy();
    },
  };
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
