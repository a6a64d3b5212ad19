/**
 * Rate limits shared by every API process through Redis (CONTRACT C3.3: N
 * processes together admit exactly the limit, never more).
 *
 * Each window of each bucket is one Redis counter of requests *granted*. A
 * process reserves a share of the window's allowance with one atomic script
 * and spends it locally, so most requests cost no round trip. The share is
 * min(MAX_BATCH, floor(remaining / BATCH_DIVISOR)), and at least 1: while
 * fewer than 2 × BATCH_DIVISOR requests remain (so always, for the contract's
 * limits of 100 and 1000) every request is counted in Redis one by one and
 * the limit is admitted exactly. With larger limits a process that stops
 * receiving requests can keep a reserved share unused until the window ends:
 * fewer requests may be admitted, never more. Once Redis says a window is
 * used up, the process refuses that bucket locally until the window ends.
 *
 * Written here rather than with rate-limiter-flexible: its Redis limiter pays
 * a round trip on every request and its windows start at a bucket's first
 * request, while the contract's windows are aligned to the clock so that every
 * process reports the same X-RateLimit-Reset.
 *
 * When Redis is unreachable, requests are limited per process (the in-memory
 * limiter), the outage is logged once, and shared counting resumes by itself
 * when Redis answers again: after a cut connection ioredis reconnects; after a
 * stall (a command timed out on a connection that still looks open) the
 * connection is dropped and opened again, and while degraded a PING probes
 * Redis every few seconds (issue 9).
 */
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { MemoryRateLimiter } from './memory-limiter.js';
import { decide, WINDOW_MS, windowIndex, type Clock, type RateLimitDecision, type RateLimiter } from './rate-limiter.js';

export const BATCH_DIVISOR = 1000;
export const MAX_BATCH = 256;

const RESERVE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local grant = math.min(tonumber(ARGV[2]), tonumber(ARGV[1]) - used)
if grant <= 0 then return {0, used} end
used = redis.call('INCRBY', KEYS[1], grant)
if used == grant then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return {grant, used}
`;

interface Share {
  /** reserved and not yet spent by this process */
  tokens: number;
  /** the window's granted count as Redis last reported it */
  granted: number;
  /** spent by this process since the last report */
  spent: number;
  exhausted: boolean;
  pending: Promise<void> | null;
}

export interface RedisLimiterOptions {
  url: string;
  logger?: FastifyBaseLogger;
  clock?: Clock;
  /** prefix of the Redis keys (tests use one per run) */
  keyPrefix?: string;
  /** a command unanswered this long fails and counts as an outage (default 1000) */
  commandTimeoutMs?: number;
  /** while degraded, Redis is probed this often (default 2000) */
  probeIntervalMs?: number;
}

const COMMAND_TIMED_OUT = /command timed out/i;

export class RedisRateLimiter implements RateLimiter {
  readonly redis: Redis;
  readonly #fallback: MemoryRateLimiter;
  readonly #clock: Clock;
  readonly #logger?: FastifyBaseLogger;
  readonly #prefix: string;
  #window = -1;
  #shares = new Map<string, Share>();
  #reachable = true;
  #closing = false;
  #probe: NodeJS.Timeout | undefined;
  readonly #probeIntervalMs: number;
  /** round trips to Redis made for reservations (for tests and metrics) */
  reservations = 0;

  constructor(options: RedisLimiterOptions) {
    this.#clock = options.clock ?? Date.now;
    this.#logger = options.logger;
    this.#prefix = options.keyPrefix ?? 'leadlight:rl:';
    this.#fallback = new MemoryRateLimiter(this.#clock);
    this.#probeIntervalMs = options.probeIntervalMs ?? 2000;
    this.redis = new Redis(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 1000,
      connectTimeout: 2000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    this.redis.defineCommand('leadlightReserve', { numberOfKeys: 1, lua: RESERVE });
    this.redis.on('ready', () => this.#reachableAgain());
    this.redis.on('error', (error) => this.#unreachable(error));
    this.redis.on('close', () => this.#unreachable(new Error('connection to Redis closed')));
  }

  /** Resolves true once Redis answers, or false after `timeoutMs`. */
  async connected(timeoutMs: number): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.redis.off('ready', onReady);
        resolve(false);
      }, timeoutMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.redis.once('ready', onReady);
    });
  }

  state(): string {
    return this.#shared() ? 'redis' : 'redis unreachable: limits are per process';
  }

  now(): number {
    return this.#clock();
  }

  async consume(bucket: string, limit: number): Promise<RateLimitDecision> {
    if (!this.#shared()) return this.#fallback.consume(bucket, limit);
    const nowMs = this.#clock();
    const share = this.#share(bucket, nowMs);
    try {
      for (;;) {
        if (share.tokens > 0) {
          share.tokens -= 1;
          share.spent += 1;
          return decide(limit, Math.min(limit, share.granted - share.tokens), true, nowMs);
        }
        if (share.exhausted) return decide(limit, limit, false, nowMs);
        share.pending ??= this.#reserve(bucket, share, limit, nowMs).finally(() => {
          share.pending = null;
        });
        await share.pending;
      }
    } catch (error) {
      this.#unreachable(error as Error);
      return this.#fallback.consume(bucket, limit);
    }
  }

  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#probe);
    this.redis.disconnect();
    await this.#fallback.close();
  }

  #share(bucket: string, nowMs: number): Share {
    const window = windowIndex(nowMs);
    if (window !== this.#window) {
      this.#window = window;
      this.#shares = new Map();
    }
    let share = this.#shares.get(bucket);
    if (share === undefined) {
      share = { tokens: 0, granted: 0, spent: 0, exhausted: false, pending: null };
      this.#shares.set(bucket, share);
    }
    return share;
  }

  async #reserve(bucket: string, share: Share, limit: number, nowMs: number): Promise<void> {
    const window = windowIndex(nowMs);
    const wanted = Math.min(MAX_BATCH, Math.max(1, Math.floor((limit - share.granted) / BATCH_DIVISOR)));
    const key = `${this.#prefix}${window}:${bucket}`;
    this.reservations += 1;
    const [grant, granted] = (await (
      this.redis as unknown as {
        leadlightReserve(key: string, limit: number, wanted: number, ttl: number): Promise<[number, number]>;
      }
    ).leadlightReserve(key, limit, wanted, 2 * WINDOW_MS)) as [number, number];
    share.granted = granted;
    if (grant === 0) share.exhausted = true;
    else share.tokens += grant;
  }

  #shared(): boolean {
    return this.#reachable && this.redis.status === 'ready';
  }

  #unreachable(error: Error): void {
    if (this.#closing) return;
    if (this.#reachable) {
      this.#logger?.error({ err: error }, 'Redis is unreachable: rate limits are per process until it returns');
    }
    this.#reachable = false;
    // a stalled connection still looks open and would never emit 'ready' again
    if (COMMAND_TIMED_OUT.test(error.message) && this.redis.status === 'ready') this.redis.disconnect(true);
    this.#probe ??= setInterval(() => this.#probeOnce(), this.#probeIntervalMs).unref();
  }

  #probeOnce(): void {
    if (this.#reachable || this.redis.status !== 'ready') return;
    this.redis.ping().then(
      () => this.#reachableAgain(),
      (error: unknown) => this.#unreachable(error as Error),
    );
  }

  #reachableAgain(): void {
    if (this.#closing) return;
    clearInterval(this.#probe);
    this.#probe = undefined;
    if (!this.#reachable) this.#logger?.info('Redis is reachable again: rate limits are shared again');
    this.#reachable = true;
  }
}
