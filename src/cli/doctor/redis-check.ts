/**
 * Doctor's check of REDIS_URL: Redis answers PING within the time limit, and
 * its clock (TIME), for the clock check: shared rate-limit windows are
 * aligned to the clock (CONTRACT C3.3).
 */
import { Redis } from 'ioredis';
import { messageOf, within, type CheckResult } from './check.js';

export interface RedisProbe {
  check: CheckResult;
  /** Redis's clock minus this machine's, in milliseconds, when it answered */
  skewMs?: number;
}

function describe(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.hostname}:${parsed.port || '6379'}`;
}

export async function probeRedis(url: string): Promise<RedisProbe> {
  const where = describe(url);
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    commandTimeout: 2000,
    retryStrategy: () => null,
  });
  // kept for the report (the failed command only says the connection closed); unheard, ioredis would print it
  let cause: unknown;
  redis.on('error', (error) => (cause = error));
  try {
    const started = performance.now();
    await within(redis.connect().then(() => redis.ping()));
    const elapsed = Math.round(performance.now() - started);
    const before = Date.now();
    const [seconds, micros] = await within(redis.time());
    const skewMs = Number(seconds) * 1000 + Number(micros) / 1000 - (before + Date.now()) / 2;
    return { check: { name: 'redis', status: 'ok', detail: `${where} answers PING (${elapsed} ms)` }, skewMs };
  } catch (error) {
    return { check: { name: 'redis', status: 'fail', detail: `${where}: ${messageOf(cause ?? error)}` } };
  } finally {
    // on a closed connection, disconnect() would wait 2 s for a close that already happened
    if (redis.status !== 'end') redis.disconnect();
  }
}
