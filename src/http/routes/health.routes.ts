/**
 * Probes for orchestrators, outside /api/v1 and without a key:
 * /healthz says the process is up; /readyz says whether it can serve, that is
 * whether the database answers (and how rate limits are being shared).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/database.js';

export interface HealthOptions {
  database: Database;
  /** 'memory' for per-process limits; Redis state when limits are shared */
  rateLimitState: () => string;
}

export const healthRoutes: FastifyPluginAsync<HealthOptions> = async (app, { database, rateLimitState }) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    let databaseState = 'ok';
    try {
      await database.ping();
    } catch {
      databaseState = 'unreachable';
    }
    const ready = databaseState === 'ok';
    reply.code(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'unavailable', database: databaseState, rate_limits: rateLimitState() };
  });
};
