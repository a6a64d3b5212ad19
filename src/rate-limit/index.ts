/**
 * The rate limiter a process uses: shared through Redis when REDIS_URL is
 * set, otherwise counted in this process alone.
 */
import type { FastifyBaseLogger } from 'fastify';
import { MemoryRateLimiter } from './memory-limiter.js';
import type { RateLimiter } from './rate-limiter.js';
import { RedisRateLimiter } from './redis-limiter.js';

const REDIS_START_WAIT_MS = 3000;

/** With Redis, waits briefly for it at start, so the first requests are already counted in it. */
export async function createRateLimiter(redisUrl: string | undefined, logger?: FastifyBaseLogger): Promise<RateLimiter> {
  if (redisUrl === undefined) return new MemoryRateLimiter();
  const limiter = new RedisRateLimiter({ url: redisUrl, logger });
  if (!(await limiter.connected(REDIS_START_WAIT_MS))) {
    logger?.warn('Redis did not answer at start: rate limits are per process until it does');
  }
  return limiter;
}
