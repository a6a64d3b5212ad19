/**
 * Probes for orchestrators, outside /api/v1 and without a key:
 * /healthz says the process is up; /readyz says whether it can serve, that is
 * whether the database answers within 2 s and can write (a full disk or I/O
 * errors: issue 9), and how rate limits are being shared. Neither waits
 * behind the admission queue or the load shedding.
 */
import type { FastifyPluginAsync } from 'fastify';
import { PING_TIMEOUT_MS, type Database } from '../../db/database.js';

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
      await database.ping(PING_TIMEOUT_MS);
    } catch {
      databaseState = 'unreachable';
    }
    let writes = 'ok';
    const failure = database.writeFailure();
    if (failure !== undefined && !(await database.probeWrites())) {
      const short = database.writeFailure()?.checkpointShortBytes ?? 0;
      const copy = short > 0 ? `; the write-ahead log needs ${(short / 1_048_576).toFixed(1)} MiB more free space to be copied into the database` : '';
      writes = `failing since ${failure.since}: ${failure.code} (${failure.message})${copy}`;
    }
    const ready = databaseState === 'ok' && writes === 'ok';
    reply.code(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'unavailable', database: databaseState, writes, rate_limits: rateLimitState() };
  });
};
